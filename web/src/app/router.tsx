import { createHashRouter, Navigate, type RouteObject } from 'react-router-dom';
import { antdReady } from './antdReady';
import { RequireRole, RequireSession } from './guards';
import { RootShell } from './RootShell';
import type { RouteHandle } from './routeHandle';

type PageModule = { default: React.ComponentType };

/** Every screen is its own chunk: the first route carries only the shell and the welcome page. */
const page = (load: () => Promise<PageModule>) => async () => {
  const [mod] = await Promise.all([load(), antdReady()]);
  return { Component: mod.default };
};
const keepAlive: RouteHandle = { keepAlive: true };

export const routes: RouteObject[] = [
  {
    path: '/',
    element: <RootShell />,
    // Shown while the first screen's chunk loads: the page colour, no layout to jump.
    hydrateFallbackElement: <div className="boot" />,
    children: [
      { index: true, element: <Navigate to="/login/start" replace /> },
      // The welcome page uses no kit component, so it does not wait for the kit's locale.
      { path: 'login/start', lazy: async () => ({ Component: (await import('@/features/auth/StartPage')).default }) },
      { path: 'login/login', lazy: page(() => import('@/features/auth/LoginPage')) },
      { path: 'login/register', lazy: page(() => import('@/features/auth/RegisterPage')) },
      { path: 'user/language', lazy: page(() => import('@/features/user/LanguagePage')) },
      { path: 'user/agreement', lazy: page(() => import('@/features/user/AgreementPage')) },
      { path: 'user/aboutUs', lazy: page(() => import('@/features/user/AboutUsPage')) },
      {
        element: <RequireSession />,
        children: [
          {
            lazy: async () => ({ Component: (await import('./TabsLayout')).TabsLayout }),
            children: [
              { path: 'home/index', handle: keepAlive, lazy: page(() => import('@/features/home/HomePage')) },
              { path: 'market/market', handle: keepAlive, lazy: page(() => import('@/features/market/MarketPage')) },
              { path: 'position/position', handle: keepAlive, lazy: page(() => import('@/features/trade/PositionPage')) },
              { path: 'user/usercenter', lazy: page(() => import('@/features/user/UserCenterPage')) },
            ],
          },
          { path: 'market/stockHot/stockList', lazy: page(() => import('@/features/market/HotListPage')) },
          { path: 'market/marketDetail', lazy: page(() => import('@/features/market/DetailPage')) },
          { path: 'market/marketBuy', lazy: page(() => import('@/features/trade/OrderTicketPage')) },
          { path: 'position/positionDetail', lazy: page(() => import('@/features/trade/PositionDetailPage')) },
          { path: 'trade/rules', lazy: page(() => import('@/features/trade/TradeRulesPage')) },
          { path: 'trade/notices', lazy: page(() => import('@/features/trade/NoticesPage')) },
          { path: 'common/dayTrading', lazy: page(() => import('@/features/trade/DayTradingPage')) },
          { path: 'market/favo', handle: keepAlive, lazy: page(() => import('@/features/market/FavoritesPage')) },
          { path: 'home/search', lazy: page(() => import('@/features/market/SearchPage')) },
          { path: 'home/searchIndex', lazy: page(() => import('@/features/market/SearchPage')) },
          { path: 'home/etf', handle: keepAlive, lazy: page(() => import('@/features/market/EtfPage')) },
          { path: 'user/setting', lazy: page(() => import('@/features/user/SettingPage')) },
          { path: 'user/loginPassword', lazy: page(() => import('@/features/user/LoginPasswordPage')) },
          { path: 'user/setPassword', lazy: page(() => import('@/features/user/SetPasswordPage')) },
          { path: 'user/recharge', lazy: page(() => import('@/features/funds/RechargePage')) },
          { path: 'user/rechargeChannel', lazy: page(() => import('@/features/funds/RechargeChannelPage')) },
          { path: 'user/FundingDetails', handle: keepAlive, lazy: page(() => import('@/features/funds/FundingDetailsPage')) },
          { path: 'user/withdraw', lazy: page(() => import('@/features/funds/WithdrawPage')) },
          { path: 'user/exchange', lazy: page(() => import('@/features/funds/ExchangePage')) },
          { path: 'user/bandCard', lazy: page(() => import('@/features/user/RealNamePage')) },
          { path: 'user/BankCard', lazy: page(() => import('@/features/user/BankCardPage')) },
          { path: 'user/WithCard', lazy: page(() => import('@/features/user/WithCardPage')) },
          { path: 'user/creditRule', lazy: page(() => import('@/features/user/CreditRulePage')) },
          {
            element: <RequireRole role="ops" />,
            children: [
              { path: 'ops/deposits', lazy: page(() => import('@/features/ops/DepositReviewPage')) },
              { path: 'ops/realname', lazy: page(() => import('@/features/ops/RealNameReviewPage')) },
              { path: 'ops/withdrawals', lazy: page(() => import('@/features/ops/WithdrawalReviewPage')) },
            ],
          },
          {
            element: <RequireRole role="auditor" />,
            children: [{ path: 'audit/timeline', lazy: page(() => import('@/features/audit/TimelinePage')) }],
          },
        ],
      },
      { path: '*', lazy: page(() => import('@/features/home/NotFoundPage')) },
    ],
  },
];

export function makeRouter() {
  return createHashRouter(routes);
}
