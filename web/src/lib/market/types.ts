// The market HTTP contract (issue 4). Decimals are strings; volume and sizes are shares.

export interface Level {
  price: string;
  size: number;
}

export type MarketKind = 'listed' | 'otc';
export type InstrumentType = 'stock' | 'etf' | 'index';

export interface Quote {
  symbol: string;
  name: string;
  nameEn?: string;
  market: MarketKind;
  type: InstrumentType;
  price: string;
  change: string;
  changePercent: string;
  prevClose: string;
  open: string;
  high: string;
  low: string;
  volume: number;
  turnover: string;
  limitUp: string;
  limitDown: string;
  /** Absent or null for indices and in lists. */
  bids?: Level[] | null;
  asks?: Level[] | null;
  time: string;
}

export interface SessionState {
  phase: string;
  open: boolean;
  demo: boolean;
}

export type QuoteDetail = Quote & { session?: SessionState };

export interface ListPage {
  items: Quote[];
  page: number;
  hasMore: boolean;
  total: number;
}

export type ListTab = 'all' | 'gainers' | 'losers' | 'volume';
export const LIST_TABS: readonly ListTab[] = ['all', 'gainers', 'losers', 'volume'];
export const MARKETS: readonly MarketKind[] = ['listed', 'otc'];

/** Chart intervals of the spec: 1, 3, 15, 30 minutes, day, month, year (API names). */
export type Interval = '1m' | '3m' | '15m' | '30m' | '1d' | '1M' | '1y';
export const INTERVALS: readonly Interval[] = ['1m', '3m', '15m', '30m', '1d', '1M', '1y'];

export interface Candle {
  time: string;
  open: string;
  high: string;
  low: string;
  close: string;
  volume: number;
  turnover?: string;
}

export interface CandlePage {
  items: Candle[];
  hasMore: boolean;
}

export type FavoriteType = 'all' | MarketKind;
