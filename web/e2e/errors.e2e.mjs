// Refused forms, in both languages: client-side validation stops a form with the translated
// message before it sends; a refusal by the server shows its message key, translated, as a toast.
// Ends with ops rejecting a deposit (a remark is required) and the member seeing why.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { login, logout, openApp, screen, submitLogin, submitRegister } from './flows.mjs';
import { DEMO, freshMobile, newPhone, nextResponse, openRoute, proofPng, tid, useFixture, waitHash, waitText, waitToast } from './harness.mjs';
import { TEXTS } from './texts.mjs';

const fx = useFixture();

/** Submits the form and expects no request to the path, and this message under the form. */
async function refusedLocally(page, submitTestId, path, message) {
  let sent = false;
  const watch = (req) => {
    if (new URL(req.url()).pathname === path) sent = true;
  };
  page.on('request', watch);
  await tid(page, submitTestId).click();
  await waitText(tid(page, 'form-error'), message);
  page.off('request', watch);
  assert.equal(sent, false, `${path} must not be called when the form is invalid`);
}

for (const lang of ['tw', 'en']) {
  const T = TEXTS[lang];
  const M = T.msg;

  test(`refused forms show translated messages (${lang})`, { timeout: 90_000 }, async (t) => {
    const { context, page, pageErrors } = await newPhone(fx.browser);
    const step = (name, fn) => fx.step(t, `${lang}-errors-${name}`, page, fn);
    await openApp(page, fx.server.base, lang);

    await step('login', async () => {
      await openRoute(page, '/login/login');
      await refusedLocally(page, 'login-submit', '/api/vue/user/login', M.account_required);
      assert.equal(await tid(page, 'login-account').getAttribute('aria-invalid'), 'true');
      await tid(page, 'login-account').fill(DEMO.member.account);
      // The message goes as soon as the field it is about changes.
      await waitText(tid(page, 'form-error'), '');
      await refusedLocally(page, 'login-submit', '/api/vue/user/login', M.password_required);
      await tid(page, 'login-password').fill('wrongpass1');
      await refusedLocally(page, 'login-submit', '/api/vue/user/login', M.agreement_required);
      await screen(page, lang, '20-login-invalid');

      const res = await submitLogin(page, DEMO.member.account, 'wrongpass1');
      assert.equal(res.body.msg, 'account_or_password_wrong');
      assert.ok(res.status >= 400 && res.status < 500, `status ${res.status}`);
      await waitToast(page, M.account_or_password_wrong);
      await screen(page, lang, '21-login-refused', { toasts: true });
      await waitHash(page, '/login/login');
      // An unknown account gets the very same answer: the screen does not tell who has an account.
      const unknown = await submitLogin(page, freshMobile(), 'wrongpass1');
      assert.deepEqual([unknown.status, unknown.body.msg], [res.status, res.body.msg]);
      await waitToast(page, M.account_or_password_wrong);
      await waitHash(page, '/login/login');
    });

    await step('register', async () => {
      await openRoute(page, '/login/register');
      await refusedLocally(page, 'register-submit', '/api/vue/user/register', M.account_required);
      await tid(page, 'register-account').fill('12345');
      await refusedLocally(page, 'register-submit', '/api/vue/user/register', M.account_invalid);
      await tid(page, 'register-account').fill(freshMobile());
      await refusedLocally(page, 'register-submit', '/api/vue/user/register', M.password_required);
      await tid(page, 'register-password').fill('short');
      await refusedLocally(page, 'register-submit', '/api/vue/user/register', M.password_invalid);
      await tid(page, 'register-password').fill('Pass1234word');
      await tid(page, 'register-confirm').fill('Pass1234wordX');
      await refusedLocally(page, 'register-submit', '/api/vue/user/register', M.passwords_inconsistent);
      await tid(page, 'register-confirm').fill('Pass1234word');
      await refusedLocally(page, 'register-submit', '/api/vue/user/register', M.invite_code_required);
      await tid(page, 'register-invite').fill('LOTBOOK');
      await refusedLocally(page, 'register-submit', '/api/vue/user/register', M.agreement_required);
      await screen(page, lang, '22-register-invalid');

      // The demo member exists already.
      const res = await submitRegister(page, { account: DEMO.member.account, password: 'Pass1234word' });
      assert.equal(res.body.msg, 'account_exists');
      assert.ok(res.status >= 400 && res.status < 500, `status ${res.status}`);
      await waitToast(page, M.account_exists);
      await screen(page, lang, '23-register-refused', { toasts: true });
      await waitHash(page, '/login/register');
      assert.equal(await page.evaluate(() => localStorage.getItem('tokend')), null, 'no session after a refused registration');
    });

    await step('deposit', async () => {
      await openRoute(page, '/login/login');
      await login(page, lang, DEMO.member.account, DEMO.member.password);
      await openRoute(page, '/user/rechargeChannel?id=bank');
      await tid(page, 'deposit-form').waitFor();
      const path = '/api/vue/funds/deposits';
      await refusedLocally(page, 'deposit-submit', path, M.amount_required);
      await waitToast(page, M.amount_required);
      await tid(page, 'deposit-amount').fill('500');
      await refusedLocally(page, 'deposit-submit', path, M.amount_below_minimum);
      await tid(page, 'deposit-amount').fill('2000000');
      await refusedLocally(page, 'deposit-submit', path, M.amount_above_maximum);
      await tid(page, 'deposit-amount').fill('1500');
      await refusedLocally(page, 'deposit-submit', path, M.deposit_proof_required);
      await screen(page, lang, '24-deposit-invalid');

      const uploaded = nextResponse(page, 'POST', '/api/vue/files');
      await page.locator('[data-testid=deposit-proof] input[type=file]').setInputFiles({ name: 'proof.png', mimeType: 'image/png', buffer: proofPng() });
      assert.equal((await uploaded).status, 200);
      await page.locator('[data-testid=deposit-proof] .adm-image-uploader-cell-image').waitFor();
      await page.locator('[data-testid=deposit-proof] .adm-image-uploader-cell-mask').waitFor({ state: 'detached' });
      await tid(page, 'deposit-channel-password').fill('0000');
      const sent = nextResponse(page, 'POST', path);
      await tid(page, 'deposit-submit').click();
      const res = await sent;
      assert.equal(res.body.msg, 'channel_password_wrong');
      assert.ok(res.status >= 400 && res.status < 500, `status ${res.status}`);
      await waitToast(page, M.channel_password_wrong);
      await screen(page, lang, '25-deposit-refused', { toasts: true });
      // The form stays, with what was entered, for another try.
      await waitHash(page, '/user/rechargeChannel?id=bank');
      assert.equal(await tid(page, 'deposit-amount').inputValue(), '1500');
    });

    await step('ops rejects with a remark', async () => {
      // The refused form from the step before, now with the right channel password.
      await tid(page, 'deposit-channel-password').fill('8888');
      const sent = nextResponse(page, 'POST', '/api/vue/funds/deposits');
      await tid(page, 'deposit-submit').click();
      const res = await sent;
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const orderNo = res.body.data.orderNo;
      await waitHash(page, '/user/FundingDetails');
      await logout(page, lang);

      await login(page, lang, DEMO.ops.account, DEMO.ops.password, { hash: '/ops/console', testId: 'ops-console-page' });
      await openRoute(page, '/ops/deposits');
      const item = tid(page, 'ops-deposit').and(page.locator(`[data-order-no="${orderNo}"]`));
      await item.getByTestId('ops-reject').click();
      await refusedLocally(page, 'ops-reject-confirm', `/api/vue/ops/deposits/${orderNo}/reject`, M.remark_required);
      await item.getByTestId('ops-reject-remark').fill(T.rejectRemark);
      await screen(page, lang, '26-ops-reject');
      const rejected = nextResponse(page, 'POST', `/api/vue/ops/deposits/${orderNo}/reject`);
      await item.getByTestId('ops-reject-confirm').click();
      const r = await rejected;
      assert.equal(r.status, 200, JSON.stringify(r.body));
      assert.equal(r.body.data.status, 'rejected');
      await waitToast(page, T.rejectedToast);
      await item.waitFor({ state: 'detached' });
      await logout(page, lang);

      await login(page, lang, DEMO.member.account, DEMO.member.password);
      await tid(page, 'shortcut-fundRecords').click();
      await waitHash(page, '/user/FundingDetails');
      const rec = tid(page, 'fund-record').and(page.locator(`[data-order-no="${orderNo}"]`));
      await waitText(rec.getByTestId('fund-record-status'), T.statusRejected);
      await waitText(rec.getByTestId('fund-record-remark'), T.rejectRemark);
      assert.equal(await rec.getAttribute('data-status'), 'rejected');
      // The other language's run rejected one of the demo member's deposits too.
      await screen(page, lang, '27-fund-records-rejected', { userText: [TEXTS.tw.rejectRemark] });
    });

    assert.deepEqual(pageErrors.map(String), [], 'no uncaught errors in the page');
    await context.close();
  });
}
