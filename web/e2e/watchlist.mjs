// Issue 14 item 4 in one language, at the phone viewport, against the real server: a member
// makes a watchlist group, adds stocks to it and to the default group at once, moves one up and
// pins another; sets a price alert that the market has already crossed, sees it fire live (a
// toast over the socket, the unread count) and reads the notification; buys a board lot and sees
// the 庫存 summary on the positions screen.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { login, openApp, screen } from './flows.mjs';
import { call, memberWithBalance } from './api.mjs';
import { freshMobile, nextResponse, openRoute, tid, useFixture, waitHash, waitText, waitToast } from './harness.mjs';

/** The texts these screens show, written out so that a wrong translation fails here. */
const W = {
  tw: {
    menu: '自選群組',
    alertsMenu: '到價提醒',
    nameExists: '已有同名群組',
    alertSet: '已設定提醒',
    pushed: '到價提醒：',
    unread: '1 則未讀',
    read: '0 則未讀',
    triggered: '已觸發',
    summary: '庫存總覽',
  },
  en: {
    menu: 'Watchlist groups',
    alertsMenu: 'Price alerts',
    nameExists: 'You already have a group with this name',
    alertSet: 'Alert set',
    pushed: 'Price alert:',
    unread: '1 unread',
    read: '0 unread',
    triggered: 'Triggered',
    summary: 'Holdings summary',
  },
};

async function order(page) {
  return page.locator('[data-testid=wl-row]').evaluateAll((rows) => rows.map((r) => r.dataset.symbol + (r.dataset.pinned === 'true' ? '*' : '')).join(' '));
}

async function waitOrder(page, want) {
  await page.waitForFunction(
    (w) => [...document.querySelectorAll('[data-testid=wl-row]')].map((r) => r.dataset.symbol + (r.dataset.pinned === 'true' ? '*' : '')).join(' ') === w,
    want,
    { timeout: 10_000 },
  ).catch(async () => assert.fail(`order ${await order(page)}, want ${want}`));
}

export function watchlistJourney(lang) {
  const X = W[lang];
  const member = { account: freshMobile(), password: 'Pass1234word' };
  const fx = useFixture({ phone: true });
  let session;

  test(`watchlist groups, price alerts, holdings summary (${lang})`, { timeout: 240_000 }, async (t) => {
    const { page } = fx.phone;
    const step = (name, fn) => fx.step(t, `${lang}-watchlist-${name}`, page, fn);
    const base = fx.server.base;

    await step('groups', async () => {
      session = await memberWithBalance(base, member, ['500000']);
      await openApp(page, base, lang);
      await tid(page, 'welcome-login').click();
      await login(page, lang, member.account, member.password);
      await openRoute(page, '/user/usercenter');
      await waitText(tid(page, 'menu-watchlists'), X.menu);
      await tid(page, 'menu-watchlists').click();
      await waitHash(page, '/market/watchlists');

      // A new group; the same name again is refused with a translated message.
      const name = lang === 'en' ? 'Chips' : '半導體';
      await tid(page, 'wl-create-input').fill(name);
      let sent = nextResponse(page, 'POST', '/api/vue/user/watchlists');
      await tid(page, 'wl-create-submit').click();
      const created = await sent;
      assert.equal(created.status, 200, JSON.stringify(created.body));
      const groupId = created.body.data.groupId;
      await page.locator(`[data-testid=wl-group][data-id="${groupId}"][aria-selected=true]`).waitFor();
      await tid(page, 'wl-create-input').fill(name);
      await tid(page, 'wl-create-submit').click();
      await waitToast(page, X.nameExists);

      // Three stocks, the first also into the default group.
      for (const [i, sym] of ['2330', '2317', '0050'].entries()) {
        await tid(page, 'wl-add-input').fill(sym);
        if (i === 0) await tid(page, 'wl-also-default').check();
        sent = nextResponse(page, 'POST', `/api/vue/user/watchlists/${groupId}/symbols`);
        await tid(page, 'wl-add-submit').click();
        assert.equal((await sent).status, 200);
        if (i === 0) await tid(page, 'wl-also-default').uncheck();
      }
      await waitOrder(page, '2330 2317 0050');
      // Move 0050 up, pin 2317.
      await page.locator('[data-testid=wl-row][data-symbol="0050"] [data-testid=wl-up]').click();
      await waitOrder(page, '2330 0050 2317');
      await page.locator('[data-testid=wl-row][data-symbol="2317"] [data-testid=wl-pin]').click();
      await waitOrder(page, '2317* 2330 0050');
      await screen(page, lang, 'watchlist-01-group');
      await page.locator('[data-testid=wl-group][data-id=default]').click();
      await waitOrder(page, '2330');
      const favs = await call(base, 'POST', '/api/vue/user/Optionallist', { session, body: { type: 'all' } });
      assert.deepEqual(favs.map((q) => q.symbol), ['2330']);
    });

    await step('alert fires', async () => {
      const q = await call(base, 'GET', '/api/vue/market/stocks/2330');
      // At or below a level above the last price: crossed already, so it fires at the next check.
      const level = (Math.ceil(Number(q.price) * 1.05 * 100) / 100).toFixed(2);
      await openRoute(page, '/user/usercenter');
      await waitText(tid(page, 'menu-alerts'), X.alertsMenu);
      await tid(page, 'menu-alerts').click();
      await waitHash(page, '/user/alerts');
      await tid(page, 'alert-symbol').fill('2330');
      await tid(page, 'alert-kind-price_below').click();
      await tid(page, 'alert-value').fill(level);
      const sent = nextResponse(page, 'POST', '/api/vue/alerts');
      await tid(page, 'alert-submit').click();
      const res = await sent;
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const id = res.body.data.alertId;
      // The confirmation, unless the next check fired the alert at once and its toast replaced it.
      await page.locator('.adm-toast-main').filter({ hasText: new RegExp(`${X.alertSet}|${X.pushed}`) }).first().waitFor({ timeout: 5000 });
      // Fired at the next check: pushed over the socket (a toast) and shown triggered.
      const pushed = page.locator('.adm-toast-main').filter({ hasText: X.pushed }).first().waitFor({ timeout: 20_000 });
      const item = page.locator(`[data-testid=alert][data-id="${id}"]`);
      await page.waitForFunction((i) => document.querySelector(`[data-testid=alert][data-id="${i}"]`)?.getAttribute('data-status') === 'triggered', id, { timeout: 20_000 });
      await pushed;
      await waitText(item.getByTestId('alert-status'), X.triggered);
      await waitText(tid(page, 'alert-unread'), '1');
      await screen(page, lang, 'watchlist-02-alert-fired', { toasts: true });
      await tid(page, 'to-notifications').click();
      await waitHash(page, '/user/notifications');
      await waitText(tid(page, 'notifications-unread'), X.unread);
      await page.locator(`[data-testid=notification][data-id="${id}"][data-unread=true]`).waitFor();
      await screen(page, lang, 'watchlist-03-notifications');
      await tid(page, 'notifications-read').click();
      await waitText(tid(page, 'notifications-unread'), X.read);
    });

    await step('holdings summary', async () => {
      // A board lot of a cheap stock at market: the demo market trades around the clock.
      const list = await call(base, 'GET', '/api/vue/market/stocks?tab=all&type=stock&page=1&size=50');
      const cheap = list.items.filter((s) => Number(s.price) > 0 && Number(s.price) < 300 && s.price !== s.limitUp).sort((a, b) => Number(a.price) - Number(b.price))[0];
      assert.ok(cheap, 'a stock under NT$300');
      await call(base, 'POST', '/api/vue/trade/orders', { session, body: { symbol: cheap.symbol, direction: 'long', type: 'market', lots: 1 } });
      const deadline = Date.now() + 30_000;
      for (;;) {
        const ps = await call(base, 'GET', '/api/vue/trade/positions?status=holding', { session });
        if (ps.items.length > 0) break;
        assert.ok(Date.now() < deadline, 'the market order did not fill');
        await new Promise((r) => setTimeout(r, 500));
      }
      await openRoute(page, '/position/position');
      await tid(page, 'pos-tab-holdings').click();
      await tid(page, 'holdings-summary').waitFor();
      await waitText(tid(page, 'holdings-summary').locator('.pos-summary-title'), X.summary);
      const s = await call(base, 'GET', '/api/vue/trade/holdingsSummary', { session });
      assert.equal(s.positions, 1);
      assert.ok(Number(s.marketValue) > 0 && Number(s.cost) > 0, JSON.stringify(s));
      const mv = await tid(page, 'summary-market-value').innerText();
      assert.ok(mv.replaceAll(',', '').length > 0);
      await screen(page, lang, 'watchlist-04-summary');
    });
  });
}
