import type { FeatureRoute } from '@/lib/routes';

export const tradeRoutes: FeatureRoute[] = [
  { path: 'position/position', zone: 'tabs', keepAlive: true, load: () => import('./PositionPage') },
  { path: 'market/marketBuy', zone: 'session', load: () => import('./OrderTicketPage') },
  { path: 'position/positionDetail', zone: 'session', load: () => import('./PositionDetailPage') },
  { path: 'trade/rules', zone: 'session', load: () => import('./TradeRulesPage') },
  { path: 'trade/notices', zone: 'session', load: () => import('./NoticesPage') },
  { path: 'common/dayTrading', zone: 'session', load: () => import('./DayTradingPage') },
];
