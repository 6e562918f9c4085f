import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { api, request } from '@/lib/api/client';
import type { components } from '@/lib/api/schema';
import { useSession } from '@/lib/session';
import { useRole } from '@/lib/user';
// Every market screen reads its texts through these calls' module.
import './texts';
import type { CandlePage, FavoriteType, Interval, ListPage, ListTab, MarketKind, Quote, QuoteDetail, TradeTape } from './types';

// The market calls of issue 4, typed by the schema generated from api/openapi.yaml.

const enc = encodeURIComponent;

export const LIST_PAGE_SIZE = 20;
export const CANDLE_PAGE = 300;

export const marketApi = {
  stocks(p: { tab: ListTab; market: MarketKind; type?: 'stock' | 'etf'; page: number; size?: number }, signal?: AbortSignal): Promise<ListPage> {
    return api.get('/api/vue/market/stocks', { query: { tab: p.tab, market: p.market, type: p.type, page: p.page, size: p.size ?? LIST_PAGE_SIZE }, signal });
  },
  quote(symbol: string, signal?: AbortSignal): Promise<QuoteDetail> {
    return api.get('/api/vue/market/stocks/{symbol}', { params: { symbol }, signal });
  },
  candles(symbol: string, interval: Interval, opts: { before?: string; limit?: number } = {}, signal?: AbortSignal): Promise<CandlePage> {
    return api.get('/api/vue/market/stocks/{symbol}/candles', { params: { symbol }, query: { interval, before: opts.before, limit: opts.limit ?? CANDLE_PAGE }, signal });
  },
  /** The day's time and sales, newest first, with the 內外盤 totals (public). */
  trades(symbol: string, limit: number, signal?: AbortSignal): Promise<TradeTape> {
    return api.get('/api/vue/market/stocks/{symbol}/trades', { params: { symbol }, query: { limit }, signal });
  },
  search(q: string, signal?: AbortSignal): Promise<Quote[]> {
    return api.get('/api/vue/market/search', { query: { q }, signal });
  },
  indices(signal?: AbortSignal): Promise<Quote[]> {
    return api.get('/api/vue/market/indices', { signal });
  },
  hot(market: MarketKind, signal?: AbortSignal): Promise<Quote[]> {
    return api.get('/api/vue/market/hot', { query: { market }, signal });
  },
  /** The spec's call: a read, so no idempotency key. */
  favorites(type: FavoriteType, signal?: AbortSignal): Promise<Quote[]> {
    return api.query('/api/vue/user/Optionallist', { type }, { signal });
  },
  addFavorite(symbol: string, idempotencyKey: string) {
    return api.post('/api/vue/user/favorites', { symbol }, { idempotencyKey });
  },
  /** The client's typed helpers have no DELETE; the answer is the schema's FavoriteResult. */
  removeFavorite(symbol: string, idempotencyKey: string) {
    return request<components['schemas']['FavoriteResult']>({ method: 'DELETE', url: `/api/vue/user/favorites/${enc(symbol)}`, idempotencyKey });
  },
};

/** Every market query lives under ['market']: live quotes patch them, a reconnect refetches them. */
export const marketKeys = {
  all: ['market'] as const,
  list: (tab: ListTab, market: MarketKind, type: string) => ['market', 'list', tab, market, type] as const,
  quote: (symbol: string) => ['market', 'quote', symbol] as const,
  candles: (symbol: string, interval: Interval) => ['market', 'candles', symbol, interval] as const,
  search: (q: string) => ['market', 'search', q] as const,
  trades: (symbol: string) => ['market', 'trades', symbol] as const,
  indices: ['market', 'indices'] as const,
  hot: (market: MarketKind) => ['market', 'hot', market] as const,
  favorites: (type: FavoriteType) => ['market', 'favorites', type] as const,
  favoritesAll: ['market', 'favorites'] as const,
};

export function useMarketList(tab: ListTab, market: MarketKind, type: 'stock' | 'etf' = 'stock') {
  return useInfiniteQuery({
    queryKey: marketKeys.list(tab, market, type),
    initialPageParam: 1,
    queryFn: ({ pageParam, signal }) => marketApi.stocks({ tab, market, type, page: pageParam }, signal),
    getNextPageParam: (last) => (last.hasMore ? last.page + 1 : undefined),
  });
}

export function useQuote(symbol: string) {
  return useQuery({
    queryKey: marketKeys.quote(symbol),
    queryFn: ({ signal }) => marketApi.quote(symbol, signal),
    enabled: symbol !== '',
  });
}

export function useSearch(q: string) {
  const term = q.trim();
  return useQuery({
    queryKey: marketKeys.search(term),
    queryFn: ({ signal }) => marketApi.search(term, signal),
    enabled: term !== '',
    staleTime: 30_000,
    placeholderData: (prev) => prev,
  });
}

export function useIndices() {
  return useQuery({ queryKey: marketKeys.indices, queryFn: ({ signal }) => marketApi.indices(signal) });
}

export function useHot(market: MarketKind) {
  return useQuery({ queryKey: marketKeys.hot(market), queryFn: ({ signal }) => marketApi.hot(market, signal) });
}

/** Favourites are the members' own (ops and auditors have none: the server answers 403). */
export function useCanFavorite(): boolean {
  const { token } = useSession();
  const role = useRole();
  return token !== '' && role === 'member';
}

/** The member's favourites (nothing is asked for other roles or without a session). */
export function useFavorites(type: FavoriteType = 'all') {
  const enabled = useCanFavorite();
  return useQuery({
    queryKey: marketKeys.favorites(type),
    queryFn: ({ signal }) => marketApi.favorites(type, signal),
    enabled,
  });
}
