import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { api, type BodyOf } from '@/lib/api/client';
import type { components } from '@/lib/api/schema';

// Stock lending's calls, typed by the schema generated from api/openapi.yaml.

type S = components['schemas'];
export type LendingSummary = S['LendingSummary'];
export type LendingHolding = S['LendingHolding'];
export type LendingRecord = S['LendingRecord'];
export type LendingStatus = S['LendingStatus'];
export type LendingDesk = S['LendingDesk'];
export type LendBody = BodyOf<'/api/vue/lending/records'>;
export type ChannelBody = BodyOf<'/api/vue/ops/lending/channel'>;
export type SymbolBody = BodyOf<'/api/vue/ops/lending/symbols/{symbol}'>;

/** Every lending query lives under ['lending']; a command invalidates them all. */
export const lendingKeys = {
  all: ['lending'] as const,
  summary: ['lending', 'summary'] as const,
  mine: (status: LendingStatus) => ['lending', 'mine', status] as const,
  desk: ['lending', 'desk'] as const,
  ops: ['lending', 'ops'] as const,
};

export const lendingApi = {
  lend: (body: LendBody, idempotencyKey: string) => api.post('/api/vue/lending/records', body, { idempotencyKey }),
  recall: (lendNo: string, idempotencyKey: string) =>
    api.post('/api/vue/lending/records/{lendNo}/recall', {}, { params: { lendNo }, idempotencyKey }),
  setChannel: (body: ChannelBody, idempotencyKey: string) => api.post('/api/vue/ops/lending/channel', body, { idempotencyKey }),
  setSymbol: (symbol: string, body: SymbolBody, idempotencyKey: string) =>
    api.post('/api/vue/ops/lending/symbols/{symbol}', body, { params: { symbol }, idempotencyKey }),
};

/** The member's holdings as lending sees them, with the published rates. */
export function useLendingSummary() {
  return useQuery({ queryKey: lendingKeys.summary, queryFn: ({ signal }) => api.get('/api/vue/lending', { signal }) });
}

/** The member's lendings of a status, newest first, page by page. */
export function useMyLendings(status: LendingStatus) {
  return useInfiniteQuery({
    queryKey: lendingKeys.mine(status),
    initialPageParam: 1,
    queryFn: ({ pageParam, signal }) => api.get('/api/vue/lending/records', { query: { status, page: pageParam }, signal }),
    getNextPageParam: (last) => (last.hasMore ? last.page + 1 : undefined),
  });
}

/** The published lending rules (ops). */
export function useLendingDesk() {
  return useQuery({ queryKey: lendingKeys.desk, queryFn: ({ signal }) => api.get('/api/vue/ops/lending', { signal }) });
}

/** Every member's lendings, newest first (ops). */
export function useAllLendings() {
  return useInfiniteQuery({
    queryKey: lendingKeys.ops,
    initialPageParam: 1,
    queryFn: ({ pageParam, signal }) => api.get('/api/vue/ops/lending/records', { query: { page: pageParam }, signal }),
    getNextPageParam: (last) => (last.hasMore ? last.page + 1 : undefined),
  });
}

/** A rate as a percent with up to two decimals ("0.035" -> "3.5"). */
export function percent(rate: string | undefined): string {
  return String(Math.round(Number(rate ?? 0) * 1000000) / 10000);
}
