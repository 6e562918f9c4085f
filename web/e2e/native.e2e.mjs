// The native wrapper's rules, tested in the browser build (issue 13 item 7), in both languages at
// the phone viewport:
// - the hardware back button: the same handler the Capacitor wrapper installs, driven through
//   the test hook that exists only when localStorage lotbookTestHooks=1 (window.__lotbookBack):
//   back in history while there is history; on a tab root with none, the first press shows the
//   translated "press again to exit" toast, a second within 1000 ms quits (counted by the hook),
//   and a press after more than 1000 ms only warns again;
// - the PWA: the manifest and the service worker; offline, a reload still opens the app from the
//   cached shell with a clear translated offline state, and it recovers when back online;
//   the worker never stores API responses.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { login, openApp, screen } from './flows.mjs';
import { DEMO, newPhone, tid, useFixture, waitHash, waitToast } from './harness.mjs';

// Written out, not imported from the app: a wrong translation fails here.
const T = {
  tw: { pressAgain: '再按一次退出', offline: '目前離線' },
  en: { pressAgain: 'Press again to exit', offline: 'You are offline' },
};

const fx = useFixture();

const press = (page) => page.evaluate(() => window.__lotbookBack.press());

for (const lang of ['tw', 'en']) {
  test(`hardware back: history, then press twice within 1000 ms to quit (${lang})`, { timeout: 90_000 }, async (t) => {
    const { context, page, pageErrors } = await newPhone(fx.browser);
    await context.addInitScript(() => localStorage.setItem('lotbookTestHooks', '1'));
    await openApp(page, fx.server.base, lang);
    await login(page, lang, DEMO.member.account, DEMO.member.password);

    await t.test('the hook exists only with the flag', async () => {
      const other = await newPhone(fx.browser);
      await other.page.goto(`${fx.server.base}/?lang=${lang}`);
      await tid(other.page, 'welcome').waitFor();
      assert.equal(await other.page.evaluate(() => typeof window.__lotbookBack), 'undefined');
      await other.context.close();
    });

    await t.test('on a tab root opened fresh, then into a screen: back goes back in history', async () => {
      // A fresh load of the home tab: no history before it.
      await page.goto(`${fx.server.base}/#/home/index`);
      await tid(page, 'home-page').waitFor();
      await page.waitForFunction(() => typeof window.__lotbookBack?.press === 'function');
      await tid(page, 'shortcut-market').click();
      await waitHash(page, '/market/market');
      assert.equal(await press(page), 'back');
      await waitHash(page, '/home/index');
      await tid(page, 'home-page').waitFor();
    });

    await t.test('a first press on the tab root warns; a second within 1000 ms quits', async () => {
      // Both presses in one turn of the page, well inside the 1000 ms window.
      const r = await page.evaluate(() => {
        const a = performance.now();
        const first = window.__lotbookBack.press();
        const exitsBetween = window.__lotbookBack.exits;
        const second = window.__lotbookBack.press();
        return { first, exitsBetween, second, exits: window.__lotbookBack.exits, gap: performance.now() - a };
      });
      assert.equal(r.first, 'arm', 'the first press on a tab root with no history warns');
      assert.equal(r.exitsBetween, 0, 'the first press does not quit');
      assert.equal(r.second, 'exit', `the second press ${r.gap.toFixed(0)} ms later quits`);
      assert.equal(r.exits, 1, 'the app quit once');
      await waitToast(page, T[lang].pressAgain);
      await screen(page, lang, 'native-01-press-again', { toasts: true });
      assert.equal(await page.evaluate(() => location.hash), '#/home/index', 'quitting does not navigate');
    });

    await t.test('a press after more than 1000 ms only warns again', async () => {
      const toasts = page.locator('.adm-toast-main').filter({ hasText: T[lang].pressAgain });
      await toasts.first().waitFor({ state: 'hidden', timeout: 5000 });
      assert.equal(await press(page), 'arm');
      await waitToast(page, T[lang].pressAgain);
      // The window is 1000 ms: wait past it (the rule is about time, so a timer is the point).
      await page.waitForTimeout(1100);
      await toasts.first().waitFor({ state: 'hidden', timeout: 5000 });
      assert.equal(await press(page), 'arm', 'more than 1000 ms after the first press: warn, do not quit');
      await waitToast(page, T[lang].pressAgain);
      assert.equal(await page.evaluate(() => window.__lotbookBack.exits), 1, 'no second quit');
    });
    assert.deepEqual(pageErrors.map(String), []);
    await context.close();
  });

  test(`offline: the shell opens from the service worker with a clear offline state, and recovers (${lang})`, { timeout: 90_000 }, async (t) => {
    const { context, page } = await newPhone(fx.browser);
    const apiCached = [];

    await t.test('the manifest and the service worker', async () => {
      await openApp(page, fx.server.base, lang);
      const manifest = await page.evaluate(async () => {
        const href = document.querySelector('link[rel=manifest]')?.href;
        return href ? (await fetch(href)).json() : null;
      });
      assert.ok(manifest, 'index.html links a manifest');
      assert.equal(manifest.display, 'standalone');
      assert.equal(manifest.start_url, './');
      assert.match(manifest.theme_color, /^#[0-9a-f]{6}$/i);
      assert.ok(manifest.icons.some((i) => i.sizes === '512x512' && i.type === 'image/png'));
      assert.ok(manifest.icons.some((i) => i.sizes === '192x192'));
      // The worker takes over once the page is idle; the shell is cached by then.
      await page.waitForFunction(async () => (await navigator.serviceWorker.ready).active?.state === 'activated', null, { timeout: 20_000 });
      await login(page, lang, DEMO.member.account, DEMO.member.password);
      await tid(page, 'tab-mine').click();
      await tid(page, 'usercenter-page').waitFor();
      await tid(page, 'tab-home').click();
      await tid(page, 'home-page').waitFor();
    });

    await t.test('offline: the banner; a reload opens the cached shell, still offline', async () => {
      await context.setOffline(true);
      await tid(page, 'offline-banner').waitFor();
      await page.reload();
      await tid(page, 'offline-banner').waitFor({ timeout: 15_000 });
      assert.match(await tid(page, 'offline-banner').innerText(), new RegExp(T[lang].offline));
      assert.equal(await page.evaluate(() => Boolean(navigator.serviceWorker.controller)), true, 'the page is served by the worker');
      await screen(page, lang, 'native-02-offline');
    });

    await t.test('back online: the banner goes and the app works again', async () => {
      await context.setOffline(false);
      await tid(page, 'offline-banner').waitFor({ state: 'detached' });
      await tid(page, 'tab-mine').click();
      await tid(page, 'usercenter-page').waitFor();
      await tid(page, 'user-account').waitFor();
    });

    await t.test('the worker stored no API response', async () => {
      const urls = await page.evaluate(async () => {
        const out = [];
        for (const k of await caches.keys()) for (const r of await (await caches.open(k)).keys()) out.push(r.url);
        return out;
      });
      apiCached.push(...urls.filter((u) => new URL(u).pathname.startsWith('/api/')));
      assert.ok(urls.length > 3, `the shell is cached: ${urls.length} files`);
      assert.deepEqual(apiCached, [], 'no API response in the caches');
    });
    await context.close();
  });
}
