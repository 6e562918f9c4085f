// The member's first deposit, end to end, in one language: register with the demo invite code,
// log in, deposit with a proof image, ops approves after seeing the proof, the member sees the
// balance on mine and the approved record, the auditor sees the balance in the timeline.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { login, logout, openApp, screen, submitRegister } from './flows.mjs';
import { DEMO, dialogButton, freshMobile, money, nextResponse, openRoute, proofPng, tid, useFixture, waitHash, waitText, waitToast } from './harness.mjs';
import { TEXTS } from './texts.mjs';

export function journey(lang, amount) {
  const T = TEXTS[lang];
  const member = { account: freshMobile(), password: 'Pass1234word' };
  const fx = useFixture({ phone: true });
  let orderNo;

  test(`first deposit journey (${lang})`, { timeout: 120_000 }, async (t) => {
    const { page } = fx.phone;
    const step = (name, fn) => fx.step(t, `${lang}-${name}`, page, fn);

    await step('register', async () => {
      await openApp(page, fx.server.base, lang);
      await screen(page, lang, '01-welcome');
      await waitText(tid(page, 'welcome-register'), T.welcomeRegister);
      await tid(page, 'welcome-register').click();
      await waitHash(page, '/login/register');
      await screen(page, lang, '02-register');
      const res = await submitRegister(page, member);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.body.data.account, member.account);
      await waitToast(page, T.registerSuccess);
      await waitHash(page, '/home/index');
      await tid(page, 'home-page').waitFor();
    });

    await step('log in', async () => {
      await logout(page, lang);
      await screen(page, lang, '03-login');
      await login(page, lang, member.account, member.password);
      await waitText(tid(page, 'home-total'), '0.00');
      await waitText(tid(page, 'tab-home'), T.tabHome);
      assert.match(await tid(page, 'tab-home').getAttribute('class'), /\bnavActive\b/);
      await screen(page, lang, '04-home');
    });

    await step('deposit', async () => {
      await tid(page, 'shortcut-deposit').click();
      await waitHash(page, '/user/recharge');
      await tid(page, 'channel-bank').waitFor();
      await waitText(tid(page, 'channel-limits'), /TWD 1,000\.00 .* 1,000,000\.00/);
      await screen(page, lang, '05-recharge');
      await tid(page, 'channel-bank').click();
      await waitHash(page, '/user/rechargeChannel?id=bank');
      await tid(page, 'deposit-form').waitFor();
      await tid(page, 'deposit-amount').fill(amount);

      const uploaded = nextResponse(page, 'POST', '/api/vue/files');
      await page.locator('[data-testid=deposit-proof] input[type=file]').setInputFiles({ name: 'proof.png', mimeType: 'image/png', buffer: proofPng() });
      const up = await uploaded;
      assert.equal(up.status, 200, JSON.stringify(up.body));
      // The preview replaces the pending cell once the upload is done.
      await page.locator('[data-testid=deposit-proof] .adm-image-uploader-cell-image').waitFor();
      await page.locator('[data-testid=deposit-proof] .adm-image-uploader-cell-mask').waitFor({ state: 'detached' });

      await tid(page, 'deposit-channel-password').fill('8888');
      await screen(page, lang, '06-deposit');
      const sent = nextResponse(page, 'POST', '/api/vue/funds/deposits');
      await tid(page, 'deposit-submit').click();
      const res = await sent;
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.body.data.status, 'pending');
      orderNo = res.body.data.orderNo;
      await waitToast(page, T.submitted);
      await waitHash(page, '/user/FundingDetails');
      const rec = tid(page, 'fund-record').and(page.locator(`[data-order-no="${orderNo}"]`));
      await rec.waitFor();
      assert.equal(await rec.getAttribute('data-status'), 'pending');
      await waitText(rec.getByTestId('fund-record-status'), T.statusPending);
      await waitText(rec.getByTestId('fund-record-amount'), `TWD ${money(amount)}`);
      await screen(page, lang, '07-fund-records-pending');
      await logout(page, lang);
    });

    await step('ops approves', async () => {
      await login(page, lang, DEMO.ops.account, DEMO.ops.password, { hash: '/ops/console', testId: 'ops-console-page' });
      await openRoute(page, '/ops/deposits');
      const item = tid(page, 'ops-deposit').and(page.locator(`[data-order-no="${orderNo}"]`));
      await item.waitFor();
      assert.equal(await item.getAttribute('data-account'), member.account);
      // The proof is fetched with the session headers and shown as a decoded image.
      const img = item.locator('[data-testid=ops-deposit-proof] img');
      await img.waitFor();
      await page.waitForFunction((el) => el.complete && el.naturalWidth > 0, await img.elementHandle());
      await screen(page, lang, '08-ops-queue');
      await item.getByTestId('ops-approve').click();
      await page.locator('.adm-dialog-content').filter({ hasText: money(amount) }).waitFor();
      const approved = nextResponse(page, 'POST', `/api/vue/ops/deposits/${orderNo}/approve`);
      await dialogButton(page, T.approve);
      const res = await approved;
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.body.data.status, 'approved');
      await waitToast(page, T.approvedToast);
      await item.waitFor({ state: 'detached' });
      await tid(page, 'ops-tab-approved').click();
      await tid(page, 'ops-deposit').and(page.locator(`[data-order-no="${orderNo}"]`)).waitFor();
      await screen(page, lang, '09-ops-approved');
      await logout(page, lang);
    });

    await step('member sees the balance', async () => {
      await login(page, lang, member.account, member.password);
      await waitText(tid(page, 'home-total'), money(amount));
      await tid(page, 'tab-mine').click();
      await waitHash(page, '/user/usercenter');
      await waitText(tid(page, 'tab-mine'), T.tabMine);
      await waitText(tid(page, 'asset-available'), money(amount));
      await waitText(tid(page, 'asset-total'), money(amount));
      await waitText(tid(page, 'asset-frozen'), '0.00');
      await waitText(tid(page, 'user-account'), member.account);
      await screen(page, lang, '10-mine');
      await tid(page, 'menu-fund-records').click();
      await waitHash(page, '/user/FundingDetails');
      const rec = tid(page, 'fund-record').and(page.locator(`[data-order-no="${orderNo}"]`));
      await rec.waitFor();
      await waitText(rec.getByTestId('fund-record-status'), T.statusApproved);
      assert.equal(await rec.getAttribute('data-status'), 'approved');
      await screen(page, lang, '11-fund-records-approved');
      await logout(page, lang);
    });

    await step('auditor sees the timeline', async () => {
      await login(page, lang, DEMO.auditor.account, DEMO.auditor.password, { hash: '/audit/timeline', testId: 'audit-page' });
      await tid(page, 'audit-account').fill(member.account);
      const got = nextResponse(page, 'GET', `/api/vue/audit/accounts/${member.account}/timeline`);
      await tid(page, 'audit-search').click();
      const res = await got;
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const events = res.body.data.items;
      await page.locator('[data-testid=timeline-event]').nth(events.length - 1).waitFor();
      // The approval posts the amount, and the balance after it (and after every later event,
      // such as the logout) is the amount available, none frozen.
      const approval = events.find((e) => e.postings.some((p) => Number(p.amount) === Number(amount)));
      assert.ok(approval, `an event posts ${amount}: ${JSON.stringify(events.map((e) => e.type))}`);
      const atApproval = page.locator(`[data-testid=timeline-event][data-position="${approval.position}"] [data-testid=timeline-balance-TWD]`);
      assert.equal(Number(await atApproval.getAttribute('data-available')), Number(amount));
      assert.equal(Number(await atApproval.getAttribute('data-frozen')), 0);
      await waitText(atApproval, new RegExp(money(amount).replace(/[.,]/g, '\\$&')));
      const last = page.locator('[data-testid=timeline-balance-TWD]').last();
      assert.equal(Number(await last.getAttribute('data-available')), Number(amount));
      await screen(page, lang, '12-audit-timeline');
    });

    assert.deepEqual(fx.phone.pageErrors.map(String), [], 'no uncaught errors in the page');
  });
}
