// Issue 12's AI quant in one language, at the phone viewport: a member with cash opens AI quant
// from home's shortcut, sees the products with their backtests, opens one (its rule, the
// figures and the equity curve the server computed by replaying the rule), is refused below the
// minimum on the form, subscribes; the subscription runs with its amount held; the member leaves
// it keeping positions and it ends with nothing held. (The rule's orders run at 09:30 Taipei on
// the market's clock; the HTTP scenario test, api/quant_scenario_test.go, drives one.)
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { login, logout, openApp, screen } from './flows.mjs';
import { memberWithBalance } from './api.mjs';
import { dialogButton, freshMobile, nextResponse, tid, useFixture, waitHash, waitText, waitToast } from './harness.mjs';

/** The texts these screens show, written out so that a wrong translation fails here. */
const Q = {
  tw: {
    shortcut: 'AI量化',
    title: 'AI量化',
    mine: '我的訂閱',
    below: '金額低於最低限額',
    subscribed: '訂閱成功',
    running: '運行中',
    ended: '已結束',
    keep: '保留部位',
    left: '已退出策略',
  },
  en: {
    shortcut: 'AI quant',
    title: 'AI quant',
    mine: 'My subscriptions',
    below: 'The amount is below the minimum',
    subscribed: 'Subscribed',
    running: 'Running',
    ended: 'Ended',
    keep: 'Keep positions',
    left: 'You left the strategy',
  },
};

async function title(page, text) {
  await waitText(page.locator('.adm-nav-bar-title').filter({ visible: true }), text);
}

export function quantJourney(lang) {
  const X = Q[lang];
  const member = { account: freshMobile(), password: 'Pass1234word' };
  const fx = useFixture({ phone: true });

  test(`quant: products, backtest, subscribe, leave (${lang})`, { timeout: 180_000 }, async (t) => {
    const { page } = fx.phone;
    const step = (name, fn) => fx.step(t, `${lang}-quant-${name}`, page, fn);
    let subId;

    await step('products', async () => {
      await memberWithBalance(fx.server.base, member, ['150000']);
      await openApp(page, fx.server.base, lang);
      await tid(page, 'welcome-login').click();
      await login(page, lang, member.account, member.password);
      await waitText(tid(page, 'shortcut-aiQuant'), X.shortcut);
      await tid(page, 'shortcut-aiQuant').click();
      await waitHash(page, '/quant/list');
      await title(page, X.title);
      await tid(page, 'quant-product').first().waitFor();
      assert.ok((await tid(page, 'quant-product').count()) >= 2);
      await screen(page, lang, 'quant-01-products');
    });

    await step('product page', async () => {
      await tid(page, 'quant-open-momentum-0050').click();
      await waitHash(page, '/quant/product?id=momentum-0050');
      await tid(page, 'quant-rule').waitFor();
      await tid(page, 'quant-curve').waitFor();
      const trades = Number(await tid(page, 'quant-trades').first().innerText());
      assert.ok(trades > 0, `backtest trades ${trades}`);
      await waitText(tid(page, 'quant-return').first(), /%$/);
      await screen(page, lang, 'quant-02-product');

      // Below the minimum: caught on the form, nothing sent.
      await tid(page, 'quant-amount').fill('5000');
      await tid(page, 'quant-subscribe-submit').click();
      await waitText(tid(page, 'form-error'), X.below);

      await tid(page, 'quant-amount').fill('100000');
      const sent = nextResponse(page, 'POST', '/api/vue/quant/subscriptions');
      await tid(page, 'quant-subscribe-submit').click();
      const res = await sent;
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.body.msg, 'quant_subscribed');
      subId = res.body.data.subId;
      await waitToast(page, X.subscribed);
    });

    await step('mine and leave', async () => {
      await waitHash(page, '/quant/mine');
      await title(page, X.mine);
      const sub = tid(page, 'quant-sub').and(page.locator(`[data-sub-id="${subId}"]`));
      await sub.waitFor();
      await waitText(sub.getByTestId('quant-sub-state'), X.running);
      await waitText(sub.getByTestId('quant-sub-held'), '100,000.00');
      await screen(page, lang, 'quant-03-mine');
      await sub.getByTestId('quant-leave').click();
      const sent = nextResponse(page, 'POST', `/api/vue/quant/subscriptions/${subId}/leave`);
      await dialogButton(page, X.keep);
      const res = await sent;
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.body.data.state, 'ended');
      await waitToast(page, X.left);
      await page.waitForFunction((id) => document.querySelector(`[data-sub-id="${id}"]`)?.getAttribute('data-state') === 'ended', subId);
      await waitText(sub.getByTestId('quant-sub-state'), X.ended);
      await waitText(sub.getByTestId('quant-sub-held'), '0.00');
      await screen(page, lang, 'quant-04-ended');
      await logout(page, lang);
    });
  });
}
