// Issue 5's trading journey at the phone viewport, in both languages: a member with a balance
// (deposits approved through the API) buys 1 lot of 2330 at market from the detail screen's buy
// button, sees it in holdings with live profit, closes it, sees the realised profit in the
// terminated tab and the fee and tax lines in fund records; an unfilled limit order shows under
// orders, never under holdings, and is cancelled there; a limit price outside the day's band
// is refused with the translated message. The demo market trades around the clock.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { login, openApp, screen } from './flows.mjs';
import { call, memberWithBalance } from './api.mjs';
import { dialogButton, freshMobile, newPhone, nextResponse, openRoute, tid, useFixture, waitHash, waitText } from './harness.mjs';

/** The texts these screens show, written out so that a wrong translation fails here. */
const X = {
  tw: { cancel: '撤單', place: '確認下單', band: /^價格須在 [\d,.]+ 與 [\d,.]+ 之間$/, close: '平倉', holding: '持倉中', closed: '已平倉', fee: '手續費', tax: '交易稅', trade: '交易' },
  en: { cancel: 'Cancel', place: 'Place order', band: /^The price must be between [\d,.]+ and [\d,.]+$/, close: 'Close', holding: 'Holding', closed: 'Closed', fee: 'Service fee', tax: 'Tax', trade: 'Trade' },
};
const MONEY = /^-?[\d,]+\.\d{2}$/;

const fx = useFixture();

for (const lang of ['tw', 'en']) {
  test(`buy 2330 at market, hold, close, fee and tax in fund records (${lang})`, { timeout: 180_000 }, async (t) => {
    const T = X[lang];
    const member = { account: freshMobile(), password: 'Pass1234word' };
    const { page, context } = await newPhone(fx.browser);
    const step = (name, fn) => fx.step(t, `${lang}-trade-${name}`, page, fn);
    try {
      await step('open the ticket from the detail screen', async () => {
        await memberWithBalance(fx.server.base, member, ['1000000', '1000000', '1000000']);
        await openApp(page, fx.server.base, lang);
        await tid(page, 'welcome-login').click();
        await login(page, lang, member.account, member.password);
        assert.ok(await tid(page, 'tab-trade').isVisible(), 'the trade tab is shown');
        await openRoute(page, '/market/marketDetail?symbol=2330');
        await tid(page, 'detail-buy').click();
        await waitHash(page, '/market/marketBuy?symbol=2330&side=buy');
        await tid(page, 'ticket-page').waitFor();
        await waitText(tid(page, 'ticket-available'), '3,000,000.00');
        await waitText(tid(page, 'est-marketValue'), MONEY);
        await screen(page, lang, 'trade-01-ticket');
      });

      await step('a limit price outside the band is refused', async () => {
        await tid(page, 'ticket-price').fill('9995');
        let sent = false;
        const watch = (r) => {
          if (r.method() === 'POST' && new URL(r.url()).pathname === '/api/vue/trade/orders') sent = true;
        };
        page.on('request', watch);
        await tid(page, 'ticket-submit').click();
        await waitText(tid(page, 'form-error'), T.band);
        page.off('request', watch);
        assert.equal(sent, false, 'nothing is sent');
        await screen(page, lang, 'trade-02-band-refused');
      });

      await step('buy 1 lot at market', async () => {
        await tid(page, 'ticket-market').click();
        await tid(page, 'ticket-qty').fill('1');
        await tid(page, 'ticket-submit').click();
        const placed = nextResponse(page, 'POST', '/api/vue/trade/orders');
        await dialogButton(page, T.place);
        const res = await placed;
        assert.equal(res.status, 200, JSON.stringify(res.body));
        assert.equal(res.body.data.status, 'filled', JSON.stringify(res.body));
        await waitHash(page, '/position/position');
      });

      await step('see it in holdings with live profit', async () => {
        const row = tid(page, 'position').filter({ has: page.locator('[data-testid=position-profit]') }).first();
        await row.waitFor();
        assert.equal(await row.getAttribute('data-symbol'), '2330');
        assert.equal(await row.getAttribute('data-status'), 'holding');
        await waitText(row.getByTestId('position-profit'), MONEY);
        await screen(page, lang, 'trade-03-holdings');
      });

      await step('close it', async () => {
        await tid(page, 'position-close').first().click();
        await page.getByTestId('close-qty').waitFor();
        const closed = nextResponse(page, 'POST', '/api/vue/trade/positions/');
        await dialogButton(page, T.close);
        const res = await closed;
        assert.equal(res.status, 200, JSON.stringify(res.body));
        await tid(page, 'pos-tab-terminated').click();
        const row = tid(page, 'closed-position').first();
        await row.waitFor();
        assert.equal(await row.getAttribute('data-status'), 'closed');
        await waitText(row.getByTestId('closed-profit'), MONEY);
        await screen(page, lang, 'trade-04-terminated');
      });

      await step('an unfilled limit order is under orders, never under holdings', async () => {
        // Bought at the day's limit-down price, it rests until the market falls that far.
        const session = await call(fx.server.base, 'POST', '/api/vue/user/login', { body: { account: member.account, password: member.password } });
        const q = await call(fx.server.base, 'GET', '/api/vue/market/stocks/2330');
        const placed = await call(fx.server.base, 'POST', '/api/vue/trade/orders', {
          session,
          body: { symbol: '2330', direction: 'long', type: 'limit', lots: 1, price: q.limitDown },
        });
        assert.equal(placed.status, 'pending', JSON.stringify(placed));
        // Placed from another session: load the screen afresh rather than from this tab's cache.
        await openRoute(page, '/position/position');
        await page.reload();
        await tid(page, 'pos-tab-holdings').click();
        await tid(page, 'pos-list-holdings').waitFor();
        await page.waitForLoadState('networkidle');
        assert.equal(await tid(page, 'pos-list-holdings').locator(`[data-id="${placed.positionId}"]`).count(), 0, 'the pending order is no holding');
        await tid(page, 'pos-tab-orders').click();
        const row = tid(page, 'order').and(page.locator(`[data-order-no="${placed.orderNo}"]`));
        await row.waitFor();
        assert.equal(await row.getAttribute('data-status'), 'pending');
        await row.getByTestId('order-cancel').click();
        const cancelled = nextResponse(page, 'POST', `/api/vue/trade/orders/${placed.orderNo}/cancel`);
        // The confirm button (bold): in English the kit's own dismiss button is also called Cancel.
        await page.locator('.adm-dialog-body .adm-dialog-button-bold').filter({ hasText: T.cancel }).filter({ visible: true }).click();
        assert.equal((await cancelled).status, 200);
        await row.waitFor({ state: 'detached' });
      });

      await step('day trading, margin notices and trading rules', async () => {
        await tid(page, 'to-day-trading').click();
        await waitHash(page, '/common/dayTrading');
        await waitText(tid(page, 'day-valuation'), MONEY);
        await screen(page, lang, 'trade-06-day-trading');
        await tid(page, 'day-submit').click();
        await waitHash(page, '/market/marketBuy?symbol=2330&dayTrade=1');
        assert.equal(await tid(page, 'ticket-cond-day_trade').getAttribute('aria-pressed'), 'true', 'the shortcut opens a day-trade ticket');
        await tid(page, 'ticket-rules').click();
        await waitHash(page, '/trade/rules');
        await waitText(tid(page, 'rule-commissionRate'), '0.1425 %');
        await screen(page, lang, 'trade-07-rules');
        await openRoute(page, '/trade/notices');
        await tid(page, 'notice-ratio').waitFor();
        await screen(page, lang, 'trade-08-notices');
      });

      await step('fee and tax in fund records', async () => {
        await openRoute(page, '/user/FundingDetails?tab=all');
        const list = tid(page, 'records-all');
        await list.waitFor();
        for (const [type, label] of [['fee', T.fee], ['tax', T.tax], ['trade', T.trade]]) {
          const rec = list.locator(`[data-testid=fund-record][data-type=${type}]`).first();
          await rec.waitFor();
          await waitText(rec.getByTestId('fund-record-type'), label);
        }
        await screen(page, lang, 'trade-05-fund-records');
      });
    } finally {
      await context.close();
    }
  });
}
