import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { api, type BodyOf } from '@/lib/api/client';
import type { components } from '@/lib/api/schema';

// Block trading's calls, typed by the schema generated from api/openapi.yaml.

type S = components['schemas'];
export type BlockListing = S['BlockListing'];
export type BlockApplication = S['BlockApplication'];
export type ApplyBody = BodyOf<'/api/vue/block/{id}/apply'>;
export type ListBody = BodyOf<'/api/vue/ops/block'>;

/** Every block query lives under ['block']; a command invalidates them all. */
export const blockKeys = {
  all: ['block'] as const,
  list: (ops: boolean) => ['block', 'list', ops] as const,
  mine: ['block', 'mine'] as const,
};

export const blockApi = {
  apply: (id: string, body: ApplyBody, idempotencyKey: string) =>
    api.post('/api/vue/block/{id}/apply', body, { params: { id }, idempotencyKey }),
  list: (body: ListBody, idempotencyKey: string) => api.post('/api/vue/ops/block', body, { idempotencyKey }),
  close: (id: string, idempotencyKey: string) => api.post('/api/vue/ops/block/{id}/close', {}, { params: { id }, idempotencyKey }),
  approve: (orderNo: string, idempotencyKey: string) =>
    api.post('/api/vue/ops/block/applications/{orderNo}/approve', {}, { params: { orderNo }, idempotencyKey }),
  reject: (orderNo: string, remark: string, idempotencyKey: string) =>
    api.post('/api/vue/ops/block/applications/{orderNo}/reject', { remark }, { params: { orderNo }, idempotencyKey }),
};

/** The blocks, as members (or ops) see them. */
export function useBlocks(ops: boolean) {
  return useQuery({
    queryKey: blockKeys.list(ops),
    queryFn: ({ signal }) => (ops ? api.get('/api/vue/ops/block', { signal }) : api.get('/api/vue/block', { signal })),
  });
}

/** The member's applications, newest first, page by page. */
export function useMyApplications() {
  return useInfiniteQuery({
    queryKey: blockKeys.mine,
    initialPageParam: 1,
    queryFn: ({ pageParam, signal }) => api.get('/api/vue/block/applications', { query: { page: pageParam }, signal }),
    getNextPageParam: (last) => (last.hasMore ? last.page + 1 : undefined),
  });
}

