import type { Quote } from '@/domain/market/types';

/** A quote as the server sends it, with overrides. */
export function quote(over: Partial<Quote> & { symbol: string }): Quote {
  return {
    name: '台積電',
    nameEn: 'TSMC',
    market: 'listed',
    type: 'stock',
    price: '1085.00',
    change: '15.00',
    changePercent: '1.40',
    prevClose: '1070.00',
    open: '1075.00',
    high: '1090.00',
    low: '1070.00',
    volume: 35_421_000,
    turnover: '38372500000.00',
    limitUp: '1175.00',
    limitDown: '965.00',
    bids: [],
    asks: [],
    time: '2026-11-23T02:00:00Z',
    tradingStatus: 'normal',
    ...over,
  };
}
