// What a phone downloads and when it first paints: the first route (/, which goes to the welcome
// page) in a fresh browser costs at most 150 KB on the wire, every text file arrives compressed,
// and index.html's inline shell paints before the app's JavaScript has arrived (the welcome page
// itself, prerendered, or the market list's first quotes, painted by the server, in the visitor's
// language).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { newPhone, tid, useFixture, waitHash } from './harness.mjs';

const BUDGET = 150 * 1024;
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;

const fx = useFixture();

/** First contentful paint of the page, in ms from navigation start (waits until there is one). */
async function firstContentfulPaint(page) {
  return page.evaluate(
    () =>
      new Promise((resolve) => {
        new PerformanceObserver((list, obs) => {
          const fcp = list.getEntries().find((e) => e.name === 'first-contentful-paint');
          if (fcp) {
            obs.disconnect();
            resolve(fcp.startTime);
          }
        }).observe({ type: 'paint', buffered: true });
      }),
  );
}

test('the first route is at most 150 KB on the wire, compressed', { timeout: 60_000 }, async (t) => {
  const { context, page, pageErrors } = await newPhone(fx.browser);
  const responses = [];
  page.on('requestfinished', async (req) => {
    const res = await req.response();
    responses.push({ url: req.url(), res, sizes: req.sizes() });
  });
  await page.goto(`${fx.server.base}/`);
  await waitHash(page, '/login/start');
  await tid(page, 'welcome').waitFor();
  await page.waitForLoadState('networkidle');

  // The browser's own count: the document and every resource, headers included.
  const perf = await page.evaluate(() => {
    const nav = performance.getEntriesByType('navigation')[0];
    const res = performance.getEntriesByType('resource');
    return { nav: nav.transferSize, resources: res.reduce((n, e) => n + e.transferSize, 0), count: res.length + 1 };
  });
  const wire = perf.nav + perf.resources;
  // Playwright's count of the same responses (encoded body plus headers).
  let pw = 0;
  const plain = [];
  for (const r of responses) {
    const s = await r.sizes;
    pw += s.responseBodySize + s.responseHeadersSize;
    const type = (await r.res.headerValue('content-type')) ?? '';
    const coding = await r.res.headerValue('content-encoding');
    if (/^(text\/|application\/javascript|image\/svg)/.test(type) && !['br', 'gzip'].includes(coding)) plain.push(`${r.url} (${type})`);
  }
  const fcp = await firstContentfulPaint(page);
  t.diagnostic(`first route: ${kb(wire)} transferred in ${perf.count} responses (playwright: ${kb(pw)}); first contentful paint ${fcp.toFixed(0)} ms`);
  assert.deepEqual(plain, [], 'every text response is compressed');
  assert.ok(wire <= BUDGET, `the first route transferred ${kb(wire)}, over the ${kb(BUDGET)} budget`);
  assert.ok(pw <= BUDGET, `the first route transferred ${kb(pw)} (playwright), over the ${kb(BUDGET)} budget`);
  assert.deepEqual(pageErrors.map(String), [], 'no uncaught errors in the page');
  await context.close();
});

test('the inline shell paints without JavaScript', { timeout: 30_000 }, async () => {
  const context = await fx.browser.newContext({ viewport: { width: 375, height: 812 }, javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto(`${fx.server.base}/`);
  await page.getByTestId('boot-shell').waitFor({ state: 'visible', timeout: 5000 });
  const logo = await page.getByTestId('boot-shell').locator('svg').boundingBox();
  assert.ok(logo && logo.width > 0 && logo.x >= 0 && logo.x + logo.width <= 375, `the shell's logo is on screen: ${JSON.stringify(logo)}`);
  // No observer here: its callback is a script, and scripts are off.
  const fcp = await page.evaluate(() => performance.getEntriesByName('first-contentful-paint')[0]?.startTime);
  assert.ok(fcp > 0, 'the shell is a contentful paint');
  await context.close();
});

test('the first paint does not wait for the app script on a slow network', { timeout: 60_000 }, async (t) => {
  const { context, page } = await newPhone(fx.browser);
  // About a slow 4G phone: the app's script takes a few hundred ms to arrive.
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 150, downloadThroughput: (1.6 * 1024 * 1024) / 8, uploadThroughput: (750 * 1024) / 8 });
  await page.goto(`${fx.server.base}/`);
  await tid(page, 'welcome').waitFor({ timeout: 30_000 });
  const fcp = await firstContentfulPaint(page);
  const entry = await page.evaluate(() => {
    const src = document.querySelector('script[type=module][src]')?.src;
    return performance.getEntriesByType('resource').find((e) => e.name === src)?.responseEnd;
  });
  t.diagnostic(`slow 4G: first contentful paint ${fcp.toFixed(0)} ms, app script arrived at ${entry?.toFixed(0)} ms`);
  assert.ok(entry, 'the app script was loaded');
  assert.ok(fcp < entry, `first paint at ${fcp.toFixed(0)} ms waited for the app script (arrived at ${entry.toFixed(0)} ms)`);
  await context.close();
});

test('the welcome page and the market list paint from the HTML alone, in the visitor language, under the page CSP', { timeout: 60_000 }, async () => {
  const { context, page } = await newPhone(fx.browser);
  // No app script arrives: what shows is index.html's own (its inline script runs by its CSP hash).
  await page.route('**/assets/*.js', (route) => route.abort());
  const blocked = [];
  page.on('console', (m) => {
    if (/Content Security Policy/i.test(m.text())) blocked.push(m.text());
  });
  for (const [url, heading] of [
    ['/', '.welcome-slide h2'],
    ['/?lang=en', '.welcome-slide h2'],
  ]) {
    await page.goto(`${fx.server.base}${url}`);
    await page.locator(heading).first().waitFor({ timeout: 10_000 });
    const lang = url.includes('lang=en') ? 'en' : 'tw';
    const text = await page.locator(heading).first().textContent();
    assert.ok(lang === 'en' ? /^[\x20-\x7e]+$/.test(text) : /[\u4e00-\u9fff]/.test(text), `${url}: the welcome heading ${JSON.stringify(text)} is in ${lang}`);
  }
  // The market list: its first quotes painted by the server, in the visitor's language.
  for (const [url, title] of [
    ['/#/market/market', '行情'],
    ['/?lang=en#/market/market', 'Market'],
  ]) {
    await page.goto(`${fx.server.base}${url}`);
    await page.locator('.lbm-row').first().waitFor({ timeout: 10_000 });
    assert.equal(await page.locator('.lbm-row').count(), 20, `${url}: the list's first page`);
    assert.equal(await page.locator('.lbm-title').innerText(), title, `${url}: the title in the visitor's language`);
    const name = await page.locator('.lbm-row .lbm-name b').first().innerText();
    assert.ok(url.includes('lang=en') ? /^[\x20-\x7e]+$/.test(name) : /[\u4e00-\u9fff]/.test(name), `${url}: the first name ${JSON.stringify(name)}`);
  }
  await page.goto(`${fx.server.base}/#/home/etf`);
  await page.getByTestId('boot-shell').waitFor({ timeout: 10_000 });
  assert.equal(await page.locator('.welcome, .lbm').count(), 0, 'another screen paints the skeleton, not the welcome page nor the market list');
  // A page painted ten minutes before the visitor's clock (an offline copy) shows no quotes.
  await page.clock.setFixedTime(Date.now() + 10 * 60_000);
  await page.goto(`${fx.server.base}/#/market/market`);
  await page.getByTestId('boot-shell').waitFor({ timeout: 10_000 });
  assert.equal(await page.locator('.lbm').count(), 0, 'stale quotes are not painted as the market');
  assert.deepEqual(blocked, [], 'the page CSP blocks none of its inline scripts');
  await context.close();
});

test('a cold start at the market list sends its list request and its code at once, the list once', { timeout: 60_000 }, async () => {
  const { context, page, pageErrors } = await newPhone(fx.browser);
  const lists = [];
  page.on('request', (req) => {
    if (new URL(req.url()).pathname === '/api/vue/market/stocks') lists.push(req.url());
  });
  await page.goto(`${fx.server.base}/#/market/market`);
  await tid(page, 'quote-row').first().waitFor({ timeout: 30_000 });
  const t = await page.evaluate(() => {
    const entry = document.querySelector('script[type=module][src]')?.src;
    const res = performance.getEntriesByType('resource');
    const find = (f) => res.find(f);
    return {
      entry: find((e) => e.name === entry),
      list: find((e) => e.name.includes('/api/vue/market/stocks')),
      chunk: find((e) => /\/assets\/MarketPage-[^/]+\.js$/.test(e.name)),
    };
  });
  assert.ok(t.entry && t.list && t.chunk, `entry, list and market chunk were fetched: ${JSON.stringify(t)}`);
  // index.html sends the list's request while it parses, before the app's script is even asked for,
  // and asks for the market chunk beside the entry: not after the entry has run and routed.
  assert.ok(t.list.startTime < t.entry.startTime, `the list was requested at ${t.list.startTime} ms, after the entry at ${t.entry.startTime} ms`);
  assert.ok(t.chunk.startTime < t.entry.responseEnd, `the market chunk was requested at ${t.chunk.startTime} ms, after the entry arrived at ${t.entry.responseEnd} ms`);
  assert.equal(lists.length, 1, `the app took the early answer instead of asking again: ${lists.join(', ')}`);
  assert.deepEqual(pageErrors.map(String), [], 'no uncaught errors in the page');
  await context.close();
});
