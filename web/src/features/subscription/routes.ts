import { declareFundLines } from '@/lib/fundLines';
import type { FeatureRoute } from '@/lib/routes';

// The lines a subscription writes in fund records.
declareFundLines({
  subscription_freeze: { tw: '申購凍結', en: 'Subscription freeze' },
  subscription_payment: { tw: '申購扣款', en: 'Subscription payment' },
  subscription_fee: { tw: '申購處理費', en: 'Subscription fee' },
  subscription_postage: { tw: '中籤郵寄費', en: 'Winner postage' },
  subscription_refund: { tw: '申購退款', en: 'Subscription refund' },
  subscription_allotment: { tw: '新股撥券', en: 'New shares allotted' },
});

export const subscriptionRoutes: FeatureRoute[] = [
  {
    path: 'market/subscribe',
    zone: 'session',
    keepAlive: true,
    load: () => import('./SubscribePage'),
    entries: [{ place: 'home', key: 'subscription', label: { tw: '申購專區', en: 'Subscription zone' }, roles: ['member'], icon: 'gift' }],
  },
  { path: 'market/subscribeDetail', zone: 'session', load: () => import('./SubscribeDetailPage') },
  { path: 'market/subscribeRecord', zone: 'session', load: () => import('./SubscribeRecordPage') },
  {
    path: 'ops/subscription',
    zone: 'ops',
    load: () => import('./OpsSubscriptionPage'),
    entries: [{ place: 'home', key: 'opsSubscription', label: { tw: '新股發行', en: 'New share issues' }, roles: ['ops'], icon: 'gift' }],
  },
  {
    path: 'audit/subscription',
    zone: 'auditor',
    load: () => import('./DrawAuditPage'),
    entries: [{ place: 'home', key: 'auditDraw', label: { tw: '抽籤驗證', en: 'Draw verification' }, roles: ['auditor'], icon: 'gift' }],
  },
];
