import { useQueryClient } from '@tanstack/react-query';
import { Button } from 'antd-mobile';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { FormError } from '@/components/FormError';
import { ListEmpty, ListLoading } from '@/components/ListState';
import { Page } from '@/components/Page';
import { PhotoField } from '@/components/PhotoField';
import { TextField } from '@/components/TextField';
import { useAction } from '@/lib/action';
import { api, ApiError, type BodyOf } from '@/lib/api/client';
import { queryKeys } from '@/lib/query';
import { toast, toastMessage } from '@/lib/toast';
import { type FieldError } from '@/lib/validation';
import { fundKeys, useChannels } from './api';
import { ChannelRules } from './ChannelRules';
import { PayeeDetails } from './PayeeDetails';
import { type DepositValues, validateDeposit } from './validation';

/** Deposit into one channel: amount, proof image (uploaded first), channel password. */
export default function RechargeChannelPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const qc = useQueryClient();
  const [params] = useSearchParams();
  const channels = useChannels();
  const id = params.get('id');
  const ch = channels.data?.find((c) => c.id === id) ?? (id ? undefined : channels.data?.[0]);

  const [v, setV] = useState<DepositValues>({ amount: '', proofFileId: '', channelPassword: '' });
  // Bumped to clear the proof uploader when the server refuses the proof.
  const [proofField, setProofField] = useState(0);
  const [err, setErr] = useState<FieldError<keyof DepositValues | 'window'> | null>(null);
  const set = (k: keyof DepositValues) => (val: string) => {
    setV((p) => ({ ...p, [k]: val }));
    if (err?.field === k) setErr(null);
  };

  const deposit = useAction(
    (body: BodyOf<'/api/vue/funds/deposits'>, key) => api.post('/api/vue/funds/deposits', body, { idempotencyKey: key }),
    {
      onSuccess: () => {
        toast.show(t('funds.submitted'));
        void qc.invalidateQueries({ queryKey: fundKeys.recordsAll });
        void qc.invalidateQueries({ queryKey: queryKeys.userInfo });
        void navigate('/user/FundingDetails', { replace: true });
      },
      onError: (e) => {
        // The proof backs another deposit already: the member needs this transfer's receipt.
        if (e instanceof ApiError && e.msg === 'deposit_proof_used') {
          setProofField((n) => n + 1);
          setV((p) => ({ ...p, proofFileId: '' }));
          setErr({ field: 'proofFileId', key: e.msg });
        }
      },
    },
  );

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!ch) return;
    const fe = validateDeposit(v, ch);
    setErr(fe);
    if (fe) toastMessage(fe.key);
    else deposit.run({ channelId: ch.id, amount: v.amount.trim(), proofFileId: v.proofFileId, channelPassword: v.channelPassword });
  };

  return (
    <Page title={t('funds.channelTitle')} testId="recharge-channel-page">
      {channels.isPending ? (
        <ListLoading />
      ) : !ch ? (
        <ListEmpty text={t('msg.channel_not_found')} />
      ) : (
        <form onSubmit={submit} noValidate data-testid="deposit-form">
          <div className="channel">
            <ChannelRules ch={ch} />
          </div>
          <PayeeDetails payee={ch.payee} />
          <TextField
            label={`${t('funds.amount')} (${ch.currency})`}
            testId="deposit-amount"
            value={v.amount}
            onChange={(s) => set('amount')(s.replace(/[^\d.]/g, ''))}
            placeholder={t('funds.amountPlaceholder')}
            inputMode="decimal"
            maxLength={18}
            invalid={err?.field === 'amount'}
          />
          <PhotoField
            key={proofField}
            label={t('funds.proof')}
            hint={t('funds.proofHint')}
            testId="deposit-proof"
            invalid={err?.field === 'proofFileId'}
            onChange={set('proofFileId')}
          />
          <TextField
            label={t('funds.channelPassword')}
            testId="deposit-channel-password"
            type="password"
            value={v.channelPassword}
            onChange={set('channelPassword')}
            placeholder={t('funds.channelPasswordPlaceholder')}
            autoComplete="off"
            maxLength={64}
            invalid={err?.field === 'channelPassword'}
          />
          <FormError errorKey={err?.key ?? null} />
          <Button block color="primary" size="large" shape="rounded" type="submit" loading={deposit.pending} data-testid="deposit-submit">
            {t('funds.submit')}
          </Button>
        </form>
      )}
    </Page>
  );
}
