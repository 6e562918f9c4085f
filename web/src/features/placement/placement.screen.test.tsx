import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { envelope, renderPage } from '@/test/render';
import { useScreenTest } from '@/test/screen';
import PlacementPage from './PlacementPage';
import PlacementRecordPage from './PlacementRecordPage';
import PlacementPositionTab from './PositionTab';

const placement = (over: Record<string, unknown> = {}) => ({
  placementId: '6669-20261123', symbol: '6669', name: '緯穎', currency: 'TWD', price: '2150.00', lots: 300, lotShares: 1000,
  maxLotsPerMember: 5, opensAt: '2026-11-23T01:00:00Z', closesAt: '2026-11-25T06:00:00Z', listingDate: '2026-11-28', state: 'open',
  commitment: 'ab'.repeat(32), algorithm: 'sha256-counter-fisher-yates/v1', seed: '', requested: false, allotted: false, allottedShares: 0,
  applications: 2, myLots: 0, ...over,
});
const application = (over: Record<string, unknown> = {}) => ({
  applicationNo: 'P1', placementId: '6669-20261123', symbol: '6669', name: '緯穎', price: '2150.00', lots: 1, shares: 1000, amount: '2150000.00',
  state: 'applied', allotted: 0, cost: '0.00', refunded: '0.00', delivered: 0, appliedAt: '2026-11-24T02:00:00Z', listingDate: '2026-11-28', ...over,
});

const ctx = useScreenTest({ account: '0912345678', confirm: true });
const applyPath = '/api/vue/placement/placements/6669-20261123/apply';
const posts = () => ctx.server.calls.filter((c) => c.init.method === 'POST' && new URL(c.url, 'http://x').pathname === applyPath);

describe('inquiry subscription', () => {
  beforeEach(() => {
    ctx.server.on('/api/vue/user/info', () => envelope({}));
  });

  it('applies for lots after confirming the amount they freeze', async () => {
    let applied = false;
    ctx.server.on(applyPath, () => {
      applied = true;
      return envelope({ applicationNo: 'P1', position: 9, available: '0.00', frozen: '4300000.00' });
    });
    ctx.server.on('/api/vue/placement/placements', () => envelope([placement(applied ? { myLots: 2 } : {})]));
    renderPage('/market/subscribe1', PlacementPage);
    fireEvent.change(await screen.findByTestId('placement-lots'), { target: { value: '2' } });
    expect(screen.getByTestId('placement-amount-preview')).toHaveTextContent('4,300,000.00');
    fireEvent.click(screen.getByTestId('placement-apply'));
    expect(String(ctx.asked?.content)).toContain('4,300,000.00');
    await act(async () => {
      await ctx.asked!.onConfirm?.();
    });
    await waitFor(() => expect(posts()).toHaveLength(1));
    expect(JSON.parse(String(posts()[0]!.init.body))).toEqual({ lots: 2 });
    await waitFor(() => expect(screen.getByTestId('placement-my-lots')).toHaveTextContent('2'));
  });

  it('refuses more lots than the cap without sending them, and offers nothing outside the window', async () => {
    ctx.server.on('/api/vue/placement/placements', () => envelope([placement({ myLots: 4 }), placement({ placementId: '2345-20261101', state: 'closed', allotted: true, seed: 'cd'.repeat(32) })]));
    renderPage('/market/subscribe1', PlacementPage);
    fireEvent.change(await screen.findByTestId('placement-lots'), { target: { value: '2' } });
    fireEvent.click(screen.getByTestId('placement-apply'));
    expect(await screen.findByTestId('form-error')).toHaveTextContent('超過每人可申請張數上限');
    expect(posts()).toHaveLength(0);
    expect(screen.getByTestId('placement-apply-blocked')).toHaveTextContent('申購已截止');
    expect(screen.getAllByTestId('placement-seed')[1]).toHaveTextContent('cd'.repeat(32));
  });
});

describe('placement records', () => {
  it('shows what each application was allotted and refunded', async () => {
    ctx.server.on('/api/vue/placement/records', () =>
      envelope([application({ applicationNo: 'P2', state: 'allotted', allotted: 334, cost: '718100.00', refunded: '1431900.00' }), application()]),
    );
    renderPage('/market/subscribe1Record', PlacementRecordPage);
    const cards = await screen.findAllByTestId('placement-application');
    expect(cards.map((c) => c.getAttribute('data-state'))).toEqual(['allotted', 'applied']);
    expect(cards[0]).toHaveTextContent('334 股');
    expect(cards[0]).toHaveTextContent('1,431,900.00');
  });
});

describe('placement position tab', () => {
  it('lists applications with the shares allotted', async () => {
    ctx.server.on('/api/vue/placement/records', () =>
      envelope([application({ applicationNo: 'P2', state: 'allotted', allotted: 334, cost: '718100.00', refunded: '1431900.00' }), application()]),
    );
    renderPage('/position/position', PlacementPositionTab);
    const cards = await screen.findAllByTestId('placement-application');
    expect(cards.map((c) => c.getAttribute('data-state'))).toEqual(['allotted', 'applied']);
    expect(cards[0]).toHaveTextContent('334 股');
  });
});
