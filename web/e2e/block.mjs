// Issue 11's block trade in one language, at the phone viewport: a member with a balance opens
// block bidding from home, is refused a wrong block password, applies to the demo's open block
// (2882, 1.5 % under the reference price), sees the application pending; ops approve it in the
// queue; the member sees it filled and the holding in positions.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { login, logout, openApp, screen } from './flows.mjs';
import { memberWithBalance } from './api.mjs';
import { DEMO, dialogButton, freshMobile, nextResponse, openRoute, tid, useFixture, waitHash, waitText, waitToast } from './harness.mjs';

/** The texts these screens show, written out so that a wrong translation fails here. */
const B = {
  tw: {
    shortcut: '大宗競價',
    title: '大宗競價',
    records: '申購紀錄',
    open: '申購中',
    lotsInvalid: '請輸入整數張數',
    passwordWrong: '大宗密碼錯誤',
    applied: '申購已送出，等待審核',
    pending: '待審核',
    approved: '已通過',
    approve: '通過',
    oneLot: '1 張',
    noneLots: '0 張',
  },
  en: {
    shortcut: 'Block bidding',
    title: 'Block bidding',
    records: 'My applications',
    open: 'Open',
    lotsInvalid: 'Enter a whole number of lots',
    passwordWrong: 'Wrong block password',
    applied: 'Application submitted, pending review',
    pending: 'Pending review',
    approved: 'Passed',
    approve: 'Approve',
    oneLot: '1 lot(s)',
    noneLots: '0 lot(s)',
  },
};

async function title(page, text) {
  await waitText(page.locator('.adm-nav-bar-title').filter({ visible: true }), text);
}

export function blockJourney(lang) {
  const X = B[lang];
  const member = { account: freshMobile(), password: 'Pass1234word' };
  const fx = useFixture({ phone: true });
  let orderNo;

  test(`block trade: apply, review, holding (${lang})`, { timeout: 180_000 }, async (t) => {
    const { page } = fx.phone;
    const step = (name, fn) => fx.step(t, `${lang}-block-${name}`, page, fn);

    await step('apply', async () => {
      await memberWithBalance(fx.server.base, member, ['200000']);
      await openApp(page, fx.server.base, lang);
      await tid(page, 'welcome-login').click();
      await login(page, lang, member.account, member.password);
      await waitText(tid(page, 'shortcut-blockBidding'), X.shortcut);
      await tid(page, 'shortcut-blockBidding').click();
      await waitHash(page, '/block/list');
      await title(page, X.title);
      const open = tid(page, 'block-item').and(page.locator('[data-status=open]'));
      const cathay = open.filter({ hasText: '2882' });
      const evergreen = open.filter({ hasText: '2603' });
      await cathay.waitFor();
      await waitText(cathay.getByTestId('block-status'), X.open);
      await screen(page, lang, 'block-01-list');

      // The invite-only block refuses a wrong password, from the server.
      await evergreen.getByTestId('block-apply').click();
      await evergreen.getByTestId('block-password').fill('wrong1');
      const refused = nextResponse(page, 'POST', '/api/vue/block/');
      await evergreen.getByTestId('block-apply-submit').click();
      assert.equal((await refused).status, 422);
      await waitToast(page, X.passwordWrong);
      await evergreen.getByTestId('block-apply-cancel').click();

      // A malformed lot count is caught on the form, with nothing sent.
      await cathay.getByTestId('block-apply').click();
      await cathay.getByTestId('block-lots').fill('0');
      await cathay.getByTestId('block-apply-submit').click();
      await waitText(cathay.getByTestId('form-error'), X.lotsInvalid);
      await cathay.getByTestId('block-lots').fill('1');
      await screen(page, lang, 'block-02-apply', { userText: ['1'] });
      const sent = nextResponse(page, 'POST', '/api/vue/block/');
      await cathay.getByTestId('block-apply-submit').click();
      const res = await sent;
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.body.msg, 'block_applied');
      orderNo = res.body.data.orderNo;
      await waitToast(page, X.applied);

      await tid(page, 'block-records-link').click();
      await waitHash(page, '/block/records');
      await title(page, X.records);
      const app = tid(page, 'block-application').and(page.locator(`[data-order-no="${orderNo}"]`));
      await app.waitFor();
      await waitText(app.getByTestId('block-application-status'), X.pending);
      await waitText(app.getByTestId('block-application-lots'), X.oneLot);
      await waitText(app.getByTestId('block-application-filled'), X.noneLots);
      await screen(page, lang, 'block-03-records');
      await logout(page, lang);
    });

    await step('ops approve', async () => {
      await login(page, lang, DEMO.ops.account, DEMO.ops.password, { hash: '/ops/console', testId: 'ops-console-page' });
      await openRoute(page, '/ops/blockApplications');
      const item = tid(page, 'ops-block-application').and(page.locator(`[data-order-no="${orderNo}"]`));
      await item.waitFor();
      assert.equal(await item.getAttribute('data-account'), member.account);
      await screen(page, lang, 'block-04-ops-queue');
      await item.getByTestId('ops-block-approve').click();
      const approved = nextResponse(page, 'POST', `/api/vue/ops/block/applications/${orderNo}/approve`);
      await dialogButton(page, X.approve);
      const res = await approved;
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.body.data.status, 'approved');
      await item.waitFor({ state: 'detached' });
      await logout(page, lang);
    });

    await step('filled into a holding', async () => {
      await login(page, lang, member.account, member.password);
      await openRoute(page, '/block/records');
      const app = tid(page, 'block-application').and(page.locator(`[data-order-no="${orderNo}"]`));
      await page.waitForFunction((no) => document.querySelector(`[data-order-no="${no}"]`)?.getAttribute('data-status') === 'approved', orderNo);
      await waitText(app.getByTestId('block-application-status'), X.approved);
      await waitText(app.getByTestId('block-application-filled'), X.oneLot);
      await screen(page, lang, 'block-05-filled');
      await openRoute(page, '/position/position');
      await tid(page, 'position').and(page.locator(`[data-id="${orderNo}"]`)).waitFor();
      assert.equal(await tid(page, 'position').and(page.locator(`[data-id="${orderNo}"]`)).getAttribute('data-symbol'), '2882');
      await screen(page, lang, 'block-06-holding');
    });
  });
}
