// Issue 12's stock lending in one language, at the phone viewport: a member holding a lot of 2603
// (bought through the API); ops open the desk on their screen and publish a rate and a quota for
// 2603; the member opens stock lending from the home shortcut, sees the holding with the rate and
// an estimated daily fee, lends the lot (after a confirmation), finds the lending in the records'
// lending tab, recalls it (after a confirmation) and finds it in the completed tab; ops see the
// lending with the member's account in the list of all lendings.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { login, logout, openApp, screen } from './flows.mjs';
import { call, memberWithBalance } from './api.mjs';
import { DEMO, dialogButton, freshMobile, nextResponse, openRoute, tid, useFixture, waitHash, waitText, waitToast } from './harness.mjs';

/** The texts these screens show, written out so that a wrong translation fails here. */
const C = {
  tw: {
    shortcut: '借券出借',
    title: '借券出借',
    records: '出借紀錄',
    desk: '借券管理',
    saved: '已儲存',
    lend: '出借',
    lent: '借券出借成功',
    recall: '召回',
    recalled: '已召回，股票可再賣出',
    lending: '出借中',
    completed: '已完成',
  },
  en: {
    shortcut: 'Stock lending',
    title: 'Stock lending',
    records: 'Lending records',
    desk: 'Stock lending desk',
    saved: 'Saved',
    lend: 'Lend',
    lent: 'Shares lent',
    recall: 'Recall',
    recalled: 'Shares recalled; they may be sold again',
    lending: 'Lending',
    completed: 'Completed',
  },
};

async function title(page, text) {
  await waitText(page.locator('.adm-nav-bar-title').filter({ visible: true }), text);
}

export function lendingJourney(lang) {
  const X = C[lang];
  const member = { account: freshMobile(), password: 'Pass1234word' };
  const fx = useFixture({ phone: true });
  let lendNo;

  test(`lending: desk, lend from home, records, recall (${lang})`, { timeout: 180_000 }, async (t) => {
    const { page } = fx.phone;
    const step = (name, fn) => fx.step(t, `${lang}-lending-${name}`, page, fn);

    await step('ops desk', async () => {
      const session = await memberWithBalance(fx.server.base, member, ['500000']);
      const bought = await call(fx.server.base, 'POST', '/api/vue/trade/orders', {
        session,
        body: { symbol: '2603', direction: 'long', type: 'market', lots: 1 },
      });
      assert.equal(bought.filled, 1000, JSON.stringify(bought));
      await openApp(page, fx.server.base, lang);
      await tid(page, 'welcome-login').click();
      await login(page, lang, DEMO.ops.account, DEMO.ops.password, { hash: '/ops/console', testId: 'ops-console-page' });
      await openRoute(page, '/ops/lending');
      await title(page, X.desk);
      const channel = tid(page, 'ops-lending-channel');
      await channel.waitFor();
      if ((await channel.getAttribute('data-open')) !== 'true') await tid(page, 'ops-lending-open').click();
      await tid(page, 'ops-lending-default-rate').fill('2');
      let sent = nextResponse(page, 'POST', '/api/vue/ops/lending/channel');
      await tid(page, 'ops-lending-channel-save').click();
      let res = await sent;
      assert.equal(res.status, 200, JSON.stringify(res.body));
      await page.waitForFunction(() => document.querySelector('[data-testid="ops-lending-channel"]')?.getAttribute('data-open') === 'true');

      await tid(page, 'ops-lending-symbol-code').fill('2603');
      await tid(page, 'ops-lending-symbol-rate').fill('3.5');
      await tid(page, 'ops-lending-symbol-quota').fill('100000');
      sent = nextResponse(page, 'POST', '/api/vue/ops/lending/symbols/2603');
      await tid(page, 'ops-lending-symbol-save').click();
      res = await sent;
      assert.equal(res.status, 200, JSON.stringify(res.body));
      await waitToast(page, X.saved);
      await tid(page, 'ops-lending-symbol').and(page.locator('[data-symbol="2603"]')).waitFor();
      await screen(page, lang, 'lending-01-desk');
      await logout(page, lang);
    });

    await step('lend from home', async () => {
      await login(page, lang, member.account, member.password);
      await waitText(tid(page, 'shortcut-stockLending'), X.shortcut);
      await tid(page, 'shortcut-stockLending').click();
      await waitHash(page, '/lending');
      await title(page, X.title);
      const holding = tid(page, 'lending-holding').and(page.locator('[data-symbol="2603"]'));
      await holding.waitFor();
      await waitText(holding.getByTestId('lending-rate'), '3.5%');
      await waitText(holding.getByTestId('lending-lendable'), '1000');
      await waitText(holding.getByTestId('lending-daily-fee'), /^\d[\d,]*\.\d\d$/);
      await screen(page, lang, 'lending-02-lend');
      await holding.getByTestId('lending-shares').fill('1000');
      await holding.getByTestId('lending-submit').click();
      const sent = nextResponse(page, 'POST', '/api/vue/lending/records');
      await dialogButton(page, X.lend);
      const res = await sent;
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.body.msg, 'stock_lent');
      lendNo = res.body.data.lendNo;
      await waitToast(page, X.lent);
      await waitText(holding.getByTestId('lending-lent'), '1000');
      await waitText(holding.getByTestId('lending-lendable'), '0');
    });

    await step('records and recall', async () => {
      await tid(page, 'lending-records-link').click();
      await waitHash(page, '/lending/records');
      await title(page, X.records);
      const rec = tid(page, 'lending-record').and(page.locator(`[data-lend-no="${lendNo}"]`));
      await rec.waitFor();
      await waitText(rec.getByTestId('lending-record-status'), X.lending);
      await waitText(rec.getByTestId('lending-record-fees'), '0.00');
      await screen(page, lang, 'lending-03-records');
      await rec.getByTestId('lending-recall').click();
      const sent = nextResponse(page, 'POST', `/api/vue/lending/records/${lendNo}/recall`);
      await dialogButton(page, X.recall);
      const res = await sent;
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.body.data.status, 'completed');
      await waitToast(page, X.recalled);
      await rec.waitFor({ state: 'detached' });
      await tid(page, 'lending-tab-completed').click();
      const done = tid(page, 'lending-record').and(page.locator(`[data-lend-no="${lendNo}"]`));
      await done.waitFor();
      assert.equal(await done.getAttribute('data-status'), 'completed');
      await waitText(done.getByTestId('lending-record-status'), X.completed);
      await screen(page, lang, 'lending-04-completed');

      await openRoute(page, '/lending');
      const holding = tid(page, 'lending-holding').and(page.locator('[data-symbol="2603"]'));
      await waitText(holding.getByTestId('lending-lendable'), '1000');
      await logout(page, lang);
    });

    await step('ops list', async () => {
      await login(page, lang, DEMO.ops.account, DEMO.ops.password, { hash: '/ops/console', testId: 'ops-console-page' });
      await openRoute(page, '/ops/lending');
      const rec = tid(page, 'lending-record').and(page.locator(`[data-lend-no="${lendNo}"]`));
      await rec.waitFor();
      assert.match(await rec.innerText(), new RegExp(member.account));
      await screen(page, lang, 'lending-05-ops-list');
    });
  });
}
