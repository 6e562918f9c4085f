import type { FeatureRoute } from '@/lib/routes';

export const chipGrabRoutes: FeatureRoute[] = [
  { path: 'chipgrab/list', zone: 'session', load: () => import('./ChipGrabPage') },
  { path: 'chipgrab/records', zone: 'session', load: () => import('./ChipGrabRecordsPage') },
  { path: 'ops/chipgrab', zone: 'ops', load: () => import('./OpsChipGrabPage') },
];
