import { useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api/client';
import type { components } from '@/lib/api/schema';
import { queryKeys } from '@/lib/query';
import { useSession } from '@/lib/session';
import '@/domain/trade/texts';

// The trading calls of issue 5, typed by the schema generated from api/openapi.yaml.

type S = components['schemas'];
export type OrderRequest = S['OrderRequest'];
export type CloseRequest = S['CloseRequest'];
export type TradeOrder = S['TradeOrder'];
export type TradePosition = S['TradePosition'];
export type TradeRules = S['TradeRules'];
export type PositionFilter = 'holding' | 'pending' | 'closed' | 'all';
export type OrderFilter = 'all' | 'working' | 'done';

export const tradeApi = {
  place(body: OrderRequest, idempotencyKey: string) {
    return api.post('/api/vue/trade/orders', body, { idempotencyKey });
  },
  cancel(orderNo: string, idempotencyKey: string) {
    return api.post('/api/vue/trade/orders/{orderNo}/cancel', {}, { params: { orderNo }, idempotencyKey });
  },
  orders(status: OrderFilter, signal?: AbortSignal) {
    return api.get('/api/vue/trade/orders', { query: { status, size: 50 }, signal });
  },
  positions(status: PositionFilter, signal?: AbortSignal) {
    return api.get('/api/vue/trade/positions', { query: { status, size: 50 }, signal });
  },
  position(id: string, signal?: AbortSignal) {
    return api.get('/api/vue/trade/positions/{id}', { params: { id }, signal });
  },
  close(id: string, body: CloseRequest, idempotencyKey: string) {
    return api.post('/api/vue/trade/positions/{id}/close', body, { params: { id }, idempotencyKey });
  },
  dayTrading(signal?: AbortSignal) {
    return api.get('/api/vue/trade/dayTrading', { signal });
  },
  notices(signal?: AbortSignal) {
    return api.get('/api/vue/trade/notices', { signal });
  },
  rules(signal?: AbortSignal) {
    return api.get('/api/vue/trade/rules', { signal });
  },
};

/** Every trading query lives under ['trade']; a command invalidates them all and the user's assets. */
export const tradeKeys = {
  all: ['trade'] as const,
  positions: (s: PositionFilter) => ['trade', 'positions', s] as const,
  orders: (s: OrderFilter) => ['trade', 'orders', s] as const,
  position: (id: string) => ['trade', 'position', id] as const,
  rules: ['trade', 'rules'] as const,
  dayTrading: ['trade', 'dayTrading'] as const,
  holdingsSummary: ['trade', 'holdingsSummary'] as const,
  notices: ['trade', 'notices'] as const,
};

/** Live-valued lists refresh every few seconds while shown. */
const LIVE_MS = 3000;

export function usePositions(status: PositionFilter, live = false) {
  const { token } = useSession();
  return useQuery({
    queryKey: tradeKeys.positions(status),
    queryFn: ({ signal }) => tradeApi.positions(status, signal),
    enabled: token !== '',
    refetchInterval: live ? LIVE_MS : false,
  });
}

export function useOrders(status: OrderFilter) {
  const { token } = useSession();
  return useQuery({ queryKey: tradeKeys.orders(status), queryFn: ({ signal }) => tradeApi.orders(status, signal), enabled: token !== '' });
}

export function usePosition(id: string) {
  return useQuery({
    queryKey: tradeKeys.position(id),
    queryFn: ({ signal }) => tradeApi.position(id, signal),
    enabled: id !== '',
    refetchInterval: LIVE_MS,
  });
}

export function useTradeRules() {
  return useQuery({ queryKey: tradeKeys.rules, queryFn: ({ signal }) => tradeApi.rules(signal), staleTime: 10 * 60_000 });
}

/** After a command: every trading list and the member's assets are stale. */
export function useTradeChanged(): () => void {
  const qc = useQueryClient();
  return () => {
    void qc.invalidateQueries({ queryKey: tradeKeys.all });
    void qc.invalidateQueries({ queryKey: queryKeys.userInfo });
  };
}

export function useDayTrading() {
  return useQuery({ queryKey: tradeKeys.dayTrading, queryFn: ({ signal }) => tradeApi.dayTrading(signal), refetchInterval: LIVE_MS });
}

export function useNotices() {
  return useQuery({ queryKey: tradeKeys.notices, queryFn: ({ signal }) => tradeApi.notices(signal) });
}

/** The 庫存 summary of the held positions at live quotes (the server reckons it). */
export function useHoldingsSummary() {
  const { token } = useSession();
  return useQuery({
    queryKey: tradeKeys.holdingsSummary,
    queryFn: ({ signal }) => api.get('/api/vue/trade/holdingsSummary', { signal }),
    enabled: token !== '',
    refetchInterval: LIVE_MS,
  });
}
