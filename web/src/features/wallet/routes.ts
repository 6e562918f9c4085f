import type { FeatureRoute } from '@/lib/routes';

// The wallet (issue 12 item 6) and the monthly statement (issue 13 item 6), reached from mine.
export const walletRoutes: FeatureRoute[] = [
  {
    path: 'wallet/index',
    zone: 'session',
    load: () => import('./WalletPage'),
    entries: [{ place: 'mine', key: 'wallet', label: { tw: '我的錢包', en: 'Wallet' }, roles: ['member'] }],
  },
  {
    path: 'user/pj',
    zone: 'session',
    load: () => import('./StatementPage'),
    entries: [{ place: 'mine', key: 'statement', label: { tw: '對帳單', en: 'Monthly statement' }, roles: ['member'] }],
  },
];
