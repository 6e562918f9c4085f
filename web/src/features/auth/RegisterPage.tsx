import { useQueryClient } from '@tanstack/react-query';
import { Button } from 'antd-mobile';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { AgreementCheck } from '@/components/AgreementCheck';
import { AppLink } from '@/components/AppLink';
import { BrandLogo } from '@/components/BrandLogo';
import { FormError } from '@/components/FormError';
import { TextField } from '@/components/TextField';
import { useAction } from '@/lib/action';
import { api, type BodyOf } from '@/lib/api/client';
import { landingFor, saveSession } from '@/lib/session';
import { toast } from '@/lib/toast';
import { type FieldError } from '@/lib/validation';
import { type RegisterValues, validateRegister } from './validation';

export default function RegisterPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const qc = useQueryClient();
  const [v, setV] = useState<RegisterValues>({ account: '', password: '', confirmPassword: '', inviteCode: '', agreed: false });
  const [err, setErr] = useState<FieldError<keyof RegisterValues> | null>(null);
  const set = <K extends keyof RegisterValues>(k: K) => (val: RegisterValues[K]) => {
    setV((p) => ({ ...p, [k]: val }));
    if (err?.field === k) setErr(null);
  };

  const register = useAction(
    (body: BodyOf<'/api/vue/user/register'>, key) => api.post('/api/vue/user/register', body, { idempotencyKey: key }),
    {
      onSuccess: (s) => {
        qc.clear();
        saveSession(s);
        toast.show(t('auth.registerSuccess'));
        void navigate(landingFor(s.role), { replace: true });
      },
    },
  );

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const fe = validateRegister(v);
    setErr(fe);
    if (!fe)
      register.run({
        account: v.account.trim(),
        password: v.password,
        confirmPassword: v.confirmPassword,
        inviteCode: v.inviteCode.trim(),
      });
  };

  return (
    <form className="auth" onSubmit={submit} noValidate data-testid="register-form">
      <div className="auth-head">
        <BrandLogo />
        <h1 className="auth-title">{t('auth.registerTitle')}</h1>
        <div className="auth-sub">{t('auth.registerSubtitle')}</div>
      </div>
      <TextField
        label={t('auth.account')}
        testId="register-account"
        value={v.account}
        // ID numbers are capitals; phone numbers are unaffected.
        onChange={(s) => set('account')(s.toUpperCase())}
        placeholder={t('auth.accountPlaceholder')}
        autoComplete="username"
        maxLength={10}
        invalid={err?.field === 'account'}
      />
      <TextField
        label={t('auth.password')}
        testId="register-password"
        type="password"
        value={v.password}
        onChange={set('password')}
        placeholder={t('auth.newPasswordPlaceholder')}
        autoComplete="new-password"
        maxLength={20}
        invalid={err?.field === 'password'}
      />
      <TextField
        label={t('auth.confirmPassword')}
        testId="register-confirm"
        type="password"
        value={v.confirmPassword}
        onChange={set('confirmPassword')}
        placeholder={t('auth.confirmPasswordPlaceholder')}
        autoComplete="new-password"
        maxLength={20}
        invalid={err?.field === 'confirmPassword'}
      />
      <TextField
        label={t('auth.inviteCode')}
        testId="register-invite"
        value={v.inviteCode}
        onChange={set('inviteCode')}
        placeholder={t('auth.inviteCodePlaceholder')}
        maxLength={32}
        invalid={err?.field === 'inviteCode'}
      />
      <AgreementCheck testId="register-agree" checked={v.agreed} onChange={set('agreed')} />
      <FormError errorKey={err?.key ?? null} />
      <Button block color="primary" size="large" shape="rounded" type="submit" loading={register.pending} data-testid="register-submit">
        {t('auth.register')}
      </Button>
      <div className="auth-links">
        <AppLink to="/login/login" data-testid="to-login">
          {t('auth.toLogin')}
        </AppLink>
      </div>
    </form>
  );
}
