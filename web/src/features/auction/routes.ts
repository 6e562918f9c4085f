import { declareFundLines } from '@/lib/fundLines';
import { declarePositionTab } from '@/lib/positionTabs';
import type { FeatureRoute } from '@/lib/routes';

// The lines an auction writes in fund records.
declareFundLines({
  auction_deposit: { tw: '競拍保證金', en: 'Auction deposit' },
  auction_payment: { tw: '得標款（保證金抵繳）', en: 'Auction payment from deposit' },
  auction_balance: { tw: '得標補繳餘款', en: 'Auction balance' },
  auction_release: { tw: '退還保證金', en: 'Deposit released' },
  auction_forfeit: { tw: '保證金不退', en: 'Deposit forfeited' },
  auction_delivery: { tw: '競拍撥券', en: 'Auction shares delivered' },
});

// The positions screen's auction tab (lib/positionTabs.ts): bids, wins, deposits and payments.
declarePositionTab({ key: 'auction', label: { tw: '競拍', en: 'Auction' }, order: 20, load: () => import('./PositionTab') });

export const auctionRoutes: FeatureRoute[] = [
  {
    path: 'market/subscribeJp',
    zone: 'session',
    keepAlive: true,
    load: () => import('./AuctionListPage'),
    entries: [{ place: 'home', key: 'auction', label: { tw: '競價拍賣', en: 'IPO auction' }, roles: ['member'], icon: 'chart' }],
  },
  { path: 'market/subscribeDetailJp', zone: 'session', load: () => import('./AuctionDetailPage') },
  {
    path: 'market/subscribeJpRecord',
    zone: 'session',
    load: () => import('./AuctionRecordPage'),
    entries: [{ place: 'mine', key: 'auctionRecords', label: { tw: '競拍紀錄', en: 'Auction records' }, roles: ['member'] }],
  },
  {
    path: 'ops/auction',
    zone: 'ops',
    load: () => import('./OpsAuctionPage'),
    entries: [{ place: 'mine', key: 'opsAuction', label: { tw: '競價拍賣管理', en: 'IPO auctions' }, roles: ['ops'] }],
  },
  {
    path: 'audit/auction',
    zone: 'auditor',
    load: () => import('./AwardAuditPage'),
    entries: [{ place: 'mine', key: 'auditAuction', label: { tw: '開標驗證', en: 'Award verification' }, roles: ['auditor'] }],
  },
];
