import type { FeatureRoute } from '@/lib/routes';

export const fundsRoutes: FeatureRoute[] = [
  {
    path: 'user/recharge',
    zone: 'session',
    load: () => import('./RechargePage'),
    entries: [{ place: 'home', key: 'deposit', label: { tw: '儲值', en: 'Deposit' }, icon: 'pay' }],
  },
  { path: 'user/rechargeChannel', zone: 'session', load: () => import('./RechargeChannelPage') },
  {
    path: 'user/FundingDetails',
    zone: 'tabs',
    keepAlive: true,
    load: () => import('./FundingDetailsPage'),
    entries: [{ place: 'home', key: 'fundRecords', label: { tw: '資金紀錄', en: 'Fund records' }, icon: 'bill' }],
    tab: { key: 'records', order: 70, label: { tw: '資金紀錄', en: 'Records' }, icon: 'records' },
  },
  {
    path: 'user/withdraw',
    zone: 'session',
    load: () => import('./WithdrawPage'),
    entries: [{ place: 'home', key: 'withdraw', label: { tw: '提領', en: 'Withdraw' }, roles: ['member'], icon: 'pay' }],
  },
  { path: 'user/exchange', zone: 'session', load: () => import('./ExchangePage') },
];
