// The market screens of issue 4 against the real server (demo market, trading around the clock),
// in both languages at the phone viewport: the market list and its tabs, 2330's detail with the
// chart canvas, an interval switch and a change pushed over the socket, favourites added and
// removed, search by code, by 台積電 and by TSMC with the history kept.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { login, openApp, screen } from './flows.mjs';
import { DEMO, newPhone, openRoute, shot, tid, useFixture, waitHash, waitText } from './harness.mjs';

// Written out, not imported from the app: a wrong translation fails here.
const T = {
  tw: { gainers: '漲幅榜', losers: '跌幅榜', tsmc: '台積電', lots: /^[\d,]+ 張$/, added: '已加入自選', removed: '已移除自選', favoEmpty: '尚未加入自選股', tabMarket: '行情' },
  en: { gainers: 'Gainers', losers: 'Losers', tsmc: 'Taiwan Semiconductor Manufacturing', lots: /^[\d,]+ lots$/, added: 'Added to favourites', removed: 'Removed from favourites', favoEmpty: 'No favourites yet', tabMarket: 'Market' },
};

const fx = useFixture();

/** Polls a condition on recorded frames (they arrive on their own, not through the DOM). */
async function until(cond, what, timeout = 15_000) {
  const deadline = Date.now() + timeout;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting: ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Waits for a toast with this text (start it before the action: toasts show 2 s). */
const toast = (page, text) => page.locator('.adm-toast-main').filter({ hasText: text }).first().waitFor();

/**
 * The page's socket to the real server, routed through Playwright: every frame each way is
 * recorded (sent: the app's requests, received: the server's pushes), and `inject` hands the page
 * a frame as if the server had sent it. Registered before the app loads.
 */
async function liveSocket(page) {
  const sent = [];
  const received = [];
  let current;
  await page.routeWebSocket(/\/api\/vue\/ws$/, (ws) => {
    const server = ws.connectToServer();
    current = ws;
    ws.onMessage((m) => {
      sent.push(JSON.parse(String(m)));
      server.send(m);
    });
    server.onMessage((m) => {
      received.push(JSON.parse(String(m)));
      ws.send(m);
    });
  });
  return {
    sent,
    received,
    inject(msg) {
      current.send(JSON.stringify(msg));
    },
  };
}

/**
 * Rows whose colours disagree with their change, read in one go inside the page (live updates
 * re-render rows between two separate reads). Taiwan colours: rising red (up), falling green (down).
 */
function miscolouredRows(page) {
  return page.evaluate(() =>
    [...document.querySelectorAll('[data-testid=quote-row]')]
      .filter((row) => row.checkVisibility())
      .map((row) => {
        const pct = Number(row.querySelector('[data-testid=quote-percent]').textContent.replace('%', ''));
        const want = pct > 0 ? 'up' : pct < 0 ? 'down' : 'flat';
        const price = row.querySelector('[data-testid=quote-price]').classList;
        const pill = row.querySelector('[data-testid=quote-percent]').classList;
        const priceOk = want === 'flat' ? !price.contains('up') && !price.contains('down') : price.contains(want);
        return row.dataset.trend === want && priceOk && pill.contains(`pill-${want}`) ? null : `${row.dataset.symbol} ${pct}% is ${row.dataset.trend} (price ${price}, pill ${pill})`;
      })
      .filter(Boolean),
  );
}

/**
 * Clicks a list tab and returns the symbols of the first page the server answered, with their
 * change percents. Live updates change the percents on screen (rows keep their places), so the
 * order is checked on the answer and the screen is checked to show the answer's rows in order.
 */
async function openTab(page, tab) {
  const answer = page.waitForResponse((r) => {
    const u = new URL(r.url());
    return u.pathname === '/api/vue/market/stocks' && u.searchParams.get('tab') === tab && u.searchParams.get('page') === '1';
  });
  await tid(page, `market-tab-${tab}`).click();
  const items = (await (await answer).json()).data.items;
  const list = tid(page, `quote-list-${tab}`);
  await list.getByTestId('quote-row').first().waitFor();
  const shown = await list.getByTestId('quote-row').evaluateAll((rows) => rows.map((r) => r.dataset.symbol));
  assert.deepEqual(shown.slice(0, items.length), items.map((q) => q.symbol), `${tab}: the rows are the answer's, in its order`);
  return items.map((q) => Number(q.changePercent));
}

for (const lang of ['tw', 'en']) {
  test(`market screens (${lang})`, { timeout: 150_000 }, async (t) => {
    const L = T[lang];
    const phone = await newPhone(fx.browser);
    const { page } = phone;
    const frames = await liveSocket(page);
    const step = (name, fn) => fx.step(t, `market-${lang}-${name}`, page, fn);

    await step('home shows the indices and the hot list', async () => {
      await openApp(page, fx.server.base, lang);
      await openRoute(page, '/login/login');
      await login(page, lang, DEMO.member.account, DEMO.member.password);
      await waitText(tid(page, 'index-TAIEX').getByTestId('index-value'), /^[\d,]+\.\d\d$/);
      await tid(page, 'index-TPEX').waitFor();
      // The hot list loads on its own: wait for its fifth row.
      await tid(page, 'home-hot').getByTestId('quote-row').nth(4).waitFor();
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
      assert.deepEqual(await miscolouredRows(page), [], 'Taiwan colours: rising rows red (up), falling green (down)');
      await screen(page, lang, 'market-02-list');

      await waitText(tid(page, 'market-tab-gainers'), L.gainers);
      const up = await openTab(page, 'gainers');
      assert.deepEqual(up, [...up].sort((a, b) => b - a), 'gainers are sorted by change, highest first');
      await screen(page, lang, 'market-03-gainers');

      const down = await openTab(page, 'losers');
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
      // The server sends 2330's quote over the socket as soon as the screen subscribes.
      const last2330 = () => frames.received.findLast((m) => m.type === 'quote' && m.data.symbol === '2330');
      await until(() => last2330(), 'a 2330 quote frame from the server');
      // A change shows from the socket alone (no new request for the quote): the traded shares
      // grow. The demo market trades 2330 only every few seconds to two minutes, so rather than
      // wait for the market, the server's own last frame comes again with one more lot traded,
      // stamped later than anything shown (an older push never overwrites newer data).
      const before = await tid(page, 'detail-volume-shares').innerText();
      const quoteCalls = [];
      page.on('request', (r) => {
        if (new URL(r.url()).pathname === '/api/vue/market/stocks/2330') quoteCalls.push(r.url());
      });
      const q = last2330().data;
      const later = new Date(Math.max(Date.now(), Date.parse(q.time)) + 1000).toISOString();
      const volume = typeof q.volume === 'string' ? String(BigInt(q.volume) + 1000n) : q.volume + 1000;
      frames.inject({ type: 'quote', data: { ...q, volume, time: later } });
      await page.waitForFunction(
        (was) => [...document.querySelectorAll('[data-testid=detail-volume-shares]')].some((e) => e.checkVisibility() && e.textContent !== was),
        before,
        { timeout: 15_000, polling: 100 },
      );
      assert.deepEqual(quoteCalls, [], 'the change came over the socket');
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
      await page.locator('[data-testid=favorite-toggle][data-ready=true]').filter({ visible: true }).waitFor();
      assert.equal(await toggle.getAttribute('data-on'), 'false');
      // Toasts show 2 s: wait for them from before the click, alongside the screen's change.
      const added = toast(page, L.added);
      await toggle.click();
      await Promise.all([page.locator('[data-testid=favorite-toggle][data-on=true]').filter({ visible: true }).waitFor(), added]);

      await openRoute(page, '/market/favo');
      await page.locator('[data-testid=favo-row][data-symbol="2330"]').filter({ visible: true }).waitFor();
      await screen(page, lang, 'market-06-favourites');
      await tid(page, 'favo-edit').click();
      const removed = toast(page, L.removed);
      await tid(page, 'favo-remove-2330').click();
      await Promise.all([waitText(tid(page, 'list-empty'), L.favoEmpty), removed]);
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
      await tid(page, 'search-history').waitFor({ state: 'detached' });
    });

    assert.deepEqual(phone.pageErrors, []);
    await phone.context.close();
  });
}
