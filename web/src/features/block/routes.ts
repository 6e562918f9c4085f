import type { FeatureRoute } from '@/lib/routes';

export const blockRoutes: FeatureRoute[] = [
  { path: 'block/list', zone: 'session', load: () => import('./BlockListPage') },
  { path: 'block/records', zone: 'session', load: () => import('./BlockRecordsPage') },
  { path: 'ops/block', zone: 'ops', load: () => import('./OpsBlockPage') },
  { path: 'ops/blockApplications', zone: 'ops', load: () => import('./OpsBlockApplicationsPage') },
];
