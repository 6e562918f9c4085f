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
import { api } from '@/lib/api/client';
import { landingFor, saveSession } from '@/lib/session';
import { toast } from '@/lib/toast';
import { type FieldError } from '@/lib/validation';
import { type LoginValues, validateLogin } from './validation';

export default function LoginPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const qc = useQueryClient();
  const [v, setV] = useState<LoginValues>({ account: '', password: '', agreed: false });
  const [err, setErr] = useState<FieldError<keyof LoginValues> | null>(null);
  const set = <K extends keyof LoginValues>(k: K) => (val: LoginValues[K]) => {
    setV((p) => ({ ...p, [k]: val }));
    if (err?.field === k) setErr(null);
  };

  const login = useAction(
    (body: { account: string; password: string }, key) => api.post('/api/vue/user/login', body, { idempotencyKey: key }),
    {
      onSuccess: (s) => {
        qc.clear();
        saveSession(s);
        toast.show(t('auth.loginSuccess'));
        void navigate(landingFor(s.role), { replace: true });
      },
    },
  );

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const fe = validateLogin(v);
    setErr(fe);
    if (!fe) login.run({ account: v.account.trim(), password: v.password });
  };

  return (
    <form className="auth" onSubmit={submit} noValidate data-testid="login-form">
      <div className="auth-head">
        <BrandLogo />
        <h1 className="auth-title">{t('auth.loginTitle')}</h1>
        <div className="auth-sub">{t('auth.loginSubtitle')}</div>
      </div>
      <TextField
        label={t('auth.account')}
        testId="login-account"
        value={v.account}
        onChange={set('account')}
        placeholder={t('auth.accountPlaceholder')}
        autoComplete="username"
        maxLength={32}
        invalid={err?.field === 'account'}
      />
      <TextField
        label={t('auth.password')}
        testId="login-password"
        type="password"
        value={v.password}
        onChange={set('password')}
        placeholder={t('auth.passwordPlaceholder')}
        autoComplete="current-password"
        maxLength={64}
        invalid={err?.field === 'password'}
      />
      <AgreementCheck testId="login-agree" checked={v.agreed} onChange={set('agreed')} />
      <FormError errorKey={err?.key ?? null} />
      <Button block color="primary" size="large" shape="rounded" type="submit" loading={login.pending} data-testid="login-submit">
        {t('auth.login')}
      </Button>
      <div className="auth-links">
        <AppLink to="/login/register" data-testid="to-register">
          {t('auth.toRegister')}
        </AppLink>
      </div>
    </form>
  );
}
