import { useQueryClient } from '@tanstack/react-query';
import { Button } from 'antd-mobile';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router-dom';
import { AgreementCheck } from '@/components/AgreementCheck';
import { AppLink } from '@/components/AppLink';
import { BrandLogo } from '@/components/BrandLogo';
import { FormError } from '@/components/FormError';
import { TextField } from '@/components/TextField';
import { useAction } from '@/lib/action';
import { api } from '@/lib/api/client';
import { landingFor, saveSession, takeReturn } from '@/lib/session';
import { toast } from '@/lib/toast';
import { type FieldError } from '@/lib/validation';
import { type LoginValues, validateLogin, validateLoginById, validateLogonByPhone } from './validation';

/** How the member names themselves: the account (/login/login), the phone (/login/logon) or the verified ID number (/login/logon2). */
type Mode = 'account' | 'phone' | 'id';

function modeOf(pathname: string): Mode {
  if (pathname === '/login/logon2') return 'id';
  if (pathname === '/login/logon') return 'phone';
  return 'account';
}

function validate(mode: Mode, v: LoginValues): FieldError<keyof LoginValues> | null {
  if (mode === 'phone') return validateLogonByPhone(v);
  if (mode !== 'id') return validateLogin(v);
  const fe = validateLoginById({ idNumber: v.account, password: v.password, agreed: v.agreed });
  return fe && { key: fe.key, field: fe.field === 'idNumber' ? 'account' : fe.field };
}

export default function LoginPage() {
  const { t } = useTranslation();
  const mode = modeOf(useLocation().pathname);
  const navigate = useNavigate();
  const qc = useQueryClient();
  const [v, setV] = useState<LoginValues>({ account: '', password: '', agreed: false });
  const [err, setErr] = useState<FieldError<keyof LoginValues> | null>(null);
  const set = <K extends keyof LoginValues>(k: K) => (val: LoginValues[K]) => {
    setV((p) => ({ ...p, [k]: val }));
    if (err?.field === k) setErr(null);
  };

  const login = useAction(
    (body: { account: string; password: string }, key) =>
      mode === 'id'
        ? api.post('/api/vue/user/loginById', { idNumber: body.account, password: body.password }, { idempotencyKey: key })
        : api.post('/api/vue/user/login', body, { idempotencyKey: key }),
    {
      onSuccess: (s) => {
        qc.clear();
        saveSession(s);
        toast.show(t('auth.loginSuccess'));
        void navigate(takeReturn(s.role) ?? landingFor(s.role), { replace: true });
      },
    },
  );

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const fe = validate(mode, v);
    setErr(fe);
    if (!fe) login.run({ account: v.account.trim(), password: v.password });
  };

  return (
    <form className="auth" onSubmit={submit} noValidate data-testid="login-form" data-mode={mode}>
      <div className="auth-head">
        <BrandLogo />
        <h1 className="auth-title">{t(mode === 'id' ? 'auth.idTitle' : mode === 'phone' ? 'auth.phoneTitle' : 'auth.loginTitle')}</h1>
        <div className="auth-sub">{t(mode === 'id' ? 'auth.idSubtitle' : 'auth.loginSubtitle')}</div>
      </div>
      <TextField
        label={t(mode === 'id' ? 'auth.idNumber' : mode === 'phone' ? 'auth.phone' : 'auth.account')}
        testId={mode === 'id' ? 'login-id-number' : 'login-account'}
        value={v.account}
        onChange={set('account')}
        placeholder={t(mode === 'id' ? 'auth.idNumberPlaceholder' : mode === 'phone' ? 'auth.phonePlaceholder' : 'auth.accountPlaceholder')}
        autoComplete="username"
        maxLength={mode === 'account' ? 32 : 10}
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
      <div className="auth-links">
        {mode !== 'phone' && (
          <AppLink to="/login/logon" replace data-testid="to-logon">
            {t('auth.byPhone')}
          </AppLink>
        )}
        {mode !== 'id' && (
          <AppLink to="/login/logon2" replace data-testid="to-logon2">
            {t('auth.byId')}
          </AppLink>
        )}
      </div>
    </form>
  );
}
