import type { FeatureRoute } from '@/lib/routes';

export const watchlistRoutes: FeatureRoute[] = [
  {
    path: 'market/watchlists',
    zone: 'session',
    load: () => import('./WatchlistPage'),
    entries: [{ place: 'mine', key: 'watchlists', label: { tw: '自選群組', en: 'Watchlist groups' }, roles: ['member'] }],
  },
];
