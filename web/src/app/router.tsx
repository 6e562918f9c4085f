import { createHashRouter, Navigate, type RouteObject } from 'react-router-dom';
import { auditRoutes } from '@/features/audit/routes';
import { auctionRoutes } from '@/features/auction/routes';
import { authRoutes } from '@/features/auth/routes';
import { chatRoutes } from '@/features/chat/routes';
import { blockRoutes } from '@/features/block/routes';
import { dividendRoutes } from '@/features/dividend/routes';
import { copyTradeRoutes } from '@/features/copytrade/routes';
import { creditRoutes } from '@/features/credit/routes';
import { lendingRoutes } from '@/features/lending/routes';
import { quantRoutes } from '@/features/quant/routes';
import { chipGrabRoutes } from '@/features/chipgrab/routes';
import { couponRoutes } from '@/features/coupons/routes';
import { fundsRoutes } from '@/features/funds/routes';
import { homeRoutes } from '@/features/home/routes';
import { marketRoutes } from '@/features/market/routes';
import { newsRoutes } from '@/features/news/routes';
import { opsRoutes } from '@/features/ops/routes';
import { consoleRoutes } from '@/features/console/routes';
import { placementRoutes } from '@/features/placement/routes';
import { subscriptionRoutes } from '@/features/subscription/routes';
import { tradeRoutes } from '@/features/trade/routes';
import { userRoutes } from '@/features/user/routes';
import { walletRoutes } from '@/features/wallet/routes';
import { alertsRoutes } from '@/features/alerts/routes';
import { watchlistRoutes } from '@/features/watchlist/routes';
import { registerEntries } from '@/lib/entries';
import { registerTabs } from '@/lib/tabs';
import type { FeatureRoute, RouteZone } from '@/lib/routes';
import { antdReady, loadAntdLocale } from './antdReady';
import { FirstPaint } from './FirstPaint';
import { RequireRole, RequireSession } from './guards';
import { RouteError } from './Offline';
import { RootShell } from './RootShell';
import type { RouteHandle } from './routeHandle';

/** Every feature's screens: a feature lists its own in its routes.ts and is registered here once. */
export const featureRoutes: FeatureRoute[] = [
  ...authRoutes,
  ...homeRoutes,
  ...marketRoutes,
  ...tradeRoutes,
  ...fundsRoutes,
  ...userRoutes,
  ...opsRoutes,
  ...consoleRoutes,
  ...chatRoutes,
  ...auditRoutes,
  ...auctionRoutes,
  ...placementRoutes,
  ...blockRoutes,
  ...dividendRoutes,
  ...creditRoutes,
  ...quantRoutes,
  ...chipGrabRoutes,
  ...couponRoutes,
  ...newsRoutes,
  ...subscriptionRoutes,
  ...walletRoutes,
  ...lendingRoutes,
  ...watchlistRoutes,
  ...alertsRoutes,
  ...copyTradeRoutes,
];

// Home's shortcuts and mine's menu list what the features declare on their routes.
registerEntries(featureRoutes);
// The tab bar shows the tabs the features declare on their tab roots.
registerTabs(featureRoutes);

const keepAlive: RouteHandle = { keepAlive: true };

function handleFor(r: FeatureRoute): RouteHandle | undefined {
  if (!r.keepAlive && !r.visitors) return undefined;
  return r.visitors ? { ...(r.keepAlive ? keepAlive : {}), visitors: true } : keepAlive;
}

const loadTabsLayout = () => import('./TabsLayout');

/**
 * The chunks a screen's first render waits for: its own, the tab bar's for a tab screen, the kit's
 * locale for a kit screen. The build reads these to preload them from index.html when the address
 * is that screen's (scripts/firstPaint.ts), so they load beside the entry instead of after it.
 */
export function screenLoaders(r: FeatureRoute): Array<() => Promise<unknown>> {
  return [r.load, ...(r.zone === 'tabs' ? [loadTabsLayout] : []), ...(r.noKit ? [] : [loadAntdLocale])];
}

/** Every screen is its own chunk: the first route carries only the shell and the welcome page. */
function toRoute(r: FeatureRoute): RouteObject {
  const lazy = r.noKit
    ? async () => ({ Component: (await r.load()).default })
    : async () => {
        const [mod] = await Promise.all([r.load(), antdReady()]);
        return { Component: mod.default };
      };
  const handle = handleFor(r);
  return { path: r.path, ...(handle ? { handle } : {}), lazy };
}

function zone(z: RouteZone, from: FeatureRoute[]): RouteObject[] {
  return from.filter((r) => r.zone === z).map(toRoute);
}

export function buildRoutes(from: FeatureRoute[]): RouteObject[] {
  return [
    {
      path: '/',
      element: <RootShell />,
      // A screen's chunk that cannot be fetched (offline, issue 13 item 7) gets a clear state.
      errorElement: <RouteError />,
      // Shown while the first screen's chunk loads: index.html's first paint again, not a blank.
      hydrateFallbackElement: <FirstPaint />,
      children: [
        { index: true, element: <Navigate to="/login/start" replace /> },
        ...zone('public', from),
        {
          element: <RequireSession />,
          children: [
            { lazy: async () => ({ Component: (await loadTabsLayout()).TabsLayout }), children: zone('tabs', from) },
            ...zone('session', from),
            { element: <RequireRole role="ops" />, children: zone('ops', from) },
            { element: <RequireRole role="auditor" />, children: zone('auditor', from) },
          ],
        },
      ],
    },
  ];
}

export const routes = buildRoutes(featureRoutes);

export function makeRouter() {
  return createHashRouter(routes);
}
