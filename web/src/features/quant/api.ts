import { useQuery } from '@tanstack/react-query';
import { api, type BodyOf } from '@/lib/api/client';
import type { components } from '@/lib/api/schema';

// AI quant's calls, typed by the schema generated from api/openapi.yaml.

type S = components['schemas'];
export type QuantProduct = S['QuantProduct'];
export type QuantSubscription = S['QuantSubscription'];
export type SubscribeBody = BodyOf<'/api/vue/quant/subscriptions'>;

/** Every quant query lives under ['quant']; a command invalidates them all. */
export const quantKeys = {
  all: ['quant'] as const,
  products: ['quant', 'products'] as const,
  product: (id: string) => ['quant', 'product', id] as const,
  mine: ['quant', 'mine'] as const,
};

export const quantApi = {
  subscribe: (body: SubscribeBody, idempotencyKey: string) => api.post('/api/vue/quant/subscriptions', body, { idempotencyKey }),
  leave: (subId: string, close: boolean, idempotencyKey: string) =>
    api.post('/api/vue/quant/subscriptions/{subId}/leave', { close }, { params: { subId }, idempotencyKey }),
};

/** The products with their rules and backtest figures (no curve). */
export function useQuantProducts() {
  return useQuery({ queryKey: quantKeys.products, queryFn: ({ signal }) => api.get('/api/vue/quant/products', { signal }) });
}

/** One product with its backtest and equity curve. */
export function useQuantProduct(id: string) {
  return useQuery({
    queryKey: quantKeys.product(id),
    queryFn: ({ signal }) => api.get('/api/vue/quant/products/{productId}', { params: { productId: id }, signal }),
  });
}

/** The member's subscriptions, newest first. */
export function useMySubscriptions() {
  return useQuery({ queryKey: quantKeys.mine, queryFn: ({ signal }) => api.get('/api/vue/quant/subscriptions', { signal }) });
}
