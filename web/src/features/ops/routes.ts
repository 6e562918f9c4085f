import type { FeatureRoute } from '@/lib/routes';

export const opsRoutes: FeatureRoute[] = [
  { path: 'ops/deposits', zone: 'ops', load: () => import('./DepositReviewPage') },
  { path: 'ops/realname', zone: 'ops', load: () => import('./RealNameReviewPage') },
  { path: 'ops/withdrawals', zone: 'ops', load: () => import('./WithdrawalReviewPage') },
];
