import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { api, type BodyOf } from '@/lib/api/client';
import type { components } from '@/lib/api/schema';

// Check-in's and coupons' calls, typed by the schema generated from api/openapi.yaml.

type S = components['schemas'];
export type CheckInState = S['CheckInState'];
export type Coupon = S['Coupon'];
export type OpsCoupon = S['OpsCoupon'];
export type GrantBody = BodyOf<'/api/vue/ops/coupons'>;

/** Every check-in and coupon query lives under ['coupons']; a command invalidates them all. */
export const couponKeys = {
  all: ['coupons'] as const,
  state: ['coupons', 'checkin'] as const,
  mine: ['coupons', 'mine'] as const,
  granted: ['coupons', 'granted'] as const,
};

export const couponsApi = {
  checkIn: (idempotencyKey: string) => api.post('/api/vue/checkin', {}, { idempotencyKey }),
  apply: (id: string, orderNo: string, idempotencyKey: string) =>
    api.post('/api/vue/coupons/{id}/apply', { orderNo }, { params: { id }, idempotencyKey }),
  grant: (body: GrantBody, idempotencyKey: string) => api.post('/api/vue/ops/coupons', body, { idempotencyKey }),
};

/** The member's check-in: today, done or not, the streak and the reward table. */
export function useCheckIn() {
  // Always read again on opening: a check-in or an order on another screen changed it.
  return useQuery({ queryKey: couponKeys.state, refetchOnMount: 'always', queryFn: ({ signal }) => api.get('/api/vue/checkin', { signal }) });
}

/** The member's coupons, newest first. */
export function useMyCoupons() {
  return useQuery({ queryKey: couponKeys.mine, refetchOnMount: 'always', queryFn: ({ signal }) => api.get('/api/vue/coupons', { signal }) });
}

/** The coupons ops granted, newest first, page by page. */
export function useGranted() {
  return useInfiniteQuery({
    queryKey: couponKeys.granted,
    initialPageParam: 1,
    queryFn: ({ pageParam, signal }) => api.get('/api/vue/ops/coupons', { query: { page: pageParam }, signal }),
    getNextPageParam: (last) => (last.hasMore ? last.page + 1 : undefined),
  });
}
