import { declareFundLines } from '@/lib/fundLines';
import type { FeatureRoute } from '@/lib/routes';

// The fund record line of stock lending: each trading day's fee paid into available cash.
declareFundLines({
  lending_fee: { tw: '借券費用收入', en: 'Lending fee' },
});

export const lendingRoutes: FeatureRoute[] = [
  {
    path: 'lending',
    zone: 'session',
    load: () => import('./LendPage'),
    entries: [{ place: 'home', key: 'stockLending', label: { tw: '借券出借', en: 'Stock lending' }, roles: ['member'], icon: 'folder' }],
  },
  {
    path: 'lending/records',
    zone: 'session',
    load: () => import('./LendingRecordsPage'),
  },
  {
    path: 'ops/lending',
    zone: 'ops',
    load: () => import('./OpsLendingPage'),
    entries: [{ place: 'mine', key: 'ops-lending', label: { tw: '借券管理', en: 'Stock lending desk' }, roles: ['ops'] }],
  },
];
