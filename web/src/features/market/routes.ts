import type { FeatureRoute } from '@/lib/routes';

export const marketRoutes: FeatureRoute[] = [
  { path: 'market/market', zone: 'tabs', keepAlive: true, load: () => import('./MarketPage') },
  { path: 'market/stockHot/stockList', zone: 'session', load: () => import('./HotListPage') },
  { path: 'market/marketDetail', zone: 'session', load: () => import('./DetailPage') },
  { path: 'market/favo', zone: 'session', keepAlive: true, load: () => import('./FavoritesPage') },
  { path: 'home/search', zone: 'session', load: () => import('./SearchPage') },
  { path: 'home/searchIndex', zone: 'session', load: () => import('./SearchPage') },
  { path: 'home/etf', zone: 'session', keepAlive: true, load: () => import('./EtfPage') },
];
