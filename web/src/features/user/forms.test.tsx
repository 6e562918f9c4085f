import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { setLanguage } from '@/lib/i18n';
import { envelope, renderPage } from '@/test/render';
import { useScreenTest } from '@/test/screen';
import LanguagePage from './LanguagePage';
import LoginPasswordPage from './LoginPasswordPage';
import SetPasswordPage from './SetPasswordPage';
import UserCenterPage from './UserCenterPage';

const info = (over: Record<string, unknown> = {}) => ({
  account: '0912345678',
  role: 'member',
  realNameStatus: 'unverified',
  inviteCode: 'ABC123',
  fundPasswordSet: false,
  flags: [],
  assets: { total: '12345.6', available: '10000', frozen: '2345.6', profit: '-12.5', usd: '380.12' },
  ...over,
});

const ctx = useScreenTest({ account: '0912345678' });

/** PasscodeInput keeps a hidden native input; typing goes there. */
function typePasscode(testId: string, digits: string) {
  const input = screen.getByTestId(testId).querySelector('input') as HTMLInputElement;
  fireEvent.change(input, { target: { value: digits } });
}

describe('mine', () => {
  it('shows the assets, the badge, and red/green profit', async () => {
    ctx.server.on('/api/vue/user/info', () => envelope(info()));
    renderPage('/user/usercenter', UserCenterPage);
    expect(screen.getByTestId('asset-total')).toHaveTextContent('--');
    await waitFor(() => expect(screen.getByTestId('asset-total')).toHaveTextContent('12,345.60'));
    expect(screen.getByTestId('asset-available')).toHaveTextContent('10,000.00');
    expect(screen.getByTestId('asset-frozen')).toHaveTextContent('2,345.60');
    expect(screen.getByTestId('asset-profit')).toHaveTextContent('-12.50');
    expect(screen.getByTestId('asset-profit')).toHaveClass('down');
    expect(screen.getByTestId('asset-usd')).toHaveTextContent('380.12');
    expect(screen.getByTestId('verification-badge')).toHaveTextContent('未認證');
    expect(screen.getByTestId('menu-fund-password')).toHaveTextContent('未設定');
  });

  it("tells the member what ops' flags on the account mean", async () => {
    ctx.server.on('/api/vue/user/info', () => envelope(info({ flags: ['trade_banned', 'withdrawal_banned', 'login_banned'] })));
    renderPage('/user/usercenter', UserCenterPage);
    expect(await screen.findByTestId('flag-notice-trade_banned')).toHaveTextContent('帳戶無法交易，請聯絡客服');
    expect(screen.getByTestId('flag-notice-withdrawal_banned')).toHaveTextContent('帳戶無法提領，請聯絡客服');
    expect(screen.queryByTestId('flag-notice-login_banned')).toBeNull();
  });

  it('shows no flag notice on an account without flags', async () => {
    ctx.server.on('/api/vue/user/info', () => envelope(info()));
    renderPage('/user/usercenter', UserCenterPage);
    await waitFor(() => expect(screen.getByTestId('asset-total')).toHaveTextContent('12,345.60'));
    expect(screen.queryByTestId('flag-notice')).toBeNull();
  });

  it('labels total assets as every currency in NT$, in both languages', async () => {
    ctx.server.on('/api/vue/user/info', () => envelope(info()));
    renderPage('/user/usercenter', UserCenterPage);
    expect(screen.getByTestId('asset-total-label')).toHaveTextContent('總資產（全幣別折合NT$）');
    await act(() => setLanguage('en'));
    expect(screen.getByTestId('asset-total-label')).toHaveTextContent('Total assets, all currencies in NT$');
  });
});

describe('login password form', () => {
  it('validates, then changes and sends the member to log in again', async () => {
    const user = userEvent.setup();
    ctx.server.on('/api/vue/user/password', () => envelope({ position: 3 }, 1, 'password_changed'));
    renderPage('/user/loginPassword', LoginPasswordPage);
    await user.click(screen.getByTestId('pwd-submit'));
    expect(screen.getByTestId('form-error')).toHaveTextContent('請輸入舊密碼');
    await user.type(screen.getByTestId('pwd-old'), 'demo1234');
    await user.type(screen.getByTestId('pwd-new'), 'newpass1');
    await user.type(screen.getByTestId('pwd-confirm'), 'newpass2');
    await user.click(screen.getByTestId('pwd-submit'));
    expect(screen.getByTestId('form-error')).toHaveTextContent('兩次輸入的密碼不一致');
    expect(ctx.server.calls).toEqual([]);
    await user.clear(screen.getByTestId('pwd-confirm'));
    await user.type(screen.getByTestId('pwd-confirm'), 'newpass1');
    await user.click(screen.getByTestId('pwd-submit'));
    expect(await screen.findByTestId('landed')).toHaveTextContent('/login/login');
    expect(localStorage.getItem('tokend')).toBeNull();
    expect(JSON.parse(ctx.server.calls[0]!.init.body as string)).toEqual({ oldPassword: 'demo1234', newPassword: 'newpass1', confirmPassword: 'newpass1' });
  });
});

describe('fund password form', () => {
  it('sets the first fund password with the login password', async () => {
    const user = userEvent.setup();
    ctx.server.on('/api/vue/user/info', () => envelope(info()));
    ctx.server.on('/api/vue/user/fundPassword', () => envelope({ position: 4 }));
    renderPage('/user/setPassword', SetPasswordPage);
    const form = await screen.findByTestId('fund-password-form');
    expect(form).toHaveAttribute('data-mode', 'set');
    await user.type(screen.getByTestId('fund-login-password'), 'demo1234');
    act(() => typePasscode('fund-new', '12345'));
    await user.click(screen.getByTestId('fund-submit'));
    expect(screen.getByTestId('form-error')).toHaveTextContent('資金密碼須為 6 位數字');
    act(() => typePasscode('fund-new', '123456'));
    act(() => typePasscode('fund-confirm', '123457'));
    await user.click(screen.getByTestId('fund-submit'));
    expect(screen.getByTestId('form-error')).toHaveTextContent('兩次輸入的密碼不一致');
    act(() => typePasscode('fund-confirm', '123456'));
    await user.click(screen.getByTestId('fund-submit'));
    await waitFor(() => expect(ctx.shown).toContain('資金密碼已儲存'));
    const call = ctx.server.calls.find((c) => c.url === '/api/vue/user/fundPassword')!;
    expect(JSON.parse(call.init.body as string)).toEqual({ loginPassword: 'demo1234', fundPassword: '123456', confirmFundPassword: '123456' });
  });

  it('changes it with the old fund password once set', async () => {
    const user = userEvent.setup();
    ctx.server.on('/api/vue/user/info', () => envelope(info({ fundPasswordSet: true })));
    ctx.server.on('/api/vue/user/fundPassword/change', () => envelope(null, 0, 'fund_password_wrong', 422));
    renderPage('/user/setPassword', SetPasswordPage);
    expect(await screen.findByTestId('fund-password-form')).toHaveAttribute('data-mode', 'change');
    act(() => typePasscode('fund-old', '111111'));
    act(() => typePasscode('fund-new', '123456'));
    act(() => typePasscode('fund-confirm', '123456'));
    await user.click(screen.getByTestId('fund-submit'));
    await waitFor(() => expect(ctx.shown).toEqual(['資金密碼錯誤']));
    const call = ctx.server.calls.find((c) => c.url === '/api/vue/user/fundPassword/change')!;
    expect(JSON.parse(call.init.body as string)).toEqual({ oldFundPassword: '111111', fundPassword: '123456', confirmFundPassword: '123456' });
  });
});

describe('language screen', () => {
  it('switches to English and keeps the choice', async () => {
    const user = userEvent.setup();
    renderPage('/user/language', LanguagePage);
    expect(screen.getByText('語言')).toBeInTheDocument();
    await user.click(screen.getByText('English'));
    await waitFor(() => expect(screen.getByText('Language')).toBeInTheDocument());
    expect(localStorage.getItem('lang')).toBe('en');
  });
});
