import { useQueryClient } from '@tanstack/react-query';
import { Button } from 'antd-mobile';
import { type FormEvent, useEffect, useState } from 'react';
import { GateNote } from '@/components/GateNote';
import { FormError } from '@/components/FormError';
import { ListLoading } from '@/components/ListState';
import { Page } from '@/components/Page';
import { TextField } from '@/components/TextField';
import { useAction } from '@/lib/action';
import { api, type BodyOf } from '@/lib/api/client';
import { useBack } from '@/lib/nav';
import { toast } from '@/lib/toast';
import type { FieldError } from '@/lib/validation';
import { useWalletT } from '@/domain/wallet/texts';
import { walletKeys } from '@/domain/wallet/keys';
import { useRealName } from './walletApi';
import { CARD_FIELD_MAX, cardBody, type CardValues, enabledCardFields, validateCard } from './walletValidation';
import { useAppConfig } from '@/lib/config';
import { TAIWAN_BANKS } from '@/domain/wallet/banks';
import { useTranslation } from 'react-i18next';
import '@/domain/wallet/wallet.css';

const EMPTY: CardValues = { holderName: '', bankCode: '', branch: '', cardNumber: '', ifsc: '', upi: '' };

function CardForm({ verifiedName }: { verifiedName: string }) {
  const w = useWalletT();
  const { i18n } = useTranslation();
  const zh = i18n.language.startsWith('zh');
  const qc = useQueryClient();
  const back = useBack();
  // IFSC and UPI only where ops enabled them for a withdrawal channel.
  const extra = enabledCardFields(useAppConfig().data?.entries);
  const [v, setV] = useState<CardValues>({ ...EMPTY, holderName: verifiedName });
  const [err, setErr] = useState<FieldError<keyof CardValues> | null>(null);
  useEffect(() => setV((p) => (p.holderName ? p : { ...p, holderName: verifiedName })), [verifiedName]);
  const set = (k: keyof CardValues) => (val: string) => {
    setV((p) => ({ ...p, [k]: val }));
    if (err?.field === k) setErr(null);
  };
  const bind = useAction((body: BodyOf<'/api/vue/user/cards'>, key) => api.post('/api/vue/user/cards', body, { idempotencyKey: key }), {
    onSuccess: () => {
      toast.show(w('withCard.bound'));
      void qc.invalidateQueries({ queryKey: walletKeys.cards });
      back();
    },
  });
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const fe = validateCard(v, verifiedName, extra);
    setErr(fe);
    if (!fe) bind.run(cardBody(v, extra));
  };
  const field = (k: keyof CardValues, label: string, placeholder: string, extra: Partial<Parameters<typeof TextField>[0]> = {}) => (
    <TextField label={label} testId={`card-${k}`} value={v[k]} onChange={set(k)} placeholder={placeholder} maxLength={CARD_FIELD_MAX} invalid={err?.field === k} autoComplete="off" {...extra} />
  );
  return (
    <form onSubmit={onSubmit} noValidate data-testid="card-form" className="card">
      {field('holderName', w('withCard.holderName'), verifiedName)}
      <div className="proof-hint" data-testid="card-holder-hint">
        {w('withCard.holderHint', { name: verifiedName })}
      </div>
      <div className={err?.field === 'bankCode' ? 'field invalid' : 'field'}>
        <label htmlFor="card-bank" className="field-label">
          {w('withCard.bank')}
        </label>
        <div className="field-box">
          <select id="card-bank" className="field-input bank-select" data-testid="card-bankCode" value={v.bankCode} onChange={(e) => set('bankCode')(e.target.value)} aria-invalid={err?.field === 'bankCode' || undefined}>
            <option value="">{w('withCard.bankPlaceholder')}</option>
            {TAIWAN_BANKS.map(([code, zhName, en]) => (
              <option key={code} value={code}>{`${code} ${zh ? zhName : en}`}</option>
            ))}
          </select>
        </div>
      </div>
      {field('branch', w('withCard.branch'), w('withCard.branchPlaceholder'), {
        inputMode: 'numeric',
        maxLength: 4,
        onChange: (s: string) => set('branch')(s.replace(/\D/g, '')),
      })}
      {field('cardNumber', w('withCard.cardNumber'), w('withCard.cardNumberPlaceholder'), {
        inputMode: 'numeric',
        maxLength: 24,
        onChange: (s: string) => set('cardNumber')(s.replace(/[^\d -]/g, '')),
      })}
      {extra.has('ifsc') ? field('ifsc', w('withCard.ifsc'), w('withCard.ifscPlaceholder'), { maxLength: 11, onChange: (s: string) => set('ifsc')(s.toUpperCase()) }) : null}
      {extra.has('upi') ? field('upi', w('withCard.upi'), w('withCard.upiPlaceholder')) : null}
      <FormError errorKey={err?.key ?? null} />
      <Button block color="primary" size="large" shape="rounded" type="submit" loading={bind.pending} data-testid="card-submit">
        {w('withCard.submit')}
      </Button>
    </form>
  );
}

/** Add a bank card: only for a verified member, whose verified name must be the holder's. */
export default function WithCardPage() {
  const w = useWalletT();
  const rn = useRealName();
  const status = rn.data?.status;
  return (
    <Page title={w('withCard.title')} testId="with-card-page">
      {rn.isPending ? (
        <ListLoading />
      ) : status === 'verified' ? (
        <CardForm verifiedName={rn.data?.name ?? ''} />
      ) : (
        <GateNote
          card
          note={w(status === 'pending' ? 'withCard.needVerifiedPending' : 'withCard.needVerified')}
          to="/user/bandCard"
          link={w('withCard.goVerify')}
          testId="card-needs-verification"
          linkTestId="card-go-verify"
          status={status ?? ''}
        />
      )}
    </Page>
  );
}
