import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { api, type BodyOf } from '@/lib/api/client';
import type { components } from '@/lib/api/schema';

// Chip grabbing's calls, typed by the schema generated from api/openapi.yaml.

type S = components['schemas'];
export type Offering = S['ChipGrabOffering'];
export type Claim = S['ChipGrabClaim'];
export type OfferBody = BodyOf<'/api/vue/ops/chipgrab'>;

/** Every chip grab query lives under ['chipgrab']; a command invalidates them all. */
export const chipGrabKeys = {
  all: ['chipgrab'] as const,
  list: (ops: boolean) => ['chipgrab', 'list', ops] as const,
  mine: ['chipgrab', 'mine'] as const,
  claims: (id: string) => ['chipgrab', 'claims', id] as const,
};

export const chipGrabApi = {
  claim: (id: string, lots: number, idempotencyKey: string) =>
    api.post('/api/vue/chipgrab/{id}/claim', { lots }, { params: { id }, idempotencyKey }),
  offer: (body: OfferBody, idempotencyKey: string) => api.post('/api/vue/ops/chipgrab', body, { idempotencyKey }),
  allot: (id: string, idempotencyKey: string) => api.post('/api/vue/ops/chipgrab/{id}/allot', {}, { params: { id }, idempotencyKey }),
};

/** The offerings, as members (or ops) see them. */
export function useOfferings(ops: boolean) {
  return useQuery({
    queryKey: chipGrabKeys.list(ops),
    queryFn: ({ signal }) => (ops ? api.get('/api/vue/ops/chipgrab', { signal }) : api.get('/api/vue/chipgrab', { signal })),
  });
}

/** The member's claims, newest first, page by page. */
export function useMyClaims() {
  return useInfiniteQuery({
    queryKey: chipGrabKeys.mine,
    initialPageParam: 1,
    queryFn: ({ pageParam, signal }) => api.get('/api/vue/chipgrab/claims', { query: { page: pageParam }, signal }),
    getNextPageParam: (last) => (last.hasMore ? last.page + 1 : undefined),
  });
}

/** Ops: an offering's claims in claim order, each with its claimant's account and name (first page). */
export function useOfferingClaims(id: string, enabled: boolean) {
  return useQuery({
    queryKey: chipGrabKeys.claims(id),
    enabled,
    queryFn: ({ signal }) => api.get('/api/vue/ops/chipgrab/{id}/claims', { params: { id }, query: { page: 1, size: 100 }, signal }),
  });
}
