// The market screens of issue 4 against the real server (demo market, trading around the clock),
// in both languages at the phone viewport: the market list and its tabs, 2330's detail with the
// chart canvas, an interval switch and a change pushed over the socket, favourites added and
// removed, search by code, by 台積電 and by TSMC with the history kept.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { login, openApp, screen } from './flows.mjs';
import { DEMO, newPhone, openRoute, setup, shot, tid, waitHash, waitText } from './harness.mjs';

// Written out, not imported from the app: a wrong translation fails here.
const T = {
  tw: { gainers: '漲幅榜', losers: '跌幅榜', tsmc: '台積電', lots: /^[\d,]+ 張$/, added: '已加入自選', removed: '已移除自選', favoEmpty: '尚未加入自選股', tabMarket: '行情' },
  en: { gainers: 'Gainers', losers: 'Losers', tsmc: 'Taiwan Semiconductor Manufacturing', lots: /^[\d,]+ lots$/, added: 'Added to favourites', removed: 'Removed from favourites', favoEmpty: 'No favourites yet', tabMarket: 'Market' },
};

let fx;
before(async () => {
  fx = await setup();
});
after(async () => {
  await fx?.teardown();
});

/** Polls a condition on recorded frames (they arrive on their own, not through the DOM). */
async function until(cond, what, timeout = 5000) {
  const deadline = Date.now() + timeout;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting: ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The change percents shown in the visible list, as numbers. */
const percents = (page) => tid(page, 'quote-percent').evaluateAll((els) => els.map((e) => Number(e.textContent.replace('%', ''))));

/** Every symbol the page asked the socket for (the app's frames, recorded by Playwright). */
function socketFrames(page) {
  const sent = [];
  const received = [];
  page.on('websocket', (ws) => {
    if (!ws.url().endsWith('/api/vue/ws')) return;
    ws.on('framesent', (f) => sent.push(JSON.parse(String(f.payload))));
    ws.on('framereceived', (f) => received.push(JSON.parse(String(f.payload))));
  });
  return { sent, received };
}

for (const lang of ['tw', 'en']) {
  test(`market screens (${lang})`, { timeout: 150_000 }, async (t) => {
    const L = T[lang];
    const phone = await newPhone(fx.browser);
    const { page } = phone;
    const frames = socketFrames(page);
    const step = (name, fn) => fx.step(t, `market-${lang}-${name}`, page, fn);

    await step('home shows the indices and the hot list', async () => {
      await openApp(page, fx.server.base, lang);
      await openRoute(page, '/login/login');
      await login(page, lang, DEMO.member.account, DEMO.member.password);
      await waitText(tid(page, 'index-TAIEX').getByTestId('index-value'), /^[\d,]+\.\d\d$/);
      await tid(page, 'index-TPEX').waitFor();
      assert.ok((await tid(page, 'home-hot').getByTestId('quote-row').count()) >= 5, 'hot list on home');
      await waitText(tid(page, 'tab-market'), L.tabMarket);
      await screen(page, lang, 'market-01-home');
    });

    await step('market list, tabs and the OTC switch', async () => {
      await tid(page, 'tab-market').click();
      await waitHash(page, '/market/market');
      await tid(page, 'quote-list-all').getByTestId('quote-row').first().waitFor();
      assert.match(await tid(page, 'tab-market').getAttribute('class'), /\bnavActive\b/);
      // Home is kept alive but hidden: it let go of its live symbols.
      await until(() => frames.sent.some((m) => m.op === 'unsubscribe' && m.symbols.includes('TAIEX')), 'hidden home unsubscribes the indices');
      // Taiwan colours: a rising row is red (up), a falling one green (down).
      for (const row of await tid(page, 'quote-row').all()) {
        const trend = await row.getAttribute('data-trend');
        const pct = Number((await row.getByTestId('quote-percent').innerText()).replace('%', ''));
        assert.equal(trend, pct > 0 ? 'up' : pct < 0 ? 'down' : 'flat', `row ${await row.getAttribute('data-symbol')} ${pct}% is ${trend}`);
      }
      await screen(page, lang, 'market-02-list');

      await waitText(tid(page, 'market-tab-gainers'), L.gainers);
      await tid(page, 'market-tab-gainers').click();
      await tid(page, 'quote-list-gainers').getByTestId('quote-row').first().waitFor();
      const up = await percents(page);
      assert.deepEqual(up, [...up].sort((a, b) => b - a), 'gainers are sorted by change, highest first');
      await screen(page, lang, 'market-03-gainers');

      await tid(page, 'market-tab-losers').click();
      await tid(page, 'quote-list-losers').getByTestId('quote-row').first().waitFor();
      const down = await percents(page);
      assert.deepEqual(down, [...down].sort((a, b) => a - b), 'losers are sorted by change, lowest first');

      await tid(page, 'market-tab-volume').click();
      await tid(page, 'quote-list-volume').getByTestId('quote-volume').first().waitFor();
      await waitText(tid(page, 'quote-volume').first(), L.lots);

      await tid(page, 'market-otc').click();
      await page.locator('[data-testid=quote-list-volume][data-market=otc]').filter({ visible: true }).getByTestId('quote-row').first().waitFor();
      assert.equal(await tid(page, 'market-otc').getAttribute('aria-selected'), 'true');
      // The rows on screen are live: the app subscribed to them.
      const shown = await tid(page, 'quote-row').first().getAttribute('data-symbol');
      await until(() => frames.sent.some((m) => m.op === 'subscribe' && m.symbols.includes(shown)), `subscribed to ${shown}`);
    });

    await step('2330 detail: figures, chart, live change', async () => {
      await openRoute(page, '/market/marketDetail?symbol=2330');
      await tid(page, 'detail-price').waitFor();
      await waitText(tid(page, 'detail-volume-lots'), L.lots);
      await page.locator('.adm-nav-bar-title').filter({ visible: true }).filter({ hasText: L.tsmc }).waitFor();
      assert.equal(await tid(page, 'best-five').getByTestId('book-bid-1').count(), 1);
      await tid(page, 'chart').locator('canvas').first().waitFor();
      assert.equal(await tid(page, 'chart-attribution').locator('a').getAttribute('href'), 'https://www.tradingview.com/');
      // A change arrives over the socket (no new request for the quote): the traded shares grow.
      const before = await tid(page, 'detail-volume-shares').innerText();
      const quoteCalls = [];
      page.on('request', (r) => {
        if (new URL(r.url()).pathname === '/api/vue/market/stocks/2330') quoteCalls.push(r.url());
      });
      await page.waitForFunction((was) => {
        const el = [...document.querySelectorAll('[data-testid=detail-volume-shares]')].find((e) => e.offsetParent);
        return el && el.textContent !== was;
      }, before, { timeout: 20_000, polling: 100 });
      assert.deepEqual(quoteCalls, [], 'the change came over the socket');
      assert.ok(frames.received.some((m) => m.type === 'quote' && m.data.symbol === '2330'), 'a 2330 quote frame arrived');
      await screen(page, lang, 'market-04-detail');

      await tid(page, 'interval-1d').click();
      await page.locator('[data-testid=chart][data-interval="1d"]').filter({ visible: true }).locator('canvas').first().waitFor();
      assert.equal(await tid(page, 'interval-1d').getAttribute('aria-selected'), 'true');
      await until(() => frames.sent.some((m) => m.op === 'subscribe' && m.channels.includes('candles:1d') && m.symbols.includes('2330')), 'live daily candles');
      // Dragging the chart into the past loads older candles (paged with before=).
      const older = page.waitForRequest((r) => r.url().includes('/api/vue/market/stocks/2330/candles?') && new URL(r.url()).searchParams.has('before'), { timeout: 20_000 });
      const box = await tid(page, 'chart').boundingBox();
      const y = box.y + box.height / 2;
      let paged = false;
      older.then(() => (paged = true), () => {});
      for (let i = 0; i < 30 && !paged; i++) {
        await page.mouse.move(box.x + 20, y);
        await page.mouse.down();
        await page.mouse.move(box.x + box.width - 60, y, { steps: 6 });
        await page.mouse.up();
      }
      assert.equal(new URL((await older).url()).searchParams.get('interval'), '1d');
      await shot(page, lang, 'market-05-detail-day');
    });

    await step('favourites: add, see, remove', async () => {
      const toggle = tid(page, 'favorite-toggle');
      await page.waitForFunction(() => !document.querySelector('[data-testid=favorite-button]')?.disabled);
      assert.equal(await toggle.getAttribute('data-on'), 'false');
      await tid(page, 'favorite-button').click();
      await page.locator('[data-testid=favorite-toggle][data-on=true]').filter({ visible: true }).waitFor();
      await page.locator('.adm-toast-main').filter({ hasText: L.added }).first().waitFor();

      await openRoute(page, '/market/favo');
      await page.locator('[data-testid=favo-row][data-symbol="2330"]').filter({ visible: true }).waitFor();
      await screen(page, lang, 'market-06-favourites');
      await tid(page, 'favo-edit').click();
      await tid(page, 'favo-remove-2330').click();
      await page.locator('.adm-toast-main').filter({ hasText: L.removed }).first().waitFor();
      await waitText(tid(page, 'list-empty'), L.favoEmpty);
    });

    await step('search by code, Chinese and English name, with history', async () => {
      await openRoute(page, '/home/searchIndex');
      const input = tid(page, 'search-input');
      for (const q of ['2330', '台積電', 'TSMC']) {
        await input.fill(q);
        await page.locator(`[data-testid=search-results][data-term="${q}"] [data-testid=search-result]`).first().waitFor();
        assert.equal(await tid(page, 'search-result').first().getAttribute('data-symbol'), '2330', `search ${q}`);
      }
      await input.press('Enter');
      await screen(page, lang, 'market-07-search');
      await input.fill('');
      await waitText(tid(page, 'history-item').first(), 'TSMC');
      await tid(page, 'history-clear').click();
      assert.equal(await tid(page, 'search-history').count(), 0);
    });

    assert.deepEqual(phone.pageErrors, []);
    await phone.context.close();
  });
}
