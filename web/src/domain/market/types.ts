// The market contract (issue 4), from the types generated out of api/openapi.yaml. Decimals are
// strings; volume and book sizes are shares.
import type { components } from '@/lib/api/schema';

type S = components['schemas'];

export type Level = S['BookLevel'];
export type MarketKind = S['MarketKind'];
export type InstrumentType = S['InstrumentType'];
export type Quote = S['Quote'];
export type SessionState = S['MarketSession'];
export type QuoteDetail = S['QuoteDetail'];
export type ListPage = S['QuotePage'];
export type Interval = S['CandleInterval'];
export type Candle = S['Candle'];
export type CandlePage = S['CandlePage'];
export type FavoriteType = S['OptionalListRequest']['type'];

export type ListTab = 'all' | 'gainers' | 'losers' | 'volume';
export const LIST_TABS: readonly ListTab[] = ['all', 'gainers', 'losers', 'volume'];
export const MARKETS: readonly MarketKind[] = ['listed', 'otc'];

/** Chart intervals of the spec: 1, 3, 15, 30 minutes, day, month, year (API names). */
export const INTERVALS: readonly Interval[] = ['1m', '3m', '15m', '30m', '1d', '1M', '1y'];

/** The stock screen's K-line intervals, as Taiwan broker apps offer them (1, 5, 15, 30, 60 minutes, day, week, month). */
export const K_INTERVALS: readonly Interval[] = ['1m', '5m', '15m', '30m', '60m', '1d', '1w', '1M'];

export type TradeTape = S['TradeTape'];
export type TradeTick = S['TradeTick'];

/** A quote pushed over the socket: the contract's Quote; tolerated without a book. */
export type QuotePush = Omit<Partial<Quote>, 'bids' | 'asks'> & { symbol: string; bids?: Level[] | null; asks?: Level[] | null };
