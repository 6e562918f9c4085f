import type { FeatureRoute } from '@/lib/routes';

export const marketRoutes: FeatureRoute[] = [
  {
    path: 'market/market',
    zone: 'tabs',
    keepAlive: true,
    visitors: true,
    load: () => import('./MarketPage'),
    // The list a visitor opens first: requested beside the code on a cold start (issue 14 item 6).
    firstRead: '/api/vue/market/stocks?tab=all&market=listed&type=stock&page=1&size=20',
    entries: [{ place: 'home', key: 'market', label: { tw: '行情', en: 'Market' }, icon: 'market' }],
    tab: { key: 'market', order: 30, label: { tw: '行情', en: 'Market' }, icon: 'market' },
  },
  // Quotes are public (issue 14 item 3): visitors browse lists, search and stock screens.
  { path: 'market/stockHot/stockList', zone: 'session', visitors: true, load: () => import('./HotListPage') },
  { path: 'market/marketDetail', zone: 'session', visitors: true, load: () => import('./DetailPage') },
  { path: 'home/search', zone: 'session', visitors: true, load: () => import('./SearchPage') },
  { path: 'home/searchIndex', zone: 'session', visitors: true, load: () => import('./SearchPage') },
  {
    path: 'home/etf',
    zone: 'session',
    keepAlive: true,
    visitors: true,
    load: () => import('./EtfPage'),
    entries: [{ place: 'home', key: 'etf', label: { tw: 'ETF', en: 'ETFs' }, icon: 'chart' }],
  },
  {
    path: 'market/favo',
    zone: 'session',
    keepAlive: true,
    load: () => import('./FavoritesPage'),
    // Favourites are the members' own.
    entries: [{ place: 'home', key: 'favorites', label: { tw: '自選股', en: 'Favourites' }, roles: ['member'], icon: 'star' }],
  },
];
