import { declareFundLines } from '@/lib/fundLines';
import type { FeatureRoute } from '@/lib/routes';

// The fund record lines of block trades: an application's frozen amount, and what a decision gives back.
declareFundLines({
  block: { tw: '大宗申購凍結', en: 'Block trade frozen' },
  unfreeze: { tw: '解凍', en: 'Unfrozen' },
});

const blocks = { tw: '鉅額交易管理', en: 'Block trades' };

export const blockRoutes: FeatureRoute[] = [
  {
    path: 'block/list',
    zone: 'session',
    load: () => import('./BlockListPage'),
    entries: [{ place: 'home', key: 'blockBidding', label: { tw: '大宗競價', en: 'Block bidding' }, roles: ['member'], icon: 'folder' }],
  },
  { path: 'block/records', zone: 'session', load: () => import('./BlockRecordsPage') },
  { path: 'block/rules', zone: 'session', load: () => import('./BlockRulesPage') },
  {
    path: 'ops/block',
    zone: 'ops',
    load: () => import('./OpsBlockPage'),
    entries: [
      { place: 'home', key: 'opsBlock', label: blocks, roles: ['ops'], icon: 'folder' },
      { place: 'mine', key: 'ops-block', label: blocks, roles: ['ops'] },
    ],
  },
  {
    path: 'ops/blockApplications',
    zone: 'ops',
    load: () => import('./OpsBlockApplicationsPage'),
    entries: [{ place: 'mine', key: 'ops-block-applications', label: { tw: '大宗申購審核', en: 'Block applications' }, roles: ['ops'] }],
  },
];
