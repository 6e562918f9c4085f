import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { api, type DataOf } from '@/lib/api/client';

export type Channel = DataOf<'/api/vue/funds/channels', 'get'>[number];
export type FundRecord = DataOf<'/api/vue/funds/records', 'get'>['items'][number];
/** The fund record tabs: stored value, withdrawal, exchange, and everything (with credit score changes). */
export type RecordType = 'deposit' | 'withdraw' | 'exchange' | 'all';

export const fundKeys = {
  channels: ['funds', 'channels'] as const,
  records: (type: RecordType) => ['funds', 'records', type] as const,
  recordsAll: ['funds', 'records'] as const,
};

export function useChannels() {
  return useQuery({
    queryKey: fundKeys.channels,
    queryFn: ({ signal }) => api.get('/api/vue/funds/channels', { signal }),
    staleTime: 30_000,
  });
}

export const RECORDS_PAGE_SIZE = 20;

export function useFundRecords(type: RecordType) {
  return useInfiniteQuery({
    queryKey: fundKeys.records(type),
    initialPageParam: 1,
    queryFn: ({ pageParam, signal }) => api.get('/api/vue/funds/records', { query: { type, page: pageParam, size: RECORDS_PAGE_SIZE }, signal }),
    getNextPageParam: (last) => (last.hasMore ? last.page + 1 : undefined),
  });
}
