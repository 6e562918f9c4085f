import { declareFundLines } from '@/lib/fundLines';
import type { FeatureRoute } from '@/lib/routes';

// The lines a fill writes in fund records.
declareFundLines({
  trade: { tw: '交易', en: 'Trade' },
  fee: { tw: '手續費', en: 'Service fee' },
  tax: { tw: '交易稅', en: 'Tax' },
  financing: { tw: '融資', en: 'Financing' },
  collateral: { tw: '擔保品', en: 'Collateral' },
});

// Additional credit margin: cash put into a margin position.
declareFundLines({ margin_top_up: { tw: '追繳保證金', en: 'Additional margin' } });

export const tradeRoutes: FeatureRoute[] = [
  {
    path: 'trading/trading',
    zone: 'tabs',
    load: () => import('./TradingHubPage'),
    tab: { key: 'trade', order: 20, label: { tw: '交易', en: 'Trade' }, icon: 'trade' },
    // The order box: today's orders and fills with quick order entry (the trading hub).
    entries: [{ place: 'home', key: 'orderBox', label: { tw: '委託盒', en: 'Order box' }, roles: ['member'], icon: 'folder' }],
  },
  { path: 'position/position', zone: 'tabs', keepAlive: true, load: () => import('./PositionPage') },
  { path: 'market/marketBuy', zone: 'session', load: () => import('./OrderTicketPage') },
  { path: 'position/positionDetail', zone: 'session', load: () => import('./PositionDetailPage') },
  { path: 'trade/rules', zone: 'session', load: () => import('./TradeRulesPage') },
  { path: 'trade/notices', zone: 'session', load: () => import('./NoticesPage') },
  {
    path: 'common/dayTrading',
    zone: 'session',
    load: () => import('./DayTradingPage'),
    // Today's day trades, with the order ticket preset to day trading.
    entries: [{ place: 'home', key: 'dayTrading', label: { tw: '當沖', en: 'Day trading' }, roles: ['member'], icon: 'chart' }],
  },
  { path: 'trade/topUp', zone: 'session', load: () => import('./TopUpPage') },
];
