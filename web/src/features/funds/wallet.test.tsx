import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { envelope, renderPage } from '@/test/render';
import { useScreenTest } from '@/test/screen';
import ExchangePage from './ExchangePage';
import FundingDetailsPage from './FundingDetailsPage';
import WithdrawPage from './WithdrawPage';

const channel = {
  id: 'bank-out',
  name: 'Bank transfer',
  currency: 'TWD',
  min: '100',
  max: '500000',
  window: { weekdays: [1, 2, 3, 4, 5], open: '09:00', close: '17:00', tz: 'Asia/Taipei', closedOnHolidays: true, alwaysOpen: false },
  openNow: true,
};
const card = { id: 'c1', holderName: 'Wang', bankName: 'Bank of Taiwan', branch: 'HQ', bankCode: '004', cardNumberMasked: '**** 6789', last4: '6789', ifsc: '', upi: '', boundAt: '2026-01-02T03:00:00Z' };
const info = (p: Record<string, unknown> = {}) => ({
  account: '0912345678',
  role: 'member',
  realNameStatus: 'verified',
  inviteCode: 'ABC',
  fundPasswordSet: true,
  creditScore: 100,
  flags: [],
  assets: { total: '20000', available: '20000', frozen: '0', profit: '0', usd: '0' },
  ...p,
});
const rule = { score: 100, start: 100, min: 0, max: 100, withdrawThreshold: 60, changes: [] };
const balances = (twd: string, usd = '0', twdWithdrawable = twd) =>
  ['CNY', 'TWD', 'HKD', 'USD', 'THB', 'JPY', 'VND', 'MYR', 'KRW', 'INR'].map((c) => {
    const v = c === 'TWD' ? twd : c === 'USD' ? usd : '0';
    return { currency: c, available: v, frozen: '0', total: v, withdrawable: c === 'TWD' ? twdWithdrawable : v };
  });

const SLOW = 30_000;
const ctx = useScreenTest({ account: '0912345678' });
afterEach(() => {
  vi.useRealTimers();
});

function withdrawServer(p: { info?: Record<string, unknown>; cards?: unknown[]; twd?: string; withdrawable?: string } = {}) {
  ctx.server.on('/api/vue/funds/withdrawChannels', () => envelope([channel]));
  ctx.server.on('/api/vue/user/cards', () => envelope(p.cards ?? [card]));
  ctx.server.on('/api/vue/user/info', () => envelope(info(p.info)));
  ctx.server.on('/api/vue/user/creditRule', () => envelope(rule));
  ctx.server.on('/api/vue/funds/balances', () => envelope(balances(p.twd ?? '20000', '0', p.withdrawable)));
}

// jsdom has neither; the kit's passcode input scrolls itself into view, its keyboard captures the pointer.
Object.assign(Element.prototype, {
  scrollIntoView: Element.prototype.scrollIntoView ?? (() => {}),
  setPointerCapture: Element.prototype.setPointerCapture ?? (() => {}),
  releasePointerCapture: Element.prototype.releasePointerCapture ?? (() => {}),
});

const keys = () => [...document.querySelectorAll<HTMLElement>('.adm-number-keyboard-key-number')];
async function typeOnKeyboard(user: ReturnType<typeof userEvent.setup>, digits: string) {
  for (const d of digits) await user.click(keys().find((k) => k.textContent === d)!);
}

describe('withdrawal', () => {
  it('shows the rules and sends the member to set a fund password first', async () => {
    withdrawServer({ info: { fundPasswordSet: false } });
    renderPage('/user/withdraw', WithdrawPage);
    expect(await screen.findByTestId('withdraw-limits')).toHaveTextContent('單筆 TWD 100.00 – 500,000.00');
    expect(screen.getByTestId('withdraw-window')).toHaveTextContent('週一–週五 09:00–17:00');
    await waitFor(() => expect(screen.getByTestId('withdraw-credit-rule')).toHaveTextContent('信用分須達 60 分（目前 100 分）'));
    expect(screen.getByTestId('withdraw-set-fund-password')).toHaveAttribute('href', '/user/setPassword');
    const user = userEvent.setup();
    await user.type(screen.getByTestId('withdraw-amount'), '1500');
    await user.click(screen.getByTestId('withdraw-submit'));
    expect(screen.getByTestId('form-error')).toHaveTextContent('請先設定資金密碼');
  });

  it('offers to bind a card when none is bound', async () => {
    withdrawServer({ cards: [] });
    renderPage('/user/withdraw', WithdrawPage);
    expect(await screen.findByTestId('withdraw-add-card')).toHaveAttribute('href', '/user/WithCard');
    const user = userEvent.setup();
    await user.click(screen.getByTestId('withdraw-submit'));
    expect(screen.getByTestId('form-error')).toHaveTextContent('請選擇銀行卡');
  });

  it('checks the amount against the limits and the balance before asking for the fund password', async () => {
    const user = userEvent.setup();
    withdrawServer({ twd: '1200' });
    renderPage('/user/withdraw', WithdrawPage);
    await screen.findByTestId('withdraw-form');
    expect(screen.getByTestId(`withdraw-card-6789`)).toHaveAttribute('aria-checked', 'true');
    await waitFor(() => expect(screen.getByTestId('withdraw-available')).toHaveTextContent('可提領 TWD 1,200.00'));
    const error = () => screen.getByTestId('form-error');
    await user.click(screen.getByTestId('withdraw-submit'));
    expect(error()).toHaveTextContent('請輸入金額');
    await user.type(screen.getByTestId('withdraw-amount'), '99.99');
    await user.click(screen.getByTestId('withdraw-submit'));
    expect(error()).toHaveTextContent('金額低於最低限額');
    await user.clear(screen.getByTestId('withdraw-amount'));
    await user.type(screen.getByTestId('withdraw-amount'), '1300');
    await user.click(screen.getByTestId('withdraw-submit'));
    expect(error()).toHaveTextContent('餘額不足');
    await user.click(screen.getByTestId('withdraw-all'));
    expect(screen.getByTestId('withdraw-amount')).toHaveValue('1200');
    expect(screen.queryByTestId('withdraw-passcode-popup')).toBeNull();
    expect(ctx.server.calls.some((c) => c.url === '/api/vue/funds/withdrawals')).toBe(false);
  }, SLOW);

  it('shows and fills the withdrawable figure the ctx.server serves, not the available cash', async () => {
    const user = userEvent.setup();
    // 20,000 available, of which 18,800 are sale proceeds that settle in two days.
    withdrawServer({ twd: '20000', withdrawable: '1200' });
    renderPage('/user/withdraw', WithdrawPage);
    await screen.findByTestId('withdraw-form');
    await waitFor(() => expect(screen.getByTestId('withdraw-available')).toHaveTextContent('可提領 TWD 1,200.00'));
    await user.click(screen.getByTestId('withdraw-all'));
    expect(screen.getByTestId('withdraw-amount')).toHaveValue('1200');
    await user.type(screen.getByTestId('withdraw-amount'), '5');
    await user.click(screen.getByTestId('withdraw-submit'));
    expect(screen.getByTestId('form-error')).toHaveTextContent('超過目前可提金額');
    expect(ctx.server.calls.some((c) => c.url === '/api/vue/funds/withdrawals')).toBe(false);
  }, SLOW);

  it('refuses a low credit score', async () => {
    const user = userEvent.setup();
    withdrawServer({ info: { creditScore: 55 } });
    renderPage('/user/withdraw', WithdrawPage);
    await screen.findByTestId('withdraw-form');
    await user.type(screen.getByTestId('withdraw-amount'), '1500');
    await waitFor(() => expect(screen.getByTestId('withdraw-credit-rule')).toBeInTheDocument());
    await user.click(screen.getByTestId('withdraw-submit'));
    expect(screen.getByTestId('form-error')).toHaveTextContent('信用分不足');
  });

  it('refuses outside the window', async () => {
    const user = userEvent.setup();
    // The first matching answer wins: the closed channel before the defaults.
    ctx.server.on('/api/vue/funds/withdrawChannels', () => envelope([{ ...channel, openNow: false }]));
    withdrawServer();
    renderPage('/user/withdraw', WithdrawPage);
    await screen.findByTestId('withdraw-form');
    expect(screen.getByTestId('withdraw-open')).toHaveAttribute('data-open', 'false');
    await user.type(screen.getByTestId('withdraw-amount'), '1500');
    await user.click(screen.getByTestId('withdraw-submit'));
    expect(screen.getByTestId('form-error')).toHaveTextContent('目前非提款時間');
  });

  it('takes the fund password on the number keyboard, keeps it open after a wrong one, then sends', async () => {
    // The kit's popups animate in jsdom without finishing; their keys are clicked regardless.
    const user = userEvent.setup({ pointerEventsCheck: 0 });
    withdrawServer();
    let attempts = 0;
    ctx.server.on('/api/vue/funds/withdrawals', () =>
      ++attempts === 1 ? envelope(null, 0, 'fund_password_wrong', 422) : envelope({ orderNo: 'W1', status: 'pending', position: 20 }),
    );
    renderPage('/user/withdraw', WithdrawPage);
    await screen.findByTestId('withdraw-form');
    await user.type(screen.getByTestId('withdraw-amount'), '1500');
    await user.click(screen.getByTestId('withdraw-submit'));
    await screen.findByTestId('withdraw-passcode-popup');
    await waitFor(() => expect(keys().length).toBe(10));
    await typeOnKeyboard(user, '111111');
    await waitFor(() => expect(ctx.shown).toContain('資金密碼錯誤'));
    expect(screen.getByTestId('withdraw-passcode-popup')).toBeInTheDocument();
    await typeOnKeyboard(user, '246810');
    expect(await screen.findByTestId('landed')).toHaveTextContent('/user/FundingDetails');
    expect(ctx.shown).toContain('提領申請已送出，等待審核');
    const sent = ctx.server.calls.filter((c) => c.url === '/api/vue/funds/withdrawals').map((c) => JSON.parse(c.init.body as string) as unknown);
    expect(sent).toEqual([
      { amount: '1500', cardId: 'c1', fundPassword: '111111' },
      { amount: '1500', cardId: 'c1', fundPassword: '246810' },
    ]);
  }, SLOW);
});

describe('exchange', () => {
  const quote = (p: Record<string, unknown> = {}) => ({
    quoteId: 'q1',
    from: 'TWD',
    to: 'USD',
    amount: '3000',
    rate: '0.0312',
    toAmount: '93.60',
    expiresAt: new Date(Date.now() + 30_000).toISOString(),
    position: 30,
    ...p,
  });

  it('shows every balance and keeps INR paired with USD', async () => {
    const user = userEvent.setup();
    ctx.server.on('/api/vue/funds/balances', () => envelope(balances('18500', '12.5')));
    renderPage('/user/exchange', ExchangePage);
    expect(await screen.findByTestId('balance-TWD')).toHaveTextContent('18,500.00');
    expect(screen.getByTestId('balance-USD')).toHaveTextContent('12.50');
    expect(screen.getByTestId('balance-JPY')).toHaveTextContent(/^JPY0$/);
    expect(screen.getAllByTestId(/^balance-/)).toHaveLength(10);
    await user.selectOptions(screen.getByTestId('exchange-from'), 'INR');
    expect(screen.getByTestId('exchange-to')).toHaveValue('USD');
    const to = screen.getByTestId('exchange-to');
    expect(within(to).getByRole('option', { name: /^TWD/ })).toBeDisabled();
    expect(within(to).getByRole('option', { name: /^INR/ })).toBeDisabled();
    await user.click(screen.getByTestId('exchange-swap'));
    expect(screen.getByTestId('exchange-from')).toHaveValue('USD');
    expect(screen.getByTestId('exchange-to')).toHaveValue('INR');
  });

  it('validates before quoting', async () => {
    const user = userEvent.setup();
    ctx.server.on('/api/vue/funds/balances', () => envelope(balances('18500')));
    renderPage('/user/exchange', ExchangePage);
    await screen.findByTestId('balance-TWD');
    await user.click(screen.getByTestId('exchange-get-quote'));
    expect(screen.getByTestId('form-error')).toHaveTextContent('請輸入金額');
    await user.type(screen.getByTestId('exchange-amount'), '18500.01');
    await user.click(screen.getByTestId('exchange-get-quote'));
    expect(screen.getByTestId('form-error')).toHaveTextContent('餘額不足');
    await user.selectOptions(screen.getByTestId('exchange-from'), 'JPY');
    expect(screen.getByTestId('exchange-amount')).toHaveValue('18500.01');
    await user.click(screen.getByTestId('exchange-get-quote'));
    expect(screen.getByTestId('form-error')).toHaveTextContent('金額格式錯誤');
    expect(ctx.server.calls.some((c) => c.url === '/api/vue/funds/exchange/quote')).toBe(false);
  }, SLOW);

  it('counts the quote down and asks for a new one when it expires', async () => {
    vi.useFakeTimers({ toFake: ['Date', 'setInterval', 'clearInterval'] });
    const user = userEvent.setup();
    ctx.server.on('/api/vue/funds/balances', () => envelope(balances('18500')));
    ctx.server.on('/api/vue/funds/exchange/quote', () => envelope(quote()));
    renderPage('/user/exchange', ExchangePage);
    await screen.findByTestId('balance-TWD');
    await user.type(screen.getByTestId('exchange-amount'), '3000');
    await user.click(screen.getByTestId('exchange-get-quote'));
    expect(await screen.findByTestId('quote-rate')).toHaveTextContent('1 TWD = 0.0312 USD');
    expect(screen.getByTestId('quote-to-amount')).toHaveTextContent('USD 93.60');
    expect(screen.getByTestId('quote-countdown')).toHaveTextContent('報價有效 00:30');
    act(() => vi.advanceTimersByTime(10_000));
    expect(screen.getByTestId('quote-countdown')).toHaveTextContent('報價有效 00:20');
    act(() => vi.advanceTimersByTime(20_000));
    expect(screen.getByTestId('quote-countdown')).toHaveTextContent('報價已過期');
    expect(screen.queryByTestId('exchange-confirm')).toBeNull();
    await user.click(screen.getByTestId('exchange-requote'));
    await waitFor(() => expect(ctx.server.calls.filter((c) => c.url === '/api/vue/funds/exchange/quote')).toHaveLength(2));
    expect(await screen.findByTestId('exchange-confirm')).toBeInTheDocument();
    const keys = ctx.server.calls.filter((c) => c.url === '/api/vue/funds/exchange/quote').map((c) => c.init.headers['Idempotency-Key']);
    expect(new Set(keys).size).toBe(2);
  }, SLOW);

  it('executes the quote, then shows the new balances', async () => {
    const user = userEvent.setup();
    let done = false;
    ctx.server.on('/api/vue/funds/balances', () => envelope(done ? balances('15500', '93.60') : balances('18500')));
    ctx.server.on('/api/vue/funds/exchange/quote', () => envelope(quote()));
    ctx.server.on('/api/vue/funds/exchange', () => {
      done = true;
      return envelope({ orderNo: 'X1', from: 'TWD', to: 'USD', fromAmount: '3000', toAmount: '93.60', rate: '0.0312', position: 31 });
    });
    renderPage('/user/exchange', ExchangePage);
    await screen.findByTestId('balance-TWD');
    await user.type(screen.getByTestId('exchange-amount'), '3000');
    await user.click(screen.getByTestId('exchange-get-quote'));
    await user.click(await screen.findByTestId('exchange-confirm'));
    await waitFor(() => expect(ctx.shown).toContain('兌換成功'));
    expect(JSON.parse(ctx.server.calls.find((c) => c.url === '/api/vue/funds/exchange')!.init.body as string)).toEqual({ quoteId: 'q1' });
    await waitFor(() => expect(screen.getByTestId('balance-USD')).toHaveTextContent('93.60'));
    expect(screen.getByTestId('exchange-amount')).toHaveValue('');
    expect(screen.queryByTestId('exchange-quote')).toBeNull();
  }, SLOW);

  it('drops a quote the ctx.server calls expired', async () => {
    const user = userEvent.setup();
    ctx.server.on('/api/vue/funds/balances', () => envelope(balances('18500')));
    ctx.server.on('/api/vue/funds/exchange/quote', () => envelope(quote()));
    ctx.server.on('/api/vue/funds/exchange', () => envelope(null, 0, 'exchange_quote_expired', 422));
    renderPage('/user/exchange', ExchangePage);
    await screen.findByTestId('balance-TWD');
    await user.type(screen.getByTestId('exchange-amount'), '3000');
    await user.click(screen.getByTestId('exchange-get-quote'));
    await user.click(await screen.findByTestId('exchange-confirm'));
    await waitFor(() => expect(ctx.shown).toContain('報價已過期，請重新取得報價'));
    expect(await screen.findByTestId('exchange-get-quote')).toBeInTheDocument();
  }, SLOW);
});

describe('fund records', () => {
  const base = { status: 'completed', remark: '', channelName: '', proofFileId: '', createdAt: '2026-01-02T01:00:00Z', updatedAt: '2026-01-02T01:00:00Z' };
  it('opens the tab ?tab= names and shows where a withdrawal goes', async () => {
    ctx.server.on('/api/vue/funds/records', () =>
      envelope({ items: [{ ...base, orderNo: 'W1', type: 'withdraw', currency: 'TWD', amount: '1500', status: 'pending', bankName: 'Bank of Taiwan', cardLast4: '6789' }], page: 1, hasMore: false }),
    );
    renderPage('/user/FundingDetails', FundingDetailsPage, { url: '/user/FundingDetails?tab=withdraw' });
    const rec = await screen.findByTestId('fund-record');
    expect(ctx.server.calls[0]!.url).toBe('/api/vue/funds/records?type=withdraw&page=1&size=20');
    expect(within(rec).getByTestId('fund-record-card')).toHaveTextContent('臺灣銀行 **** 6789');
    expect(within(rec).getByTestId('fund-record-status')).toHaveTextContent('待審核');
  });

  it('shows exchanges as one entry and credit changes with their reason under all', async () => {
    const user = userEvent.setup();
    ctx.server.on('/api/vue/funds/records', () =>
      envelope({
        items: [
          { ...base, orderNo: 'X1', type: 'exchange', currency: 'TWD', amount: '-3000', rate: '0.0312' },
          { ...base, orderNo: 'X1', type: 'exchange', currency: 'USD', amount: '93.6', rate: '0.0312' },
          { ...base, orderNo: 'credit-7', type: 'credit', currency: '', amount: '-5', remark: 'deposit_rejected', creditScore: 95 },
        ],
        page: 1,
        hasMore: false,
      }),
    );
    renderPage('/user/FundingDetails', FundingDetailsPage);
    await user.click(screen.getByTestId('tab-all'));
    await waitFor(() => expect(ctx.server.calls.at(-1)!.url).toBe('/api/vue/funds/records?type=all&page=1&size=20'));
    const recs = await screen.findAllByTestId('fund-record');
    expect(recs).toHaveLength(2);
    expect(recs[0]).toHaveAttribute('data-type', 'exchange');
    expect(within(recs[0]!).getByTestId('fund-record-paid')).toHaveTextContent('TWD -3,000.00');
    expect(within(recs[0]!).getByTestId('fund-record-received')).toHaveTextContent('USD 93.60');
    expect(recs[0]).toHaveTextContent('1 TWD = 0.0312 USD');
    expect(recs[0]).toHaveTextContent('已完成');
    expect(recs[1]).toHaveTextContent('信用分變動');
    expect(recs[1]).toHaveTextContent('-5 分');
    expect(recs[1]).toHaveTextContent('儲值審核駁回');
  });
});
