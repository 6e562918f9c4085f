// Issue 12's copy trading in one language, at the phone viewport: a mentor (through the API)
// opts in with a fund; the follower opens the copy-trade tab, finds the mentor in the list,
// follows it from its detail (a commitment below the minimum is caught on the form); the mentor
// buys (through the API, as the mentor); the mirrored order appears in the follower's follow,
// copied from the mentor, and in its orders; the mentor sells short and the follow copies it (or
// shows why the account refused); the follower stops, closing both at market.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { login, openApp, screen } from './flows.mjs';
import { call, memberWithBalance } from './api.mjs';
import { DEMO, freshMobile, nextResponse, openRoute, tid, useFixture, waitHash, waitText, waitToast } from './harness.mjs';

/** The texts these screens show, written out so that a wrong translation fails here. */
const C = {
  tw: { tab: '跟單', title: '跟單', below: '買入金額低於最低限額', started: '跟單成功', stopped: '已停止跟單', inProgress: '進行中', cancelled: '已取消',
    profitNow: '損益（含未實現）', profitSettled: '跟單收益' },
  en: { tab: 'Copy', title: 'Copy trade', below: 'Buy amount below minimum', started: 'Following', stopped: 'Follow stopped', inProgress: 'In progress', cancelled: 'Cancelled',
    profitNow: 'Profit (unrealised included)', profitSettled: 'Copy profit' },
};

export function copyTradeJourney(lang) {
  const X = C[lang];
  const mentor = { account: freshMobile(), password: 'Pass1234word' };
  const follower = { account: freshMobile(), password: 'Pass1234word' };
  const name = `Ann ${mentor.account.slice(-4)}`;
  const fx = useFixture({ phone: true });
  const demo = useFixture({ phone: true });

  test(`copy trade: the demo member sees the seeded mentors (${lang})`, { timeout: 120_000 }, async (t) => {
    const { page } = demo.phone;
    await demo.step(t, `${lang}-copytrade-demo`, page, async () => {
      await openApp(page, demo.server.base, lang);
      await tid(page, 'welcome-login').click();
      await login(page, lang, DEMO.member.account, DEMO.member.password);
      await openRoute(page, '/gdindex/gdList');
      const cards = tid(page, 'copy-mentor');
      await cards.first().waitFor();
      // The seeded mentors traded for real: their profit (after fees) is not zero.
      const figures = await cards.evaluateAll((els) => els.map((el) => el.querySelector('.num')?.textContent ?? ''));
      const nonZero = figures.filter((f) => /[1-9]/.test(f));
      assert.ok(nonZero.length >= 2, JSON.stringify(figures));
    });
  });

  test(`copy trade: follow, mirrored order, stop (${lang})`, { timeout: 180_000 }, async (t) => {
    const { page } = fx.phone;
    const step = (n, fn) => fx.step(t, `${lang}-copytrade-${n}`, page, fn);
    let mentorSession;
    let mentorId;
    let followId;

    await step('follow', async () => {
      mentorSession = await memberWithBalance(fx.server.base, mentor, ['1000000']);
      await call(fx.server.base, 'POST', '/api/vue/copytrade/profile', {
        session: mentorSession,
        body: { displayName: name, minAmount: '100000', windowDays: 30, profitShare: '10' },
      });
      await memberWithBalance(fx.server.base, follower, ['1000000']);
      await openApp(page, fx.server.base, lang);
      await tid(page, 'welcome-login').click();
      await login(page, lang, follower.account, follower.password);
      await waitText(tid(page, 'tab-copyTrade'), X.tab);
      await tid(page, 'tab-copyTrade').click();
      await waitHash(page, '/gdindex/gdindex');
      await tid(page, 'copy-summary').waitFor();
      await screen(page, lang, 'copytrade-01-home');

      await tid(page, 'copy-list-link').click();
      await waitHash(page, '/gdindex/gdList');
      const card = tid(page, 'copy-mentor').filter({ hasText: name });
      await card.waitFor();
      mentorId = await card.getAttribute('data-mentor-id');
      await screen(page, lang, 'copytrade-02-list');
      await card.click();
      await tid(page, 'copy-mentor-stats').waitFor();
      await waitText(tid(page, 'copy-min-amount'), '100,000.00');
      await screen(page, lang, 'copytrade-03-mentor');

      await tid(page, 'copy-follow-amount').fill('99999');
      await tid(page, 'copy-follow-submit').click();
      await waitText(tid(page, 'form-error'), X.below);
      await tid(page, 'copy-follow-amount').fill('1000000');
      const sent = nextResponse(page, 'POST', '/api/vue/copytrade/follows');
      await tid(page, 'copy-follow-submit').click();
      const res = await sent;
      assert.equal(res.status, 200, JSON.stringify(res.body));
      followId = res.body.data.followId;
      await waitToast(page, X.started);
      await waitHash(page, `/gdindex/dsFllowInfo?id=${followId}`);
      await page.locator(`[data-testid="copy-follow-detail"][data-state="in_progress"]`).waitFor();
      await waitText(tid(page, 'copy-follow-state'), X.inProgress);
    });

    await step('mirrored order', async () => {
      // The mentor trades through the API; the follow (same amount as the mentor's fund) copies it.
      const placed = await call(fx.server.base, 'POST', '/api/vue/trade/orders', {
        session: mentorSession,
        body: { symbol: '2603', direction: 'long', type: 'market', lots: 2 },
      });
      assert.ok(placed.filled > 0, JSON.stringify(placed));
      const order = tid(page, 'copy-order').first();
      await order.waitFor({ timeout: 20_000 });
      assert.equal(await order.getAttribute('data-side'), 'buy');
      await waitText(order.getByTestId('copy-order-origin'), new RegExp(`${name}$`));
      const orderNo = await order.getAttribute('data-order-no');
      // in progress, the profit shown is valued now: the open mirrored position at the last price
      await page.getByText(X.profitNow, { exact: true }).waitFor();
      await tid(page, 'copy-follow-unrealised').waitFor();
      await tid(page, 'copy-follow-share-estimate').waitFor();
      await screen(page, lang, 'copytrade-04-mirrored');
      // The same order is an ordinary one in the follower's account.
      const session = await call(fx.server.base, 'POST', '/api/vue/user/login', { body: follower });
      const orders = await call(fx.server.base, 'GET', '/api/vue/trade/orders?status=all', { session: { token: session.token, account: session.account } });
      assert.ok(orders.items.some((o) => o.orderNo === orderNo), JSON.stringify(orders));
    });

    await step('mirrored short', async () => {
      // The mentor sells short (融券): the follow sells short too when the follower may, or shows
      // why its account refused (a sale below the reference, say) with nothing else changed.
      const placed = await call(fx.server.base, 'POST', '/api/vue/trade/orders', {
        session: mentorSession,
        body: { symbol: '2603', direction: 'short', type: 'market', lots: 2, condition: 'short' },
      });
      assert.ok(placed.filled > 0, JSON.stringify(placed));
      const shown = page.locator('[data-testid="copy-position"][data-direction="short"], [data-testid="copy-refusal"][data-direction="short"]');
      await shown.first().waitFor({ timeout: 20_000 });
      await screen(page, lang, 'copytrade-04b-short');
    });

    await step('stop', async () => {
      await tid(page, 'copy-stop').click();
      const sent = nextResponse(page, 'POST', `/api/vue/copytrade/follows/${followId}/stop`);
      await tid(page, 'copy-stop-close').click();
      const res = await sent;
      assert.equal(res.status, 200, JSON.stringify(res.body));
      await waitToast(page, X.stopped);
      await page.locator(`[data-testid="copy-follow-detail"][data-state="cancelled"]`).waitFor();
      await waitText(tid(page, 'copy-follow-state'), X.cancelled);
      // stopped: the settled figures, no longer valued now
      await page.getByText(X.profitSettled, { exact: true }).waitFor();
      await tid(page, 'copy-follow-unrealised').waitFor({ state: 'detached' });
      // closing at market covered the mirrored short as well as it sold the long
      await tid(page, 'copy-position').first().waitFor({ state: 'detached' });
      await screen(page, lang, 'copytrade-05-stopped');
      await openRoute(page, '/gdindex/dsFllowRecord');
      await tid(page, 'copy-follow').and(page.locator(`[data-follow-id="${followId}"]`)).waitFor();
      assert.ok(mentorId);
    });
  });
}
