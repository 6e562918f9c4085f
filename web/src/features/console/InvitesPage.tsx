import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button } from 'antd-mobile';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ListEmpty, ListLoading } from '@/components/ListState';
import { Page } from '@/components/Page';
import { TextField } from '@/components/TextField';
import { useAction } from '@/lib/action';
import { api, type DataOf } from '@/lib/api/client';
import { taipeiTime } from '@/lib/filters';
import { toast, toastMessage } from '@/lib/toast';
import { ConsoleNav } from './ConsoleNav';
import { inviteCodeOK } from './form';
import { ReasonInput } from './ReasonInput';
import './console.css';

type Invite = DataOf<'/api/vue/ops/invites', 'get'>['items'][number];
const invitesKey = ['console', 'invites'] as const;

function Uses({ code }: { code: string }) {
  const uses = useQuery({
    queryKey: ['console', 'invites', code, 'uses'] as const,
    queryFn: ({ signal }) => api.get('/api/vue/ops/invites/{code}/uses', { params: { code }, signal }),
  });
  return (
    <ul className="muted" data-testid="invite-uses">
      {(uses.data ?? []).map((u) => (
        <li key={u.account}>
          {u.account} · <span className="num">{taipeiTime(u.registeredAt)}</span>
        </li>
      ))}
    </ul>
  );
}

function InviteItem({ iv }: { iv: Invite }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const [reason, setReason] = useState('');
  const [showUses, setShowUses] = useState(false);
  const disable = useAction(
    (r: string, key) => api.post('/api/vue/ops/invites/{code}/disable', { reason: r }, { params: { code: iv.code }, idempotencyKey: key }),
    { onSuccess: () => void qc.invalidateQueries({ queryKey: invitesKey }) },
  );
  return (
    <div className="record" data-testid="ops-invite" data-code={iv.code} data-disabled={iv.disabled}>
      <div className="record-row">
        <strong className="num">{iv.code}</strong>
        <span className={`badge ${iv.disabled ? 'badge-unverified' : 'badge-approved'}`}>
          {t(iv.disabled ? 'console.disabledState' : 'console.enabled')}
        </span>
      </div>
      <div className="muted">
        {t('console.createdBy', { by: iv.createdBy })} · <span className="num">{taipeiTime(iv.createdAt)}</span>
      </div>
      <button type="button" className="link" onClick={() => setShowUses((s) => !s)} data-testid="invite-uses-toggle">
        {t('console.uses', { count: iv.uses })}
      </button>
      {showUses ? <Uses code={iv.code} /> : null}
      {iv.disabled ? (
        <div className="muted">{t('console.disabledBy', { by: iv.disabledBy, reason: iv.reason })}</div>
      ) : (
        <div className="record-row">
          <ReasonInput label={t('console.reasonPlaceholder')} value={reason} onChange={setReason} testId="invite-reason" />
          <Button
            size="small"
            color="danger"
            loading={disable.pending}
            data-testid="invite-disable"
            onClick={() => (reason.trim() ? disable.run(reason.trim()) : toastMessage('remark_required'))}
          >
            {t('console.disable')}
          </Button>
        </div>
      )}
    </div>
  );
}

/** Ops create invite codes (typed or generated), see who used each, and close them. */
export default function InvitesPage() {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const [code, setCode] = useState('');
  const invites = useQuery({ queryKey: invitesKey, queryFn: ({ signal }) => api.get('/api/vue/ops/invites', { query: { size: 50 }, signal }) });
  const create = useAction((c: string, key) => api.post('/api/vue/ops/invites', { code: c }, { idempotencyKey: key }), {
    onSuccess: (r) => {
      toast.show(t('console.created', { code: r.code }));
      setCode('');
      void qc.invalidateQueries({ queryKey: invitesKey });
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const c = code.trim();
    if (!inviteCodeOK(c)) toastMessage('invite_code_invalid');
    else create.run(c.toUpperCase());
  };
  return (
    <Page title={t('console.invites')} testId="ops-invites-page">
      <ConsoleNav />
      <form className="card console-form" onSubmit={submit} noValidate data-testid="invite-form">
        <TextField label={t('console.code')} testId="invite-code" value={code} onChange={setCode} maxLength={16} invalid={!inviteCodeOK(code.trim())} />
        <Button block color="primary" type="submit" loading={create.pending} data-testid="invite-create">
          {t('console.create')}
        </Button>
      </form>
      {invites.isPending ? (
        <ListLoading />
      ) : invites.data?.items.length ? (
        invites.data.items.map((iv) => <InviteItem key={iv.code} iv={iv} />)
      ) : (
        <ListEmpty text={t('console.invites')} />
      )}
    </Page>
  );
}
