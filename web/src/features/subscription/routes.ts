import type { FeatureRoute } from '@/lib/routes';

export const subscriptionRoutes: FeatureRoute[] = [
  { path: 'market/subscribe', zone: 'session', keepAlive: true, load: () => import('./SubscribePage') },
  { path: 'market/subscribeDetail', zone: 'session', load: () => import('./SubscribeDetailPage') },
  { path: 'market/subscribeRecord', zone: 'session', load: () => import('./SubscribeRecordPage') },
  { path: 'ops/subscription', zone: 'ops', load: () => import('./OpsSubscriptionPage') },
  { path: 'audit/subscription', zone: 'auditor', load: () => import('./DrawAuditPage') },
];
