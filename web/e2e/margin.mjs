// Issue 12's additional credit margin in one language, at the phone viewport: a member with a
// margin long (one lot of 2603 at 2.5× leverage, bought at market) opens the position, goes to
// "top up margin", is refused on the form for an amount that is not a whole number, not positive
// or more than its cash (each message translated), tops up 1,000 from its cash, and sees the
// position's financing fall by it and the fund record line. (A margin call itself needs the
// market to fall; the scenario test api/margin_scenario_test.go drives that.)
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { login, openApp, screen } from './flows.mjs';
import { call, memberWithBalance } from './api.mjs';
import { freshMobile, nextResponse, openRoute, tid, useFixture, waitHash, waitText, waitToast } from './harness.mjs';

/** The texts these screens show, written out so that a wrong translation fails here. */
const M = {
  tw: { title: '追繳保證金', open: '追繳保證金', notInteger: '金額須為整數', notPositive: '金額須大於零', cash: '餘額不足', done: '已追繳保證金', line: '追繳保證金' },
  en: {
    title: 'Additional credit margin',
    open: 'Top up margin',
    notInteger: 'The amount must be a whole number',
    notPositive: 'The amount must be above zero',
    cash: 'Insufficient balance',
    done: 'Margin topped up',
    line: 'Additional margin',
  },
};

const cents = (s) => Math.round(Number(s.replace(/,/g, '')) * 100);

export function marginJourney(lang) {
  const X = M[lang];
  const member = { account: freshMobile(), password: 'Pass1234word' };
  const fx = useFixture({ phone: true });

  test(`margin: top up a margin position from cash (${lang})`, { timeout: 180_000 }, async (t) => {
    const { page } = fx.phone;
    const step = (name, fn) => fx.step(t, `${lang}-margin-${name}`, page, fn);
    let positionId;

    await step('position', async () => {
      const session = await memberWithBalance(fx.server.base, member, ['500000']);
      const o = await call(fx.server.base, 'POST', '/api/vue/trade/orders', {
        session,
        body: { symbol: '2603', direction: 'long', type: 'market', lots: 1, leverage: '2.5' },
      });
      positionId = o.positionId ?? o.orderNo;
      await openApp(page, fx.server.base, lang);
      await tid(page, 'welcome-login').click();
      await login(page, lang, member.account, member.password);
      await openRoute(page, `/position/positionDetail?id=${positionId}`);
      await tid(page, 'pd-loan').waitFor();
      await tid(page, 'pd-top-up').click();
      await waitHash(page, `/trade/topUp?id=${positionId}`);
      await waitText(page.locator('.adm-nav-bar-title').filter({ visible: true }), X.title);
      await tid(page, 'top-up-loan').waitFor();
      await screen(page, lang, 'margin-01-top-up');
    });

    await step('refusals', async () => {
      const err = tid(page, 'form-error');
      const tryAmount = async (v, want) => {
        await tid(page, 'top-up-amount').fill(v);
        await tid(page, 'top-up-submit').click();
        await waitText(err, want);
      };
      await tryAmount('1000.5', X.notInteger);
      await tryAmount('0', X.notPositive);
      await tryAmount('-5', X.notPositive);
      await tryAmount('99999999', X.cash);
      await screen(page, lang, 'margin-02-refused');
    });

    await step('top up', async () => {
      const before = await tid(page, 'top-up-loan').innerText();
      await tid(page, 'top-up-amount').fill('1000');
      const sent = nextResponse(page, 'POST', `/api/vue/trade/positions/${positionId}/topUp`);
      await tid(page, 'top-up-submit').click();
      const res = await sent;
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.body.data.loan, '1000.00');
      await waitToast(page, X.done);
      await waitHash(page, `/position/positionDetail?id=${positionId}`);
      const want = cents(before) - 100000;
      await page.waitForFunction(
        (w) => {
          const el = [...document.querySelectorAll('[data-testid="pd-loan"]')].find((e) => e.offsetParent !== null);
          return el && Math.round(Number(el.textContent.replace(/,/g, '')) * 100) === w;
        },
        want,
      );
      await screen(page, lang, 'margin-03-done');
      await openRoute(page, '/user/FundingDetails?tab=all');
      const line = page.locator('[data-type="margin_top_up"]').filter({ visible: true }).first();
      await line.waitFor();
      await waitText(line.getByText(X.line, { exact: true }).first(), X.line);
    });
  });
}
