import type { FeatureRoute } from '@/lib/routes';

export const authRoutes: FeatureRoute[] = [
  // The welcome page is the first route: it uses no kit component.
  { path: 'login/start', zone: 'public', noKit: true, load: () => import('./StartPage') },
  { path: 'login/login', zone: 'public', load: () => import('./LoginPage') },
  { path: 'login/register', zone: 'public', load: () => import('./RegisterPage') },
];
