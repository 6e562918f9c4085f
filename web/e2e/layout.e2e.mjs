// Nothing is wider than the 375 px phone, in English and Chinese, with the fonts a plain Debian
// machine has: DejaVu Sans for Latin text (wider than phone system fonts) and Noto Sans CJK.
// A member with money, a holding, a pending order, an exchange and fund records walks the main
// screens; on each, the document does not scroll sideways and no visible element ends past the
// right edge (long stock names end in an ellipsis; tapping one shows it whole).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { call, memberWithBalance } from './api.mjs';
import { login, openApp, overflow } from './flows.mjs';
import { freshMobile, newPhone, openRoute, PHONE, shot, tid, useFixture } from './harness.mjs';

/**
 * Screens; where a screen has tabs, the tabs to open (data-testid of each tab button); `whole`:
 * elements whose text must show whole, not cut with an ellipsis (tab titles, buttons).
 */
const SCREENS = [
  { path: '/home/index', ready: 'home-page' },
  { path: '/market/market', ready: 'market-page' },
  { path: '/home/etf' },
  { path: '/market/favo' },
  { path: '/market/stockHot/stockList' },
  { path: '/home/search', ready: 'search-page' },
  { path: '/market/marketDetail?symbol=2330' },
  { path: '/market/marketBuy?symbol=2330&side=buy', ready: 'ticket-page' },
  { path: '/position/position', tabs: ['pos-tab-holdings', 'pos-tab-orders', 'pos-tab-terminated'], whole: '.seg button, .kv > span:first-child' },
  { path: '/common/dayTrading' },
  { path: '/trade/rules' },
  { path: '/trade/notices' },
  { path: '/user/usercenter', ready: 'usercenter-page', whole: '.asset-actions .adm-button > span' },
  { path: '/user/FundingDetails?tab=all', tabs: ['tab-deposit', 'tab-withdraw', 'tab-exchange', 'tab-all'], whole: '.adm-tabs-tab, .record-row > :first-child' },
  { path: '/user/recharge' },
  { path: '/user/rechargeChannel?id=bank' },
  { path: '/user/withdraw' },
  { path: '/user/exchange' },
  { path: '/user/bandCard' },
  { path: '/user/BankCard' },
  { path: '/user/creditRule' },
  { path: '/user/setting' },
  { path: '/home/moreNews', ready: 'more-news-page' },
  { path: '/home/notice', ready: 'notice-page' },
  // issues 12 and 13, item 6: the trade tab's hub, the wallet, the monthly statement
  { path: '/trading/trading', ready: 'trading-hub-page' },
  { path: '/wallet/index', ready: 'wallet-page', whole: '.wallet-actions .adm-button > span' },
  { path: '/user/pj', ready: 'statement-page', whole: '.stmt-csv .adm-button > span' },
  // issue 12 item 3: copy trading
  { path: '/gdindex/gdindex', ready: 'copy-home' },
  { path: '/gdindex/gdList', ready: 'copy-list' },
  { path: '/gdindex/dsFllowRecord', ready: 'copy-records-page' },
  { path: '/gdindex/mentor', ready: 'copy-profile-page' },
  { path: '/gdindex/rules', ready: 'copy-rules-page' },
];

/** Waits until the screen's content stops changing (data loaded, lists drawn) for a moment. */
async function settled(page) {
  await page.evaluate(async () => {
    await document.fonts.ready;
    const quiet = 400;
    const deadline = Date.now() + 8000;
    let last = '';
    let since = Date.now();
    while (Date.now() < deadline) {
      const now = `${document.body.innerText.length}:${document.querySelectorAll('body *').length}`;
      const loading = document.querySelector('.adm-skeleton, .adm-spin-loading, .adm-dot-loading, .route-progress.active');
      if (now !== last || loading) {
        last = now;
        since = Date.now();
      } else if (Date.now() - since >= quiet) return;
      await new Promise((r) => setTimeout(r, 50));
    }
  });
}

const fx = useFixture();

/**
 * A member with a holding of 2330 (filled market order), a pending limit order at the bottom of the
 * day's band, a TWD to USD exchange, and so deposit, trade, fee, tax and exchange records.
 */
async function busyMember(base) {
  const member = { account: freshMobile(), password: 'Pass1234word' };
  // A lot of 2330 costs about 2 million; the deposit channel takes 1 million at most.
  const session = await memberWithBalance(base, member, Array(5).fill('1000000'));
  await call(base, 'POST', '/api/vue/trade/orders', { session, body: { symbol: '2330', direction: 'long', type: 'market', lots: 1 } });
  const quote = await call(base, 'GET', '/api/vue/market/stocks/2330', { session });
  const low = quote.limitDown ?? quote.lowLimit;
  assert.ok(low, `the quote names the day's lower limit: ${JSON.stringify(quote)}`);
  const pending = await call(base, 'POST', '/api/vue/trade/orders', { session, body: { symbol: '2330', direction: 'long', type: 'limit', lots: 1, price: String(low) } });
  assert.notEqual(pending.status, 'filled', 'the limit order at the lower limit stays pending');
  const q = await call(base, 'POST', '/api/vue/funds/exchange/quote', { session, body: { from: 'TWD', to: 'USD', amount: '10000' } });
  await call(base, 'POST', '/api/vue/funds/exchange', { session, body: { quoteId: q.quoteId ?? q.id } });
  return member;
}

for (const lang of ['en', 'tw']) {
  test(`nothing overflows the 375 px phone (${lang})`, { timeout: 180_000 }, async (t) => {
    const { context, page, pageErrors } = await newPhone(fx.browser);
    const step = (name, fn) => fx.step(t, `${lang}-layout-${name}`, page, fn);
    const wide = [];
    try {
      await step('log in a member with records', async () => {
        const member = await busyMember(fx.server.base);
        await openApp(page, fx.server.base, lang);
        await tid(page, 'welcome-login').click();
        await login(page, lang, member.account, member.password);
      });

      await step('the fonts are the wide fallback ones', async () => {
        // What Chromium really draws with (not what CSS asks for): digits and English in DejaVu
        // Sans, Chinese in Noto Sans CJK.
        const cdp = await context.newCDPSession(page);
        await cdp.send('DOM.enable');
        await cdp.send('CSS.enable');
        const { root } = await cdp.send('DOM.getDocument', { depth: -1 });
        const fontsOf = async (selector) => {
          const { nodeId } = await cdp.send('DOM.querySelector', { nodeId: root.nodeId, selector });
          assert.ok(nodeId, `${selector} is on the home screen`);
          const { fonts } = await cdp.send('CSS.getPlatformFontsForNode', { nodeId });
          return fonts.map((f) => f.familyName);
        };
        await tid(page, 'home-total').waitFor();
        const digits = await fontsOf('[data-testid=home-total]');
        const label = await fontsOf('[data-testid=tab-home] > span:last-child');
        t.diagnostic(`fonts used: digits ${digits.join(', ')}; tab label ${label.join(', ')}`);
        // In Chinese the page's language picks the CJK font for digits too.
        const want = lang === 'en' ? (f) => f === 'DejaVu Sans' : (f) => f.startsWith('Noto Sans CJK');
        assert.ok(digits.some(want) && label.some(want), `${lang === 'en' ? 'DejaVu Sans (fc-match sans-serif on a plain Debian machine)' : 'Noto Sans CJK'} draws the text; have ${digits}; ${label}`);
        await cdp.detach();
      });

      for (const s of SCREENS) {
        await step(s.path, async () => {
          await openRoute(page, s.path);
          if (s.ready) await tid(page, s.ready).waitFor();
          await settled(page);
          for (const tab of [null, ...(s.tabs ?? [])]) {
            if (tab) {
              await tid(page, tab).click();
              await settled(page);
            }
            const out = await overflow(page);
            await shot(page, lang, `layout${s.path.replace(/[^\w]+/g, '-')}${tab ? `-${tab}` : ''}`);
            if (out) wide.push({ screen: s.path, tab, ...out });
            if (s.whole) {
              const cut = await page.evaluate(
                (sel) => [...document.querySelectorAll(sel)].filter((el) => el.checkVisibility() && el.scrollWidth > el.clientWidth + 1).map((el) => el.textContent.trim()),
                s.whole,
              );
              if (cut.length) wide.push({ screen: s.path, tab, cut });
            }
          }
        });
      }

      await step('a long stock name ends in an ellipsis and shows whole on tap', async () => {
        await openRoute(page, '/market/marketDetail?symbol=2330');
        const name = page.locator('.adm-nav-bar-title [data-testid=quote-name]').filter({ visible: true });
        await name.waitFor();
        const cut = await name.evaluate((el) => ({ cut: el.scrollWidth > el.clientWidth, overflow: getComputedStyle(el).textOverflow, text: el.textContent.trim() }));
        if (lang === 'tw') {
          assert.equal(cut.cut, false, `台積電 fits: ${JSON.stringify(cut)}`);
          return;
        }
        assert.equal(cut.text, 'Taiwan Semiconductor Manufacturing');
        assert.ok(cut.cut && cut.overflow === 'ellipsis', `the long English name is cut with an ellipsis: ${JSON.stringify(cut)}`);
        await name.click();
        await page.locator('.adm-toast-main').filter({ hasText: cut.text }).waitFor();
        await shot(page, lang, 'layout-stock-name-tapped', { toasts: true });
      });
    } finally {
      await context.close();
    }
    assert.deepEqual(wide, [], `screens wider than the ${PHONE.viewport.width} px phone (${lang})`);
    assert.deepEqual(pageErrors.map(String), [], 'no uncaught errors in the page');
  });
}
