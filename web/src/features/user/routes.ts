import type { FeatureRoute } from '@/lib/routes';

export const userRoutes: FeatureRoute[] = [
  { path: 'user/language', zone: 'public', load: () => import('./LanguagePage') },
  { path: 'user/agreement', zone: 'public', load: () => import('./AgreementPage') },
  { path: 'user/aboutUs', zone: 'public', load: () => import('./AboutUsPage') },
  {
    path: 'user/usercenter',
    zone: 'tabs',
    load: () => import('./UserCenterPage'),
    tab: { key: 'mine', order: 50, label: { tw: '我的', en: 'Mine' }, icon: 'mine' },
  },
  { path: 'user/setting', zone: 'session', load: () => import('./SettingPage') },
  { path: 'user/loginPassword', zone: 'session', load: () => import('./LoginPasswordPage') },
  { path: 'user/setPassword', zone: 'session', load: () => import('./SetPasswordPage') },
  { path: 'user/bandCard', zone: 'session', load: () => import('./RealNamePage') },
  { path: 'user/BankCard', zone: 'session', load: () => import('./BankCardPage') },
  { path: 'user/WithCard', zone: 'session', load: () => import('./WithCardPage') },
  { path: 'user/creditRule', zone: 'session', load: () => import('./CreditRulePage') },
];
