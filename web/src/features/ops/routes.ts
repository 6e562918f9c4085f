import type { FeatureRoute } from '@/lib/routes';

const deposits = { tw: '儲值審核', en: 'Deposit review' };

export const opsRoutes: FeatureRoute[] = [
  {
    path: 'ops/deposits',
    zone: 'ops',
    load: () => import('./DepositReviewPage'),
    entries: [
      { place: 'home', key: 'opsDeposits', label: deposits, roles: ['ops'], icon: 'review' },
      { place: 'mine', key: 'ops-deposits', label: deposits, roles: ['ops'] },
    ],
  },
  {
    path: 'ops/realname',
    zone: 'ops',
    load: () => import('./RealNameReviewPage'),
    entries: [{ place: 'mine', key: 'ops-realname', label: { tw: '實名審核', en: 'Identity review' }, roles: ['ops'] }],
  },
  {
    path: 'ops/withdrawals',
    zone: 'ops',
    load: () => import('./WithdrawalReviewPage'),
    entries: [{ place: 'mine', key: 'ops-withdrawals', label: { tw: '提領審核', en: 'Withdrawal review' }, roles: ['ops'] }],
  },
];
