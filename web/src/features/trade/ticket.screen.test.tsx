import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SocketManager } from '@/lib/socket/manager';
import { FakeSocket } from '@/test/fakeSocket';
import { quote } from '@/test/market';
import { envelope, renderPage } from '@/test/render';
import { useScreenTest } from '@/test/screen';
import OrderTicketPage from './OrderTicketPage';

let socket: SocketManager;
vi.mock('@/lib/socket/socket', () => ({ appSocket: () => socket }));

const rules = {
  boardLot: 1000,
  bondEtfTaxRate: '0',
  callDeadlineDays: 2,
  commissionRate: '0.001425',
  dayTradeTaxRate: '0.0015',
  etfTaxRate: '0.001',
  forcedCloseRatio: '1.2',
  holdDays: 0,
  loanUnit: '1000',
  lockMinutes: 0,
  maintenanceRatio: '1.3',
  maxFinancing: '0.6',
  maxLongLeverage: '2.5',
  maxLots: 499,
  maxShortLeverage: '1.11',
  minCommissionBoardLot: '20',
  minCommissionOddLot: '1',
  minShortMargin: '0.9',
  protectiveStep: '0.035',
  settlementDays: 2,
  stockTaxRate: '0.003',
};
const info = { account: '0912345678', role: 'member', realNameStatus: 'verified', inviteCode: 'X', fundPasswordSet: true, flags: [], assets: { total: '2000000', available: '2000000.00', frozen: '0', profit: '0', usd: '0' } };

const ctx = useScreenTest({ account: '0912345678', confirm: true });
beforeEach(() => {
  FakeSocket.reset();
  socket = new SocketManager({ url: () => 'ws://test/api/vue/ws', create: (u) => new FakeSocket(u) });
  ctx.server.on('/api/vue/market/stocks/2330', () => envelope({ ...quote({ symbol: '2330' }), session: { phase: 'continuous', open: true, demo: true } }));
  ctx.server.on('/api/vue/trade/rules', () => envelope(rules));
  ctx.server.on('/api/vue/user/info', () => envelope(info));
});
afterEach(() => {
  socket.dispose();
});

const posts = () => ctx.server.calls.filter((c) => c.init.method === 'POST' && new URL(c.url, 'http://x').pathname === '/api/vue/trade/orders');

describe('order ticket', () => {
  it('estimates with the published rules, checks the price before sending, confirms, then sends', async () => {
    renderPage('/market/marketBuy', OrderTicketPage, { url: '/market/marketBuy?symbol=2330&side=buy', others: ['/position/position'] });
    await waitFor(() => expect(screen.getByTestId('est-marketValue')).toHaveTextContent('1,085,000.00'));
    expect(screen.getByTestId('est-fee')).toHaveTextContent('1,546.00');
    expect(screen.getByTestId('est-tax')).toHaveTextContent('0.00');
    await waitFor(() => expect(screen.getByTestId('ticket-available')).toHaveTextContent('2,000,000.00'));

    // 融資: the leverage 2.5 is the condition's (financing 60 %), shown, not chosen; the margin is the rest.
    fireEvent.click(screen.getByTestId('ticket-cond-margin'));
    expect(screen.getByTestId('ticket-leverage')).toHaveTextContent('2.5');
    expect(screen.getByTestId('est-margin')).toHaveTextContent('434,000.00');
    fireEvent.click(screen.getByTestId('ticket-cond-cash'));
    // Odd-lot sessions: shares, limit only, cash only, ROD only.
    fireEvent.click(screen.getByTestId('ticket-sess-odd_intraday'));
    expect(screen.getByTestId('ticket-unit')).toHaveTextContent('股');
    expect(screen.queryByTestId('ticket-market')).toBeNull();
    expect(screen.queryByTestId('ticket-cond-margin')).toBeNull();
    expect(screen.queryByTestId('ticket-tif-IOC')).toBeNull();
    fireEvent.click(screen.getByTestId('ticket-sess-regular'));
    expect(screen.getByTestId('ticket-unit')).toHaveTextContent('張');
    fireEvent.click(screen.getByTestId('ticket-tif-IOC'));

    // Off the NT$5 grid: refused here, nothing sent.
    fireEvent.change(screen.getByTestId('ticket-price'), { target: { value: '1086' } });
    fireEvent.click(screen.getByTestId('ticket-submit'));
    expect(screen.getByTestId('form-error').textContent).toMatch(/5\.00/);
    // Beyond limit-up.
    fireEvent.change(screen.getByTestId('ticket-price'), { target: { value: '1180' } });
    fireEvent.click(screen.getByTestId('ticket-submit'));
    expect(screen.getByTestId('form-error').textContent).toMatch(/1,175\.00/);
    expect(ctx.asked).toBeUndefined();
    expect(posts()).toHaveLength(0);

    // The stepper moves one tick.
    fireEvent.change(screen.getByTestId('ticket-price'), { target: { value: '1085.00' } });
    fireEvent.click(screen.getByTestId('ticket-price-up'));
    expect(screen.getByTestId('ticket-price')).toHaveValue('1090.00');

    ctx.server.on('/api/vue/trade/orders', () => envelope({ orderNo: 'T1', status: 'pending', positionId: 'T1', filled: 0, position: 42 }));
    fireEvent.click(screen.getByTestId('ticket-submit'));
    expect(screen.getByTestId('form-error')).toHaveTextContent('');
    expect(ctx.asked).toBeDefined();
    expect(posts()).toHaveLength(0);
    await act(async () => {
      await ctx.asked!.onConfirm?.();
    });
    await waitFor(() => expect(screen.getByTestId('landed')).toHaveTextContent('/position/position'));
    const [call] = posts();
    expect(JSON.parse(String(call!.init.body))).toEqual({
      symbol: '2330',
      direction: 'long',
      type: 'limit',
      lots: 1,
      price: '1090.00',
      condition: 'cash',
      session: 'regular',
      timeInForce: 'IOC',
    });
    expect(call!.init.headers['Idempotency-Key']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('warns that a 處置股 may not be day traded and shows the refusal translated', async () => {
    ctx.server.on('/api/vue/market/stocks/3115', () =>
      envelope({ ...quote({ symbol: '3115', name: '富榮綱', price: '50.00', prevClose: '50.00', change: '0.00', changePercent: '0.00', limitUp: '55.00', limitDown: '45.00', tradingStatus: 'disposition' }), session: { phase: 'continuous', open: true, demo: true } }),
    );
    renderPage('/market/marketBuy', OrderTicketPage, { url: '/market/marketBuy?symbol=3115&dayTrade=1', others: ['/position/position'] });
    expect(await screen.findByTestId('ticket-dt-disposed')).toHaveTextContent('處置股');
    fireEvent.click(screen.getByTestId('ticket-cond-cash'));
    expect(screen.queryByTestId('ticket-dt-disposed')).toBeNull();
    fireEvent.click(screen.getByTestId('ticket-cond-day_trade'));
    await waitFor(() => expect(screen.getByTestId('ticket-available')).toHaveTextContent('2,000,000.00'));

    ctx.server.on('/api/vue/trade/orders', () => envelope(null, 0, 'day_trade_disposed', 422));
    fireEvent.click(screen.getByTestId('ticket-submit'));
    await act(async () => {
      await ctx.asked!.onConfirm?.();
    });
    await waitFor(() => expect([...ctx.shown, screen.queryByTestId('form-error')?.textContent ?? ''].join(' ')).toContain('不得現股當沖'));
  });

  it('sells first under 現股當沖 with its rules explained and a broker-style confirmation', async () => {
    renderPage('/market/marketBuy', OrderTicketPage, { url: '/market/marketBuy?symbol=2330&dayTrade=1', others: ['/position/position'] });
    await waitFor(() => expect(screen.getByTestId('est-marketValue')).toHaveTextContent('1,085,000.00'));
    expect(screen.getByTestId('ticket-dt-buy')).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByTestId('ticket-dt-hint')).toHaveTextContent('先買進');
    fireEvent.click(screen.getByTestId('ticket-dt-sell'));
    expect(screen.getByTestId('ticket-dt-hint')).toHaveTextContent('可融券');
    // Selling first pays the day-trade tax 0.15 %: 1,085,000 × 0.0015 = 1,627.
    expect(screen.getByTestId('est-tax')).toHaveTextContent('1,627.00');
    await waitFor(() => expect(screen.getByTestId('ticket-available')).toHaveTextContent('2,000,000.00'));

    ctx.server.on('/api/vue/trade/orders', () => envelope({ orderNo: 'T2', status: 'filled', positionId: 'T2', filled: 1000, position: 43 }));
    fireEvent.click(screen.getByTestId('ticket-submit'));
    expect(ctx.asked).toBeDefined();
    renderPage('/confirm', () => <>{ctx.asked!.content}</>);
    expect(screen.getByTestId('confirm-account')).toHaveTextContent('0912345678');
    expect(screen.getByTestId('confirm-side')).toHaveTextContent('賣出');
    expect(screen.getByTestId('confirm-condition')).toHaveTextContent('現股當沖・先賣後買');
    expect(screen.getByTestId('confirm-offset')).toHaveTextContent('今日買回 1 張');
    await act(async () => {
      await ctx.asked!.onConfirm?.();
    });
    await waitFor(() => expect(posts()).toHaveLength(1));
    expect(JSON.parse(String(posts()[0]!.init.body))).toMatchObject({ symbol: '2330', direction: 'short', condition: 'day_trade', session: 'regular', lots: 1 });
  });
});
