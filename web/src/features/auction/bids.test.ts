import { describe, expect, it } from 'vitest';
import { auctionBody, bidBlock, bidBody, depositOf, emptyAuction } from './bids';

const terms = { minPrice: '50.00', maxLotsPerBidder: 4, myLots: 1 };

describe('auction bids', () => {
  it('freezes the deposit rate of the bid, rounded up to a dollar', () => {
    expect(depositOf('60', 4, 1000, '20.00')).toBe(48000);
    expect(depositOf('101.5', 3, 1000, '20.00')).toBe(60900);
    expect(depositOf('10.01', 1, 1000, '15.00')).toBe(1502); // 1501.5 rounds up
  });
  it('refuses a bid the terms refuse, with the server’s keys', () => {
    expect(bidBody(terms, '49.99', '1')).toEqual({ error: 'auction_price_below_minimum' });
    expect(bidBody(terms, '60', '4')).toEqual({ error: 'offering_cap_exceeded' });
    expect(bidBody(terms, '60.001', '1')).toEqual({ error: 'price_invalid' });
    expect(bidBody(terms, '60', '')).toEqual({ error: 'quantity_required' });
    expect(bidBody(terms, '60', '1.5')).toEqual({ error: 'quantity_invalid' });
    expect(bidBody(terms, '60', '3')).toEqual({ body: { price: '60', lots: 3 } });
  });
  it('blocks bids outside the window and at the cap', () => {
    expect(bidBlock({ state: 'open', myLots: 0, maxLotsPerBidder: 4 })).toBeNull();
    expect(bidBlock({ state: 'open', myLots: 4, maxLotsPerBidder: 4 })).toBe('capped');
    expect(bidBlock({ state: 'closed', myLots: 0, maxLotsPerBidder: 4 })).toBe('closed');
    expect(bidBlock({ state: 'upcoming', myLots: 0, maxLotsPerBidder: 4 })).toBe('upcoming');
  });
  it('builds the ops listing from Taipei times', () => {
    expect(auctionBody(emptyAuction)).toBeNull();
    expect(
      auctionBody({ ...emptyAuction, symbol: '1295 ', lots: '10', minPrice: '50', maxLotsPerBidder: '4', opensAt: '2026-03-02T09:00', closesAt: '2026-03-03T14:00', awardDate: '2026-03-04', listingDate: '2026-03-09' }),
    ).toEqual({ symbol: '1295', lots: 10, minPrice: '50', maxLotsPerBidder: 4, depositRate: '20', opensAt: '2026-03-02T01:00:00Z', closesAt: '2026-03-03T06:00:00Z', awardDate: '2026-03-04', listingDate: '2026-03-09' });
  });
});
