import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { envelope, renderPage } from '@/test/render';
import { useScreenTest } from '@/test/screen';
import { declarePositionTab } from '@/lib/positionTabs';
import PositionPage from './PositionPage';

// Two tabs as a feature declares them, next to those the offering features declare (the app's routes are loaded).
declarePositionTab({ key: 'first', label: { tw: '甲', en: 'First' }, order: 15, load: () => Promise.resolve({ default: () => <p data-testid="first-list">first list</p> }) });
declarePositionTab({ key: 'late', label: { tw: '乙', en: 'Late' }, order: 65, load: () => Promise.resolve({ default: () => <p>late list</p> }) });

const position = (over: Record<string, unknown>) => ({
  id: 'T1',
  orderNo: 'T1',
  symbol: '2330',
  name: '台積電',
  instrumentType: 'stock',
  direction: 'long',
  status: 'holding',
  shares: 2000,
  closingShares: 0,
  lots: '2',
  leverage: '1.00',
  dayTrade: false,
  entryPrice: '1000.00',
  exitPrice: '0.00',
  price: '1010.00',
  marketValue: '2020000.00',
  fee: '2850.00',
  tax: '0.00',
  margin: '2000000.00',
  loan: '0.00',
  profit: '0.00',
  unrealisedProfit: '8271.00',
  openedAt: '2026-11-22T01:00:00Z',
  closedAt: null,
  createdAt: '2026-11-22T01:00:00Z',
  ...over,
});
const order = {
  orderNo: 'T2',
  positionId: 'T2',
  intent: 'open',
  symbol: '2317',
  name: '鴻海',
  side: 'buy',
  direction: 'long',
  type: 'limit',
  shares: 1000,
  oddLot: false,
  price: '150.00',
  leverage: '1.00',
  dayTrade: false,
  placedBy: 'member',
  tradingDay: '2026-11-22',
  status: 'pending',
  reason: '',
  filled: 0,
  avgPrice: '0.00',
  amount: '0.00',
  commission: '0.00',
  tax: '0.00',
  createdAt: '2026-11-22T01:00:00Z',
  updatedAt: '2026-11-22T01:00:00Z',
};
const page = (items: unknown[]) => envelope({ items, page: 1, hasMore: false });

const ctx = useScreenTest({ account: '0912345678', confirm: true });
let held: unknown[] = [];
let working: unknown[] = [];
beforeEach(() => {
  held = [position({})];
  working = [order];
  ctx.server.on('/api/vue/trade/positions?status=holding', () => page(held));
  // The working order's position, before any share filled.
  ctx.server.on('/api/vue/trade/positions?status=pending', () => page([position({ id: 'T2', orderNo: 'T2', symbol: '2317', name: '鴻海', status: 'pending', shares: 0, lots: '0' })]));
  ctx.server.on('/api/vue/trade/positions?status=closed', () => page([position({ id: 'T0', status: 'closed', profit: '-1234.00', exitPrice: '990.00', tax: '5940.00' })]));
  ctx.server.on('/api/vue/trade/orders?status=working', () => page(working));
  ctx.server.on('/api/vue/user/info', () => envelope({}));
});

const postsTo = (path: string) => ctx.server.calls.filter((c) => c.init.method === 'POST' && new URL(c.url, 'http://x').pathname === path);

describe('positions', () => {
  it('shows live profit in red, closes part of a holding after confirming', async () => {
    renderPage('/position/position', PositionPage);
    const row = await screen.findByTestId('position');
    expect(within(row).getByTestId('position-profit')).toHaveTextContent('8,271.00');
    expect(within(row).getByTestId('position-profit')).toHaveClass('up');
    fireEvent.click(within(row).getByTestId('position-close'));
    expect(ctx.asked).toBeDefined();
    // The dialog's content holds the quantity field (all 2 lots by default); close 1.
    const content = render(<>{ctx.asked!.content}</>);
    fireEvent.change(content.getByTestId('close-qty'), { target: { value: '1' } });
    ctx.server.on('/api/vue/trade/positions/T1/close', () => envelope({ orderNo: 'C1', status: 'filled', positionId: 'T1', filled: 1000, position: 7 }));
    await act(async () => {
      await ctx.asked!.onConfirm?.();
    });
    await waitFor(() => expect(postsTo('/api/vue/trade/positions/T1/close')).toHaveLength(1));
    expect(JSON.parse(String(postsTo('/api/vue/trade/positions/T1/close')[0]!.init.body))).toEqual({ type: 'market', lots: 1 });
  });

  it('tags an order copied from a mentor, and only that one', async () => {
    working = [order, { ...order, orderNo: 'T3', positionId: 'T3', origin: 'F1', originName: 'Ann' }];
    renderPage('/position/position', PositionPage);
    await screen.findByTestId('position');
    fireEvent.click(screen.getByTestId('pos-tab-orders'));
    const rows = await screen.findAllByTestId('order');
    expect(within(rows[0]!).queryByTestId('order-origin')).toBeNull();
    expect(within(rows[1]!).getByTestId('order-origin')).toHaveTextContent('跟單自 Ann');
  });

  it('lists a pending order under orders, never under holdings', async () => {
    renderPage('/position/position', PositionPage);
    await screen.findByTestId('position');
    // Let every request of the holdings tab answer before looking at what it lists.
    await act(() => new Promise((r) => setTimeout(r, 50)));
    expect(screen.getAllByTestId('position').map((p) => p.getAttribute('data-id'))).toEqual(['T1']);
    fireEvent.click(screen.getByTestId('pos-tab-orders'));
    expect((await screen.findAllByTestId('order')).map((o) => o.getAttribute('data-order-no'))).toEqual(['T2']);
    expect(screen.queryByTestId('position')).toBeNull();
  });

  it('cancels a pending order after confirming; terminated shows the realised loss in green', async () => {
    renderPage('/position/position', PositionPage);
    await screen.findByTestId('position');
    fireEvent.click(screen.getByTestId('pos-tab-orders'));
    const o = await screen.findByTestId('order');
    expect(o).toHaveAttribute('data-order-no', 'T2');
    fireEvent.click(within(o).getByTestId('order-cancel'));
    expect(postsTo('/api/vue/trade/orders/T2/cancel')).toHaveLength(0);
    ctx.server.on('/api/vue/trade/orders/T2/cancel', () => envelope({ orderNo: 'T2', status: 'cancelled', position: 8 }));
    await act(async () => {
      await ctx.asked!.onConfirm?.();
    });
    await waitFor(() => expect(postsTo('/api/vue/trade/orders/T2/cancel')).toHaveLength(1));

    fireEvent.click(screen.getByTestId('pos-tab-terminated'));
    const closed = await screen.findByTestId('closed-position');
    expect(within(closed).getByTestId('closed-profit')).toHaveTextContent('-1,234.00');
    expect(within(closed).getByTestId('closed-profit')).toHaveClass('down');
  });

  it('puts declared tabs among its own in order; ETF lists only ETF holdings; a declared tab shows its list', async () => {
    held = [position({}), position({ id: 'E1', orderNo: 'E1', symbol: '0050', name: '元大台灣50', instrumentType: 'etf' })];
    renderPage('/position/position', PositionPage);
    const tabs = await screen.findAllByRole('tab');
    expect(tabs.map((b) => b.getAttribute('data-testid'))).toEqual([
      'pos-tab-chipgrab', 'pos-tab-first', 'pos-tab-auction', 'pos-tab-etf', 'pos-tab-holdings', 'pos-tab-terminated', 'pos-tab-placement', 'pos-tab-late', 'pos-tab-orders',
    ]);
    expect(tabs.map((b) => b.textContent)).toEqual(['搶籌', '甲', '競拍', 'ETF', '持倉', '已結束', '配售', '乙', '委託']);
    expect(await screen.findAllByTestId('position')).toHaveLength(2);
    fireEvent.click(screen.getByTestId('pos-tab-etf'));
    await waitFor(() => expect(screen.getAllByTestId('position').map((r) => r.getAttribute('data-symbol'))).toEqual(['0050']));
    fireEvent.click(screen.getByTestId('pos-tab-first'));
    expect(await screen.findByTestId('first-list')).toHaveTextContent('first list');
    expect(screen.getByTestId('pos-tab-first')).toHaveAttribute('aria-selected', 'true');
  });
});
