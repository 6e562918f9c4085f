import type { FeatureRoute } from '@/lib/routes';

export const homeRoutes: FeatureRoute[] = [
  {
    path: 'home/index',
    zone: 'tabs',
    keepAlive: true,
    load: () => import('./HomePage'),
    tab: { key: 'home', order: 10, label: { tw: '首頁', en: 'Home' }, icon: 'home' },
  },
  { path: '*', zone: 'public', load: () => import('./NotFoundPage') },
];
