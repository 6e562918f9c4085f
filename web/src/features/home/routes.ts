import type { FeatureRoute } from '@/lib/routes';

export const homeRoutes: FeatureRoute[] = [
  { path: 'home/index', zone: 'tabs', keepAlive: true, load: () => import('./HomePage') },
  { path: '*', zone: 'public', load: () => import('./NotFoundPage') },
];
