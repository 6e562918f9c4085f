import type { FeatureRoute } from '@/lib/routes';

export const auditRoutes: FeatureRoute[] = [{ path: 'audit/timeline', zone: 'auditor', load: () => import('./TimelinePage') }];
