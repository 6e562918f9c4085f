// Issue 14 items 2 and 3 in one language, at the phone viewport: a visitor (no login) opens the
// market list from the welcome page, searches, opens a stock, watches 分時 update, switches every
// K-line interval, reads 五檔 totals, 內外盤 and 成交明細 (which stream), taps 買進 and is asked to
// log in; after the login the order ticket opens.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { openApp, screen, submitLogin } from './flows.mjs';
import { memberWithBalance } from './api.mjs';
import { freshMobile, tid, useFixture, waitHash, waitText, waitToast } from './harness.mjs';
import { TEXTS } from './texts.mjs';

/** The texts these screens show, written out so that a wrong translation fails here. */
const S = {
  tw: {
    browse: '先逛逛行情',
    intraday: '分時',
    k: { '1m': '1分', '5m': '5分', '15m': '15分', '30m': '30分', '60m': '60分', '1d': '日K', '1w': '週K', '1M': '月K' },
    innerOuter: '內外盤',
    tape: '成交明細',
    buy: '買進',
    sell: '賣出',
  },
  en: {
    browse: 'Browse quotes without an account',
    intraday: 'Intraday',
    k: { '1m': '1m', '5m': '5m', '15m': '15m', '30m': '30m', '60m': '60m', '1d': 'Day', '1w': 'Week', '1M': 'Month' },
    innerOuter: 'Buy vs sell volume',
    tape: 'Time and sales',
    buy: 'Buy',
    sell: 'Sell',
  },
};

const LOTS = /^[\d,]+$/;

/** Boxes of the visible elements matching selector, in page coordinates. */
function boxes(page, selector) {
  return page.evaluate((sel) => {
    return [...document.querySelectorAll(sel)]
      .filter((el) => el.checkVisibility())
      .map((el) => {
        const r = el.getBoundingClientRect();
        return { left: r.left, right: r.right, top: r.top, bottom: r.bottom, text: el.textContent };
      });
  }, selector);
}

export function stockJourney(lang) {
  const X = S[lang];
  const member = { account: freshMobile(), password: 'Pass1234word' };
  const fx = useFixture({ phone: true });

  test(`stock screen for a visitor, login for the order ticket (${lang})`, { timeout: 240_000 }, async (t) => {
    const { page, pageErrors } = fx.phone;
    const step = (name, fn) => fx.step(t, `${lang}-stock-${name}`, page, fn);
    const member401 = [];
    page.on('response', (r) => {
      const p = new URL(r.url()).pathname;
      if (r.status() === 401 || (p.startsWith('/api/vue/user/') && !p.startsWith('/api/vue/user/log'))) member401.push(`${r.status()} ${p}`);
    });

    await step('a visitor opens the market list', async () => {
      await openApp(page, fx.server.base, lang);
      await waitText(tid(page, 'welcome-market'), X.browse);
      await tid(page, 'welcome-market').click();
      await waitHash(page, '/market/market');
      await tid(page, 'market-page').waitFor();
      await tid(page, 'quote-row').first().waitFor();
      assert.equal(await page.evaluate(() => localStorage.getItem('tokend')), null, 'no session');
      await screen(page, lang, 'stock-01-market-visitor');
    });

    await step('searches and opens a stock', async () => {
      await tid(page, 'market-search').click();
      await tid(page, 'search-page').waitFor();
      await tid(page, 'search-input').fill('2330');
      const row = page.locator('[data-testid=search-results][data-term="2330"] [data-testid=search-result][data-symbol="2330"]');
      await row.waitFor();
      await row.click();
      await waitHash(page, '/market/marketDetail?symbol=2330');
      await tid(page, 'detail-price').waitFor();
    });

    await step('分時 updates over a few seconds, its axis labels apart, the notice below the plot', async () => {
      await waitText(tid(page, 'interval-intraday'), X.intraday);
      const intraday = tid(page, 'intraday');
      await page.waitForFunction(() => document.querySelector('[data-testid=intraday]')?.getAttribute('data-last'), null, { timeout: 15_000 });
      const first = await intraday.getAttribute('data-last');
      await page.waitForFunction((was) => document.querySelector('[data-testid=intraday]')?.getAttribute('data-last') !== was, first, { timeout: 60_000 });
      await waitText(tid(page, 'intraday-avg'), /\d/);
      const labels = await boxes(page, '[data-testid=intraday-axis] .time-axis-label');
      assert.ok(labels.length >= 2, `axis labels: ${JSON.stringify(labels)}`);
      for (let i = 1; i < labels.length; i++) assert.ok(labels[i].left >= labels[i - 1].right, `axis labels overlap: ${JSON.stringify(labels)}`);
      const [plot] = await boxes(page, '[data-testid=chart]');
      const [notice] = await boxes(page, '[data-testid=chart-attribution]');
      assert.ok(notice.top >= plot.bottom, 'the chart notice sits below the plot');
      assert.equal(await page.locator('#tv-attr-logo, a[href*="tradingview.com"] svg').count(), 0, 'no logo over the plot');
      await screen(page, lang, 'stock-02-intraday');
    });

    await step('K lines at every interval with MA5/10/20', async () => {
      for (const [iv, label] of Object.entries(X.k)) {
        await waitText(tid(page, `interval-${iv}`), label);
        await tid(page, `interval-${iv}`).click();
        await page.locator(`[data-testid=chart][data-interval="${iv}"]`).filter({ visible: true }).waitFor();
        await waitText(tid(page, 'ma-5'), /^MA5 [\d.]+$/, 15_000);
        await waitText(tid(page, 'ma-20'), /^MA20 [\d.]+$/, 15_000);
        assert.equal(await tid(page, 'chart-empty').count(), 0, `${iv}: candles shown`);
        if (iv === '1d') await screen(page, lang, 'stock-03-k-day');
      }
    });

    await step('五檔 totals, 內外盤 and 成交明細 stream', async () => {
      await waitText(tid(page, 'bid-total'), LOTS);
      await waitText(tid(page, 'ask-total'), LOTS);
      await waitText(tid(page, 'inner-outer').locator('.section-title'), X.innerOuter);
      await waitText(tid(page, 'tape').locator('.section-title'), X.tape);
      await waitText(tid(page, 'outer-volume'), LOTS);
      await waitText(tid(page, 'inner-volume'), LOTS);
      await waitText(tid(page, 'outer-ratio'), /^[\d.]+% : [\d.]+%$/);
      const before = await tid(page, 'tape-row').count();
      assert.ok(before > 0, 'the tape has rows');
      await screen(page, lang, 'stock-04-book-tape');
      const firstRow = await tid(page, 'tape-row').first().innerText();
      await page.waitForFunction(
        (was) => document.querySelector('[data-testid=tape-row]')?.innerText !== was,
        firstRow,
        { timeout: 30_000 },
      );
      const tick = await tid(page, 'tape-row').first().getAttribute('data-tick');
      assert.match(tick, /^(up|down|flat)$/);
    });

    await step('買進 asks a visitor to log in, then opens the order ticket', async () => {
      await waitText(tid(page, 'detail-sell'), X.sell);
      await waitText(tid(page, 'detail-buy'), X.buy);
      const bar = (await boxes(page, '[data-testid=trade-bar]'))[0];
      assert.ok(bar && Math.abs(bar.bottom - (await page.evaluate(() => innerHeight))) < 2, 'the trade bar sticks to the bottom');
      await tid(page, 'detail-buy').click();
      await waitHash(page, '/login/login');
      await tid(page, 'login-form').waitFor();
      await memberWithBalance(fx.server.base, member, ['100000']);
      const res = await submitLogin(page, member.account, member.password);
      assert.equal(res.status, 200);
      await waitToast(page, TEXTS[lang].loginSuccess);
      await waitHash(page, '/market/marketBuy?symbol=2330&side=buy');
      await tid(page, 'ticket-page').waitFor();
      await screen(page, lang, 'stock-05-ticket-after-login');
    });

    await step('a visitor reached no member data', async () => {
      const before = member401.filter((x) => !x.includes('/login'));
      // Only what the login itself and the ticket asked after it (with the session) is allowed.
      assert.ok(!before.some((x) => x.startsWith('401')), `member calls refused to the visitor: ${before.join(', ')}`);
      assert.deepEqual(pageErrors, []);
    });
  });
}
