import type { FeatureRoute } from '@/lib/routes';

export const authRoutes: FeatureRoute[] = [
  // The welcome page is the first route: it uses no kit component.
  { path: 'login/start', zone: 'public', noKit: true, load: () => import('./StartPage') },
  { path: 'login/login', zone: 'public', load: () => import('./LoginPage') },
  // Login by phone number and by the ID number of a verified identity: the same screen, named otherwise.
  { path: 'login/logon', zone: 'public', load: () => import('./LoginPage') },
  { path: 'login/logon2', zone: 'public', load: () => import('./LoginPage') },
  { path: 'login/register', zone: 'public', load: () => import('./RegisterPage') },
];
