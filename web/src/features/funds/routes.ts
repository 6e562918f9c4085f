import type { FeatureRoute } from '@/lib/routes';

export const fundsRoutes: FeatureRoute[] = [
  { path: 'user/recharge', zone: 'session', load: () => import('./RechargePage') },
  { path: 'user/rechargeChannel', zone: 'session', load: () => import('./RechargeChannelPage') },
  { path: 'user/FundingDetails', zone: 'session', keepAlive: true, load: () => import('./FundingDetailsPage') },
  { path: 'user/withdraw', zone: 'session', load: () => import('./WithdrawPage') },
  { path: 'user/exchange', zone: 'session', load: () => import('./ExchangePage') },
];
