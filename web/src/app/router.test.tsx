import { isValidElement } from 'react';
import type { RouteObject } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { RequireRole, RequireSession } from './guards';
import { handleOf } from './routeHandle';
import { tabs } from '@/lib/tabs';
import { buildRoutes, featureRoutes, routes } from './router';

/** Each screen's path with the guards and frame around it, and whether it is kept alive. */
function flatten(list: RouteObject[], around: string[] = []): string[] {
  return list.flatMap((r) => {
    const here = [...around];
    if (isValidElement(r.element) && r.element.type === RequireSession) here.push('session');
    if (isValidElement(r.element) && r.element.type === RequireRole) here.push((r.element.props as { role: string }).role);
    if (!r.path && !r.element && !r.index && r.lazy) here.push('tabs');
    const self = r.path && r.path !== '/' ? [`${r.path} [${here.join(' ')}]${handleOf(r.handle).keepAlive ? ' keepAlive' : ''}`] : [];
    return [...self, ...flatten(r.children ?? [], here)];
  });
}

describe('router', () => {
  it('puts every feature screen in its zone, as the hand-written router did', () => {
    // The tree before the features registered their own routes (issue 10), path by path, and the routes added since.
    const before = [
      'login/start []', 'login/login []', 'login/register []', 'user/language []', 'user/agreement []', 'user/aboutUs []',
      'home/index [session tabs] keepAlive', 'market/market [session tabs] keepAlive', 'position/position [session tabs] keepAlive', 'user/usercenter [session tabs]',
      'market/stockHot/stockList [session]', 'market/marketDetail [session]', 'market/marketBuy [session]', 'position/positionDetail [session]',
      'trade/rules [session]', 'trade/notices [session]', 'common/dayTrading [session]', 'market/favo [session] keepAlive', 'home/search [session]',
      'home/searchIndex [session]', 'home/etf [session] keepAlive', 'user/setting [session]', 'user/loginPassword [session]', 'user/setPassword [session]',
      'user/recharge [session]', 'user/rechargeChannel [session]', 'user/FundingDetails [session tabs] keepAlive', 'user/withdraw [session]', 'user/exchange [session]',
      'user/bandCard [session]', 'user/BankCard [session]', 'user/WithCard [session]', 'user/creditRule [session]',
      'ops/deposits [session ops]', 'ops/realname [session ops]', 'ops/withdrawals [session ops]', 'audit/timeline [session auditor]', '* []',
      // added since
      'chat [session]', 'ops/chats [session ops]', 'ops/chats/:account [session ops]',
      // issue 11: the auction
      'market/subscribeJp [session] keepAlive', 'market/subscribeDetailJp [session]', 'market/subscribeJpRecord [session]', 'ops/auction [session ops]', 'audit/auction [session auditor]',
      // issue 11: the placement
      'market/subscribe1 [session] keepAlive', 'market/subscribe1Record [session]', 'ops/placement [session ops]', 'audit/placement [session auditor]',
      // issue 11: block trading
      'block/list [session]', 'block/records [session]', 'block/rules [session]', 'ops/block [session ops]', 'ops/blockApplications [session ops]',
      // issue 11: chip grabbing
      'chipgrab/list [session]', 'chipgrab/records [session]', 'ops/chipgrab [session ops]',
      // issue 11: the new-share subscription
      'market/subscribe [session] keepAlive', 'market/subscribeDetail [session]', 'market/subscribeRecord [session]', 'ops/subscription [session ops]',
      'audit/subscription [session auditor]',
    ];
    // Screens of capabilities added since, each in its zone.
    const added = [
      'home/moreNews [session tabs] keepAlive', 'home/DetailsPage [session]', 'home/notice [session]', 'home/noticeDetail [session]',
      'ops/news [session ops]', 'ops/newsEdit [session ops]',
      // issue 13: the ops console
      'ops/console [session ops]', 'ops/channels [session ops]', 'ops/invites [session ops]', 'ops/texts [session ops]',
      'ops/members [session ops]', 'ops/changes [session ops]',
      // issue 13: dividends
      'common/dividend [session]', 'common/dividendInfo [session]', 'common/dividend2 [session]', 'common/dividend3 [session]',
      'common/dividendOrder [session]',
      'home/coupons [session]', 'ops/coupons [session ops]',
      // issue 12: credit loans and seat accounts
      'credit/borrow [session]', 'user/jkjl [session]', 'ops/credit/loans [session ops]', 'ops/credit/seats [session ops]',
      // issue 12: AI quant
      'quant/list [session]', 'quant/product [session]', 'quant/mine [session]',
      // issue 12 item 6, issue 13 item 6: the trading hub, the wallet, the statement, login by phone and by ID number
      'trading/trading [session tabs]', 'wallet/index [session]', 'user/pj [session]', 'login/logon []', 'login/logon2 []',
      // issue 12 item 2: stock lending
      'lending [session]', 'lending/records [session]', 'ops/lending [session ops]',
      // issue 14 item 4: watchlist groups, price alerts and their notifications
      'market/watchlists [session]', 'user/alerts [session]', 'user/notifications [session]',
      // issue 12 item 3: copy trading of mentors
      'gdindex/gdindex [session tabs]', 'gdindex/gdList [session]', 'gdindex/dsFllow [session]', 'gdindex/dsFllowInfo [session]',
      'gdindex/dsFllowRecord [session]', 'gdindex/rules [session]', 'gdindex/mentor [session]',
      // issue 12 item 1: additional credit margin
      'trade/topUp [session]',
    ];
    expect(flatten(routes).sort()).toEqual([...before, ...added].sort());
  });

  it('shows the tabs the features declare, in the spec order, each a tab root', () => {
    // Copy trading (issue 12 item 3) adds its tab when it exists: home, trade, market, copy-trade, mine, news, fund records.
    expect(tabs().map((t) => `${t.key} ${t.path}`)).toEqual([
      'home /home/index',
      'trade /trading/trading',
      'market /market/market',
      'copyTrade /gdindex/gdindex',
      'mine /user/usercenter',
      'news /home/moreNews',
      'records /user/FundingDetails',
    ]);
    const tabsZone = new Set(featureRoutes.filter((r) => r.zone === 'tabs').map((r) => `/${r.path}`));
    for (const t of tabs()) expect(tabsZone.has(t.path)).toBe(true);
  });

  it('registers each path once', () => {
    const paths = featureRoutes.map((r) => r.path);
    expect(paths.filter((p, i) => paths.indexOf(p) !== i)).toEqual([]);
  });

  it('loads a screen that declares no kit component without waiting for the kit', async () => {
    const Page = () => null;
    const [root] = buildRoutes([{ path: 'x/y', zone: 'public', noKit: true, load: async () => ({ default: Page }) }]);
    const route = root?.children?.find((r) => r.path === 'x/y');
    const lazy = route?.lazy as (() => Promise<{ Component: unknown }>) | undefined;
    expect((await lazy?.())?.Component).toBe(Page);
  });
});

describe('position tabs', () => {
  it('puts the tabs the offering features declare in the spec order around trade own', async () => {
    const { positionTabs } = await import('@/lib/positionTabs');
    expect(featureRoutes.length).toBeGreaterThan(0); // the features' routes.ts are loaded with the router
    // The spec: chip bidding, auction, ETF, holdings, terminated, placement, orders (trade's own at 30, 40, 50, 70).
    expect(positionTabs('en').map((t) => `${t.order} ${t.key} ${t.text}`)).toEqual(['10 chipgrab Chip bidding', '20 auction Auction', '60 placement Placement']);
    expect(positionTabs('tw').map((t) => t.text)).toEqual(['搶籌', '競拍', '配售']);
  });
});

describe('visitors (issue 14 item 3)', () => {
  it('open the market screens without a session, and nothing else of the session zones', () => {
    const open = featureRoutes.filter((r) => r.visitors).map((r) => `${r.path} ${r.zone}`);
    expect(open.sort()).toEqual(
      ['home/etf session', 'home/search session', 'home/searchIndex session', 'market/marketDetail session', 'market/market tabs', 'market/stockHot/stockList session'].sort(),
    );
    const flat = (list: RouteObject[]): RouteObject[] => list.flatMap((r) => [r, ...flat(r.children ?? [])]);
    for (const r of flat(routes)) {
      const visitors = handleOf(r.handle).visitors === true;
      expect(visitors, `/${r.path}`).toBe(open.some((o) => o.startsWith(`${r.path} `)));
    }
  });
});
