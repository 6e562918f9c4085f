import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { envelope, renderPage } from '@/test/render';
import { useScreenTest } from '@/test/screen';
import AuctionDetailPage from './AuctionDetailPage';
import AuctionRecordPage from './AuctionRecordPage';
import AuctionPositionTab from './PositionTab';

const auction = (over: Record<string, unknown> = {}) => ({
  auctionId: '1295-20261124', symbol: '1295', name: '生合', currency: 'TWD', lots: 10, lotShares: 1000, minPrice: '50.00',
  maxLotsPerBidder: 4, depositRate: '20.00', opensAt: '2026-11-24T01:00:00Z', closesAt: '2026-11-26T06:00:00Z', awardDate: '2026-11-27',
  listingDate: '2026-12-03', state: 'open', commitment: 'ab'.repeat(32), algorithm: 'price-desc-tie-draw/v1', seed: '', awarded: false,
  awardedLots: 0, bids: 3, myLots: 0, ...over,
});
const bid = (over: Record<string, unknown> = {}) => ({
  bidNo: 'A1', auctionId: '1295-20261124', symbol: '1295', name: '生合', price: '60.00', lots: 4, amount: '240000.00', deposit: '48000.00',
  state: 'bidding', awardedLots: 0, cost: '0.00', balance: '0.00', released: '0.00', delivered: 0, placedAt: '2026-11-24T02:00:00Z',
  awardDate: '2026-11-27', listingDate: '2026-12-03', ...over,
});

const ctx = useScreenTest({ account: '0912345678', confirm: true });
const bidPath = '/api/vue/auction/auctions/1295-20261124/bid';
const posts = () => ctx.server.calls.filter((c) => c.init.method === 'POST' && new URL(c.url, 'http://x').pathname === bidPath);
const url = '/market/subscribeDetailJp?id=1295-20261124';

describe('auction detail', () => {
  beforeEach(() => {
    ctx.server.on('/api/vue/user/info', () => envelope({}));
  });

  it('bids a price and lots after confirming the deposit it freezes', async () => {
    let placed = false;
    ctx.server.on(bidPath, () => {
      placed = true;
      return envelope({ bidNo: 'A1', deposit: '48000.00', position: 9, available: '2000.00', frozen: '48000.00' });
    });
    ctx.server.on('/api/vue/auction/auctions/1295-20261124', () =>
      envelope(placed ? { auction: auction({ myLots: 4 }), bids: [bid()] } : { auction: auction(), bids: [] }),
    );
    renderPage('/market/subscribeDetailJp', AuctionDetailPage, { url });
    expect(await screen.findByTestId('auction-min-price')).toHaveTextContent('50.00');
    expect(screen.getByTestId('auction-seed')).toHaveTextContent('開標時公開');
    fireEvent.change(screen.getByTestId('auction-price'), { target: { value: '60' } });
    fireEvent.change(screen.getByTestId('auction-lots'), { target: { value: '4' } });
    expect(screen.getByTestId('auction-deposit-preview')).toHaveTextContent('48,000.00');
    fireEvent.click(screen.getByTestId('auction-bid-submit'));
    expect(String(ctx.asked?.content)).toContain('48,000.00');
    await act(async () => {
      await ctx.asked!.onConfirm?.();
    });
    await waitFor(() => expect(posts()).toHaveLength(1));
    expect(JSON.parse(String(posts()[0]!.init.body))).toEqual({ price: '60', lots: 4 });
    expect(await screen.findByTestId('auction-bid-state')).toHaveTextContent('待開標');
    expect(screen.getByTestId('auction-bid-blocked')).toHaveAttribute('data-reason', 'capped');
  });

  it('refuses a bid below the minimum or over the cap without sending it', async () => {
    ctx.server.on('/api/vue/auction/auctions/1295-20261124', () => envelope({ auction: auction({ myLots: 2 }), bids: [] }));
    renderPage('/market/subscribeDetailJp', AuctionDetailPage, { url });
    fireEvent.change(await screen.findByTestId('auction-price'), { target: { value: '49.99' } });
    fireEvent.change(screen.getByTestId('auction-lots'), { target: { value: '1' } });
    fireEvent.click(screen.getByTestId('auction-bid-submit'));
    expect(await screen.findByTestId('form-error')).toHaveTextContent('出價低於最低投標價格');
    fireEvent.change(screen.getByTestId('auction-price'), { target: { value: '55' } });
    fireEvent.change(screen.getByTestId('auction-lots'), { target: { value: '3' } });
    fireEvent.click(screen.getByTestId('auction-bid-submit'));
    expect(await screen.findByTestId('form-error')).toHaveTextContent('超過每人可申請張數上限');
    expect(posts()).toHaveLength(0);
  });

  it('offers no bid outside the window and shows the revealed seed after the award', async () => {
    ctx.server.on('/api/vue/auction/auctions/1295-20261124', () =>
      envelope({ auction: auction({ state: 'closed', awarded: true, seed: 'cd'.repeat(32), awardedLots: 10 }), bids: [] }),
    );
    renderPage('/market/subscribeDetailJp', AuctionDetailPage, { url });
    expect(await screen.findByTestId('auction-bid-blocked')).toHaveTextContent('投標已截止');
    expect(screen.getByTestId('auction-seed')).toHaveTextContent('cd'.repeat(32));
    expect(screen.queryByTestId('auction-bid-submit')).toBeNull();
  });
});

describe('auction records', () => {
  it('shows each bid with what became of it', async () => {
    ctx.server.on('/api/vue/auction/records', () =>
      envelope([
        bid({ bidNo: 'A3', state: 'delivered', awardedLots: 4, cost: '240000.00', balance: '192000.00', delivered: 4000 }),
        bid({ bidNo: 'A2', state: 'lost', released: '48000.00' }),
        bid({ bidNo: 'A1', state: 'forfeited', awardedLots: 4, cost: '240000.00' }),
      ]),
    );
    renderPage('/market/subscribeJpRecord', AuctionRecordPage);
    const cards = await screen.findAllByTestId('auction-bid');
    expect(cards.map((c) => c.getAttribute('data-state'))).toEqual(['delivered', 'lost', 'forfeited']);
    expect(cards[0]).toHaveTextContent('4000 股');
    expect(cards[1]).toHaveTextContent('未得標');
  });
});

describe('auction position tab', () => {
  it('lists bids and wins with deposits held and released and amounts paid', async () => {
    ctx.server.on('/api/vue/auction/records', () =>
      envelope([bid({ bidNo: 'A3', state: 'delivered', awardedLots: 4, cost: '240000.00', balance: '192000.00', delivered: 4000 }), bid({ bidNo: 'A2', state: 'lost', released: '48000.00' })]),
    );
    renderPage('/position/position', AuctionPositionTab);
    const cards = await screen.findAllByTestId('auction-bid');
    expect(cards.map((c) => c.getAttribute('data-state'))).toEqual(['delivered', 'lost']);
    expect(cards[0]).toHaveTextContent('240,000.00');
    expect(cards[1]).toHaveTextContent('48,000.00');
  });
  it('says so when there are no bids', async () => {
    ctx.server.on('/api/vue/auction/records', () => envelope([]));
    renderPage('/position/position', AuctionPositionTab);
    expect(await screen.findByTestId('list-empty')).toBeInTheDocument();
  });
});
