import { useQueryClient } from '@tanstack/react-query';
import { Button } from 'antd-mobile';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { FormError } from '@/components/FormError';
import { Page } from '@/components/Page';
import { TextField } from '@/components/TextField';
import { useAction } from '@/lib/action';
import { api, type BodyOf } from '@/lib/api/client';
import { clearSession } from '@/lib/session';
import { toast } from '@/lib/toast';
import type { FieldError } from '@/lib/validation';
import { type ChangePasswordValues, validateChangePassword } from './validation';

export default function LoginPasswordPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const qc = useQueryClient();
  const [v, setV] = useState<ChangePasswordValues>({ oldPassword: '', newPassword: '', confirmPassword: '' });
  const [err, setErr] = useState<FieldError<keyof ChangePasswordValues> | null>(null);
  const set = (k: keyof ChangePasswordValues) => (val: string) => {
    setV((p) => ({ ...p, [k]: val }));
    if (err?.field === k) setErr(null);
  };

  const change = useAction(
    (body: BodyOf<'/api/vue/user/password'>, key) => api.post('/api/vue/user/password', body, { idempotencyKey: key }),
    {
      // Every session ends with the change: log in again with the new password.
      onSuccess: () => {
        toast.show(t('password.changedRelogin'));
        clearSession();
        qc.clear();
        void navigate('/login/login', { replace: true });
      },
    },
  );

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const fe = validateChangePassword(v);
    setErr(fe);
    if (!fe) change.run(v);
  };

  return (
    <Page title={t('password.loginTitle')} testId="login-password-page">
      <form onSubmit={submit} noValidate data-testid="login-password-form">
        <TextField label={t('password.oldPassword')} testId="pwd-old" type="password" value={v.oldPassword} onChange={set('oldPassword')} placeholder={t('password.oldPasswordPlaceholder')} autoComplete="current-password" maxLength={64} invalid={err?.field === 'oldPassword'} />
        <TextField label={t('password.newPassword')} testId="pwd-new" type="password" value={v.newPassword} onChange={set('newPassword')} placeholder={t('auth.newPasswordPlaceholder')} autoComplete="new-password" maxLength={20} invalid={err?.field === 'newPassword'} />
        <TextField label={t('password.confirmPassword')} testId="pwd-confirm" type="password" value={v.confirmPassword} onChange={set('confirmPassword')} placeholder={t('auth.confirmPasswordPlaceholder')} autoComplete="new-password" maxLength={20} invalid={err?.field === 'confirmPassword'} />
        <FormError errorKey={err?.key ?? null} />
        <Button block color="primary" size="large" shape="rounded" type="submit" loading={change.pending} data-testid="pwd-submit">
          {t('common.submit')}
        </Button>
      </form>
    </Page>
  );
}
