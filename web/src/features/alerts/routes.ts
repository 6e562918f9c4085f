import type { FeatureRoute } from '@/lib/routes';
import { useAlertAnnounce, useUnreadNotices } from './notices';

export const alertsRoutes: FeatureRoute[] = [
  {
    path: 'user/alerts',
    zone: 'session',
    load: () => import('./AlertsPage'),
    entries: [{ place: 'mine', key: 'alerts', label: { tw: '到價提醒', en: 'Price alerts' }, roles: ['member'] }],
  },
  {
    path: 'user/notifications',
    zone: 'session',
    load: () => import('./NotificationsPage'),
    // A fired alert reaches the member on any screen: a toast, and the unread count on this entry.
    entries: [
      { place: 'mine', key: 'notifications', label: { tw: '通知', en: 'Notifications' }, roles: ['member'], badge: useUnreadNotices, announce: useAlertAnnounce },
    ],
  },
];
