import type { FeatureRoute } from '@/lib/routes';

const audit = { tw: '帳戶稽核', en: 'Account audit' };

export const auditRoutes: FeatureRoute[] = [
  {
    path: 'audit/timeline',
    zone: 'auditor',
    load: () => import('./TimelinePage'),
    entries: [
      { place: 'home', key: 'auditTimeline', label: audit, roles: ['auditor'], icon: 'search' },
      { place: 'mine', key: 'audit', label: audit, roles: ['auditor'] },
    ],
  },
];
