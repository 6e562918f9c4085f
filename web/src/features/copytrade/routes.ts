import { declareFundLines } from '@/lib/fundLines';
import type { FeatureRoute } from '@/lib/routes';

// The fund record lines of copy trading.
declareFundLines({
  copy_follow: { tw: '跟單凍結', en: 'Copy trade held' },
  copy_spend: { tw: '跟單下單', en: 'Copy order funds' },
  copy_return: { tw: '跟單退回', en: 'Copy order returned' },
  copy_release: { tw: '跟單釋放', en: 'Copy trade released' },
  copy_profit_share: { tw: '導師分潤', en: 'Mentor profit share' },
  copy_share_income: { tw: '分潤收入', en: 'Profit share income' },
});

export const copyTradeRoutes: FeatureRoute[] = [
  {
    path: 'gdindex/gdindex',
    zone: 'tabs',
    load: () => import('./HomePage'),
    tab: { key: 'copyTrade', order: 40, label: { tw: '跟單', en: 'Copy' }, icon: 'team' },
  },
  { path: 'gdindex/gdList', zone: 'session', load: () => import('./ListPage') },
  { path: 'gdindex/dsFllow', zone: 'session', load: () => import('./MentorPage') },
  { path: 'gdindex/dsFllowInfo', zone: 'session', load: () => import('./FollowInfoPage') },
  { path: 'gdindex/dsFllowRecord', zone: 'session', load: () => import('./RecordsPage') },
  { path: 'gdindex/rules', zone: 'session', load: () => import('./RulesPage') },
  {
    path: 'gdindex/mentor',
    zone: 'session',
    load: () => import('./MentorProfilePage'),
    entries: [{ place: 'mine', key: 'mentor', label: { tw: '成為導師', en: 'Become a mentor' }, roles: ['member'] }],
  },
];
