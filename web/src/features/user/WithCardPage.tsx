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
import { CARD_FIELD_MAX, cardBody, type CardValues, validateCard } from './walletValidation';
import '@/domain/wallet/wallet.css';

const EMPTY: CardValues = { holderName: '', bankName: '', branch: '', cardNumber: '', bankCode: '', ifsc: '', upi: '' };

function CardForm({ verifiedName }: { verifiedName: string }) {
  const w = useWalletT();
  const qc = useQueryClient();
  const back = useBack();
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
    const fe = validateCard(v, verifiedName);
    setErr(fe);
    if (!fe) bind.run(cardBody(v));
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
      {field('bankName', w('withCard.bankName'), w('withCard.bankNamePlaceholder'))}
      {field('branch', w('withCard.branch'), w('withCard.branchPlaceholder'))}
      {field('cardNumber', w('withCard.cardNumber'), w('withCard.cardNumberPlaceholder'), {
        inputMode: 'numeric',
        maxLength: 24,
        onChange: (s: string) => set('cardNumber')(s.replace(/[^\d -]/g, '')),
      })}
      {field('bankCode', w('withCard.bankCode'), w('withCard.bankCodePlaceholder'), {
        inputMode: 'numeric',
        maxLength: 3,
        onChange: (s: string) => set('bankCode')(s.replace(/\D/g, '')),
      })}
      {field('ifsc', w('withCard.ifsc'), w('withCard.ifscPlaceholder'), { maxLength: 11, onChange: (s: string) => set('ifsc')(s.toUpperCase()) })}
      {field('upi', w('withCard.upi'), w('withCard.upiPlaceholder'))}
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
