import { useQueryClient } from '@tanstack/react-query';
import { Button } from 'antd-mobile';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormError } from '@/components/FormError';
import { ListEmpty, ListLoading } from '@/components/ListState';
import { Page } from '@/components/Page';
import { PhotoField } from '@/components/PhotoField';
import { TextField } from '@/components/TextField';
import { useAction } from '@/lib/action';
import { api, type BodyOf } from '@/lib/api/client';
import { taipeiTime } from '@/lib/filters';
import { translateMessage } from '@/lib/i18n';
import { queryKeys } from '@/lib/query';
import { toast } from '@/lib/toast';
import type { FieldError } from '@/lib/validation';
import { useWalletT } from '@/domain/wallet/texts';
import { walletKeys } from '@/domain/wallet/keys';
import { type RealNameView, useRealName } from './walletApi';
import { normalizeName, type RealNameValues, validateRealName } from './walletValidation';
import '@/domain/wallet/wallet.css';

function Row({ label, children, testId }: { label: string; children: React.ReactNode; testId?: string }) {
  return (
    <div className="record-row">
      <span className="muted">{label}</span>
      <span data-testid={testId}>{children}</span>
    </div>
  );
}

/** What was submitted, with the status, the masked ID number and the reviewer's reason. */
function Summary({ r }: { r: RealNameView }) {
  const { t } = useTranslation();
  const w = useWalletT();
  const text = { verified: 'verifiedText', pending: 'pendingText', rejected: 'rejectedText', unverified: 'unverifiedText' } as const;
  return (
    <div className="card wallet-status" data-testid="realname-status" data-status={r.status}>
      <div className="record-row">
        <strong>{w('realName.statusLabel')}</strong>
        <span className={`badge badge-${r.status}`} data-testid="realname-badge">
          {t(`user.realName.${r.status}`)}
        </span>
      </div>
      <div className="wallet-note">{w(`realName.${text[r.status]}`)}</div>
      {r.status !== 'unverified' ? (
        <>
          <Row label={w('realName.name')} testId="realname-name-view">
            {r.name}
          </Row>
          <Row label={w('realName.idNumber')} testId="realname-id-masked">
            <span className="num">{r.idNumberMasked}</span>
          </Row>
          {r.submittedAt ? <Row label={w('realName.submittedAt')}>{taipeiTime(r.submittedAt)}</Row> : null}
          {r.reviewedAt && r.status !== 'pending' ? <Row label={w('realName.reviewedAt')}>{taipeiTime(r.reviewedAt)}</Row> : null}
          {r.status === 'rejected' && r.remark ? (
            <Row label={w('realName.reason')} testId="realname-remark">
              {r.remark}
            </Row>
          ) : null}
        </>
      ) : null}
    </div>
  );
}

function RealNameForm({ again }: { again: boolean }) {
  const w = useWalletT();
  const qc = useQueryClient();
  const [v, setV] = useState<RealNameValues>({ name: '', idNumber: '', frontFileId: '', backFileId: '' });
  const [err, setErr] = useState<FieldError<keyof RealNameValues> | null>(null);
  const set = (k: keyof RealNameValues) => (val: string) => {
    setV((p) => ({ ...p, [k]: val }));
    if (err?.field === k) setErr(null);
  };
  const submit = useAction((body: BodyOf<'/api/vue/user/realname'>, key) => api.post('/api/vue/user/realname', body, { idempotencyKey: key }), {
    onSuccess: () => {
      toast.show(translateMessage('realname_submitted'));
      void qc.invalidateQueries({ queryKey: walletKeys.realName });
      void qc.invalidateQueries({ queryKey: queryKeys.userInfo });
    },
  });
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const fe = validateRealName(v);
    setErr(fe);
    if (!fe) submit.run({ name: normalizeName(v.name), idNumber: v.idNumber.trim().toUpperCase(), frontFileId: v.frontFileId, backFileId: v.backFileId });
  };
  return (
    <form onSubmit={onSubmit} noValidate data-testid="realname-form" className="card">
      <TextField label={w('realName.name')} testId="realname-name" value={v.name} onChange={set('name')} placeholder={w('realName.namePlaceholder')} autoComplete="name" maxLength={50} invalid={err?.field === 'name'} />
      <TextField
        label={w('realName.idNumber')}
        testId="realname-id"
        value={v.idNumber}
        onChange={(s) => set('idNumber')(s.toUpperCase().replace(/[^A-Z0-9]/g, ''))}
        placeholder={w('realName.idNumberPlaceholder')}
        autoComplete="off"
        maxLength={10}
        invalid={err?.field === 'idNumber'}
      />
      <div className="photo-pair">
        <PhotoField label={w('realName.front')} testId="realname-front" invalid={err?.field === 'frontFileId'} onChange={set('frontFileId')} />
        <PhotoField label={w('realName.back')} testId="realname-back" invalid={err?.field === 'backFileId'} onChange={set('backFileId')} />
      </div>
      <div className="proof-hint">{w('realName.photoHint')}</div>
      <div className="proof-hint">{w('realName.privacy')}</div>
      <FormError errorKey={err?.key ?? null} />
      <Button block color="primary" size="large" shape="rounded" type="submit" loading={submit.pending} data-testid="realname-submit">
        {w(again ? 'realName.resubmit' : 'realName.submit')}
      </Button>
    </form>
  );
}

/** Real-name verification: the status, and the form while unverified or after a rejection. */
export default function RealNamePage() {
  const w = useWalletT();
  const q = useRealName();
  return (
    <Page title={w('realName.title')} testId="realname-page">
      {q.isPending ? (
        <ListLoading />
      ) : !q.data ? (
        <ListEmpty />
      ) : (
        <>
          <Summary r={q.data} />
          {q.data.status === 'unverified' || q.data.status === 'rejected' ? <RealNameForm again={q.data.status === 'rejected'} /> : null}
        </>
      )}
    </Page>
  );
}
