import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { setLanguage } from '@/lib/i18n';
import { envelope, renderPage } from '@/test/render';
import { useScreenTest } from '@/test/screen';
import LoginPage from './LoginPage';
import RegisterPage from './RegisterPage';

const ctx = useScreenTest();

async function fillRegister(v: { account?: string; password?: string; confirm?: string; invite?: string; agree?: boolean }) {
  const user = userEvent.setup();
  if (v.account) await user.type(screen.getByTestId('register-account'), v.account);
  if (v.password) await user.type(screen.getByTestId('register-password'), v.password);
  if (v.confirm) await user.type(screen.getByTestId('register-confirm'), v.confirm);
  if (v.invite) await user.type(screen.getByTestId('register-invite'), v.invite);
  if (v.agree) await user.click(screen.getByTestId('register-agree'));
  await user.click(screen.getByTestId('register-submit'));
}

describe('register form', () => {
  it('refuses an empty form before sending', async () => {
    renderPage('/login/register', RegisterPage);
    await fillRegister({});
    expect(screen.getByTestId('form-error')).toHaveTextContent('請輸入帳號');
    expect(ctx.server.calls).toEqual([]);
  });

  it('checks the ID number check digit, upper-casing what is typed', async () => {
    renderPage('/login/register', RegisterPage);
    await fillRegister({ account: 'a123456788', password: 'demo1234', confirm: 'demo1234', invite: 'LOTBOOK', agree: true });
    expect(screen.getByTestId('register-account')).toHaveValue('A123456788');
    expect(screen.getByTestId('form-error')).toHaveTextContent('帳號須為 09 開頭');
    expect(ctx.server.calls).toEqual([]);
  });

  it('checks that the passwords match', async () => {
    renderPage('/login/register', RegisterPage);
    await fillRegister({ account: '0912345678', password: 'demo1234', confirm: 'demo4321', invite: 'LOTBOOK', agree: true });
    expect(screen.getByTestId('form-error')).toHaveTextContent('兩次輸入的密碼不一致');
  });

  it('needs the privacy agreement accepted', async () => {
    renderPage('/login/register', RegisterPage);
    await fillRegister({ account: '0912345678', password: 'demo1234', confirm: 'demo1234', invite: 'LOTBOOK' });
    expect(screen.getByTestId('form-error')).toHaveTextContent('請先閱讀並同意隱私權協議');
    expect(ctx.server.calls).toEqual([]);
  });

  it('registers, stores the session and goes home', async () => {
    ctx.server.reply(envelope({ token: 'tok', account: '0911111111', role: 'member', position: 9 }));
    renderPage('/login/register', RegisterPage);
    await fillRegister({ account: '0911111111', password: 'demo1234', confirm: 'demo1234', invite: 'LOTBOOK', agree: true });
    await screen.findByTestId('landed');
    expect(screen.getByTestId('landed')).toHaveTextContent('/home/index');
    const { url, init } = ctx.server.calls[0]!;
    expect(url).toBe('/api/vue/user/register');
    expect(JSON.parse(init.body as string)).toEqual({ account: '0911111111', password: 'demo1234', confirmPassword: 'demo1234', inviteCode: 'LOTBOOK' });
    expect(init.headers['Idempotency-Key']).toBeTruthy();
    expect(localStorage.getItem('tokend')).toBe('tok');
    expect(localStorage.getItem('account')).toBe('0911111111');
  });

  it("shows the ctx.server's translated refusal", async () => {
    ctx.server.reply(envelope(null, 0, 'inviter_not_exist', 422));
    renderPage('/login/register', RegisterPage);
    await fillRegister({ account: '0911111111', password: 'demo1234', confirm: 'demo1234', invite: 'NOPE', agree: true });
    await waitFor(() => expect(ctx.shown).toEqual(['邀請人不存在']));
    expect(localStorage.getItem('tokend')).toBeNull();
  });

  it('speaks English when asked', async () => {
    await setLanguage('en');
    renderPage('/login/register', RegisterPage);
    await fillRegister({ account: '0912345678', password: 'short', confirm: 'short', invite: 'LOTBOOK', agree: true });
    expect(screen.getByTestId('form-error')).toHaveTextContent('The password must be 8–20 letters or digits');
  });
});

describe('login form', () => {
  it('needs account, password and the agreement', async () => {
    const user = userEvent.setup();
    renderPage('/login/login', LoginPage);
    await user.click(screen.getByTestId('login-submit'));
    expect(screen.getByTestId('form-error')).toHaveTextContent('請輸入帳號');
    await user.type(screen.getByTestId('login-account'), 'ops');
    await user.click(screen.getByTestId('login-submit'));
    expect(screen.getByTestId('form-error')).toHaveTextContent('請輸入密碼');
    await user.type(screen.getByTestId('login-password'), 'opsdemo1');
    await user.click(screen.getByTestId('login-submit'));
    expect(screen.getByTestId('form-error')).toHaveTextContent('請先閱讀並同意隱私權協議');
    expect(ctx.server.calls).toEqual([]);
  });

  it('logs ops in and lands on the review queue', async () => {
    const user = userEvent.setup();
    ctx.server.reply(envelope({ token: 'opstok', account: 'ops', role: 'ops' }));
    renderPage('/login/login', LoginPage);
    await user.type(screen.getByTestId('login-account'), 'ops');
    await user.type(screen.getByTestId('login-password'), 'opsdemo1');
    await user.click(screen.getByTestId('login-agree'));
    await user.click(screen.getByTestId('login-submit'));
    expect(await screen.findByTestId('landed')).toHaveTextContent('/ops/console');
    // The role is the ctx.server's to tell on every visit (user info), never kept in the browser.
    expect(localStorage.getItem('role')).toBeNull();
  });

  it('shows a wrong password as the translated ctx.server message', async () => {
    const user = userEvent.setup();
    ctx.server.reply(envelope(null, 0, 'account_or_password_wrong', 422));
    renderPage('/login/login', LoginPage);
    await user.type(screen.getByTestId('login-account'), '0912345678');
    await user.type(screen.getByTestId('login-password'), 'wrongpass');
    await user.click(screen.getByTestId('login-agree'));
    await user.click(screen.getByTestId('login-submit'));
    await waitFor(() => expect(ctx.shown).toEqual(['帳號或密碼錯誤']));
  });
});
