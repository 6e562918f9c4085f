import { useQueryClient } from '@tanstack/react-query';
import { Button, PasscodeInput } from 'antd-mobile';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormError } from '@/components/FormError';
import { ListLoading } from '@/components/ListState';
import { Page } from '@/components/Page';
import { TextField } from '@/components/TextField';
import { useAction } from '@/lib/action';
import { api } from '@/lib/api/client';
import { useBack } from '@/lib/nav';
import { queryKeys } from '@/lib/query';
import { toast } from '@/lib/toast';
import { useUserInfo } from '@/lib/user';
import type { FieldError } from '@/lib/validation';
import { type FundPasswordValues, validateFundPassword } from './validation';

function Passcode(p: { label: string; testId: string; value: string; onChange: (v: string) => void; invalid: boolean }) {
  return (
    <div className={p.invalid ? 'field invalid' : 'field'}>
      <div className="field-label">{p.label}</div>
      <PasscodeInput className="passcode" data-testid={p.testId} length={6} plain={false} value={p.value} onChange={p.onChange} error={p.invalid} inputMode="numeric" />
    </div>
  );
}

/** Fund password: set the first time (with the login password), change afterwards. */
export default function SetPasswordPage() {
  const { t } = useTranslation();
  const info = useUserInfo();
  const qc = useQueryClient();
  const back = useBack();
  const mode: 'set' | 'change' = info.data?.fundPasswordSet ? 'change' : 'set';
  const [v, setV] = useState<FundPasswordValues>({ current: '', fundPassword: '', confirmFundPassword: '' });
  const [err, setErr] = useState<FieldError<keyof FundPasswordValues> | null>(null);
  const set = (k: keyof FundPasswordValues) => (val: string) => {
    setV((p) => ({ ...p, [k]: val }));
    if (err?.field === k) setErr(null);
  };

  const save = useAction(
    (vals: FundPasswordValues & { mode: 'set' | 'change' }, key) =>
      vals.mode === 'set'
        ? api.post('/api/vue/user/fundPassword', { loginPassword: vals.current, fundPassword: vals.fundPassword, confirmFundPassword: vals.confirmFundPassword }, { idempotencyKey: key })
        : api.post('/api/vue/user/fundPassword/change', { oldFundPassword: vals.current, fundPassword: vals.fundPassword, confirmFundPassword: vals.confirmFundPassword }, { idempotencyKey: key }),
    {
      onSuccess: () => {
        toast.show(t('password.fundSaved'));
        void qc.invalidateQueries({ queryKey: queryKeys.userInfo });
        back();
      },
    },
  );

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const fe = validateFundPassword(v, mode);
    setErr(fe);
    if (!fe) save.run({ ...v, mode });
  };

  return (
    <Page title={t(mode === 'set' ? 'password.fundSetTitle' : 'password.fundChangeTitle')} testId="set-password-page">
      {info.isPending ? (
        <ListLoading />
      ) : (
        <form onSubmit={submit} noValidate data-testid="fund-password-form" data-mode={mode}>
          {mode === 'set' ? (
            <TextField label={t('password.loginPasswordForFund')} testId="fund-login-password" type="password" value={v.current} onChange={set('current')} placeholder={t('auth.passwordPlaceholder')} autoComplete="current-password" maxLength={64} invalid={err?.field === 'current'} />
          ) : (
            <Passcode label={t('password.oldFundPassword')} testId="fund-old" value={v.current} onChange={set('current')} invalid={err?.field === 'current'} />
          )}
          <Passcode label={t('password.newFundPassword')} testId="fund-new" value={v.fundPassword} onChange={set('fundPassword')} invalid={err?.field === 'fundPassword'} />
          <Passcode label={t('password.confirmFundPassword')} testId="fund-confirm" value={v.confirmFundPassword} onChange={set('confirmFundPassword')} invalid={err?.field === 'confirmFundPassword'} />
          <div className="proof-hint">{t('password.fundHint')}</div>
          <FormError errorKey={err?.key ?? null} />
          <Button block color="primary" size="large" shape="rounded" type="submit" loading={save.pending} data-testid="fund-submit">
            {t('common.submit')}
          </Button>
        </form>
      )}
    </Page>
  );
}
