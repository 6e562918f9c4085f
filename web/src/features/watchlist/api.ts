import { useQuery } from '@tanstack/react-query';
import { api, request } from '@/lib/api/client';
import type { components } from '@/lib/api/schema';

// Watchlist groups' calls, typed by the schema generated from api/openapi.yaml.

type S = components['schemas'];
export type WatchlistGroup = S['WatchlistGroup'];
export type WatchlistGroups = S['WatchlistGroups'];

const enc = encodeURIComponent;

/** Every watchlist query lives under ['watchlists']. The favourites of the market screens are the default group. */
export const watchlistKeys = { all: ['watchlists'] as const, favorites: ['market', 'favorites'] as const };

export const watchlistApi = {
  create: (name: string, key: string) => api.post('/api/vue/user/watchlists', { name }, { idempotencyKey: key }),
  rename: (groupId: string, name: string, key: string) =>
    api.post('/api/vue/user/watchlists/{groupId}/rename', { name }, { params: { groupId }, idempotencyKey: key }),
  remove: (groupId: string, key: string) =>
    request<S['WatchlistGroupResult']>({ method: 'DELETE', url: `/api/vue/user/watchlists/${enc(groupId)}`, idempotencyKey: key }),
  add: (groupId: string, symbol: string, key: string) =>
    api.post('/api/vue/user/watchlists/{groupId}/symbols', { symbol }, { params: { groupId }, idempotencyKey: key }),
  drop: (groupId: string, symbol: string, key: string) =>
    request<S['WatchlistSymbolResult']>({ method: 'DELETE', url: `/api/vue/user/watchlists/${enc(groupId)}/symbols/${enc(symbol)}`, idempotencyKey: key }),
  move: (groupId: string, symbol: string, to: number, key: string) =>
    api.post('/api/vue/user/watchlists/{groupId}/symbols/{symbol}/move', { to }, { params: { groupId, symbol }, idempotencyKey: key }),
  pin: (groupId: string, symbol: string, pinned: boolean, key: string) =>
    api.post('/api/vue/user/watchlists/{groupId}/symbols/{symbol}/pin', { pinned }, { params: { groupId, symbol }, idempotencyKey: key }),
};

export function useWatchlists() {
  return useQuery({ queryKey: watchlistKeys.all, queryFn: ({ signal }) => api.get('/api/vue/user/watchlists', { signal }) });
}
