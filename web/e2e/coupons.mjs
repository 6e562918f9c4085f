// Issue 13's daily check-in and coupons in one language, at the phone viewport: a member opens
// check-in from home, checks in (the streak and the day's coupon appear), and a second screen
// opened before it is answered "check-in done" by the server; the member applies the coupon on
// the order ticket (its use is taken); ops grant a coupon with a reason, which the member sees.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { login, logout, openApp, screen } from './flows.mjs';
import { memberWithBalance } from './api.mjs';
import { DEMO, dialogButton, freshMobile, nextResponse, openRoute, tid, useFixture, waitHash, waitText, waitToast } from './harness.mjs';

/** The texts these screens show, written out so that a wrong translation fails here. */
const C = {
  tw: {
    shortcut: '簽到領券',
    title: '簽到領券',
    checkIn: '立即簽到',
    checkedIn: '今日已簽到',
    success: '簽到成功',
    done: '今日已簽到',
    streak: '1 天',
    value: '折抵 5.00',
    usable: '可使用',
    place: '確認下單',
    left0: '剩餘 0 / 1 次',
    granted: '已發放優惠券',
    opsValue: '折抵 30.00',
    opsLeft: '剩餘 2 / 2 次',
  },
  en: {
    shortcut: 'Check-in',
    title: 'Check-in & coupons',
    checkIn: 'Check in',
    checkedIn: 'Check-in done',
    success: 'Checked in',
    done: 'Check-in done for today',
    streak: '1 day(s)',
    value: '5.00 off',
    usable: 'Usable',
    place: 'Place order',
    left0: '0 / 1 use(s) left',
    granted: 'Coupon granted',
    opsValue: '30.00 off',
    opsLeft: '2 / 2 use(s) left',
  },
};

async function title(page, text) {
  await waitText(page.locator('.adm-nav-bar-title').filter({ visible: true }), text);
}

export function couponsJourney(lang) {
  const X = C[lang];
  const member = { account: freshMobile(), password: 'Pass1234word' };
  const fx = useFixture({ phone: true });

  test(`check-in and coupons (${lang})`, { timeout: 180_000 }, async (t) => {
    const { page, context } = fx.phone;
    const step = (name, fn) => fx.step(t, `${lang}-coupons-${name}`, page, fn);

    await step('check in twice in a day', async () => {
      await memberWithBalance(fx.server.base, member, ['200000']);
      await openApp(page, fx.server.base, lang);
      await tid(page, 'welcome-login').click();
      await login(page, lang, member.account, member.password);
      await waitText(tid(page, 'shortcut-coupons'), X.shortcut);
      await tid(page, 'shortcut-coupons').click();
      await waitHash(page, '/home/coupons');
      await title(page, X.title);
      await waitText(tid(page, 'checkin-button'), X.checkIn);
      // A second screen of the same session, opened before the check-in (another tab, another device).
      const other = await context.newPage();
      await other.goto(page.url());
      await waitText(tid(other, 'checkin-button'), X.checkIn);
      await screen(page, lang, 'coupons-01-before');

      const sent = nextResponse(page, 'POST', '/api/vue/checkin');
      await tid(page, 'checkin-button').click();
      const res = await sent;
      assert.equal(res.status, 200, JSON.stringify(res.body));
      await waitToast(page, X.success);
      await waitText(tid(page, 'checkin-button'), X.checkedIn);
      assert.equal(await tid(page, 'checkin-button').isDisabled(), true);
      await waitText(tid(page, 'checkin-streak'), X.streak);
      assert.equal(await tid(page, 'checkin-day').and(page.locator('[data-done="1"]')).count(), 1);
      const coupon = tid(page, 'coupon-item').and(page.locator(`[data-coupon-id="${res.body.data.couponId}"]`));
      await waitText(coupon.getByTestId('coupon-value'), X.value);
      await waitText(coupon.getByTestId('coupon-status'), X.usable);
      await screen(page, lang, 'coupons-02-checked-in');

      // The stale screen checks in again: the server answers "check-in done" and writes nothing.
      const again = nextResponse(other, 'POST', '/api/vue/checkin');
      await tid(other, 'checkin-button').click();
      const res2 = await again;
      assert.equal(res2.status, 422, JSON.stringify(res2.body));
      assert.equal(res2.body.msg, 'checkin_done');
      await waitToast(other, X.done);
      await waitText(tid(other, 'checkin-button'), X.checkedIn);
      await waitText(tid(other, 'checkin-streak'), X.streak);
      await other.close();
    });

    await step('the coupon on the order ticket', async () => {
      await openRoute(page, '/market/marketBuy?symbol=2882&side=buy');
      await tid(page, 'ticket-coupon').waitFor();
      const options = await tid(page, 'ticket-coupon').locator('option').count();
      assert.equal(options, 2); // none, and the day's coupon
      await tid(page, 'ticket-coupon').selectOption({ index: 1 });
      await tid(page, 'ticket-qty').fill('1');
      await screen(page, lang, 'coupons-03-ticket');
      await tid(page, 'ticket-submit').click();
      const applied = nextResponse(page, 'POST', '/api/vue/coupons/');
      await dialogButton(page, X.place);
      const res = await applied;
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.ok(['reserved', 'redeemed'].includes(res.body.data.status), JSON.stringify(res.body));
      await waitHash(page, '/position/position');
      await openRoute(page, '/home/coupons');
      await waitText(tid(page, 'coupon-item').first().getByTestId('coupon-left'), X.left0);
      await logout(page, lang);
    });

    await step('ops grant a coupon', async () => {
      await login(page, lang, DEMO.ops.account, DEMO.ops.password, { hash: '/ops/console', testId: 'ops-console-page' });
      await openRoute(page, '/ops/coupons');
      await tid(page, 'coupon-grant-form').waitFor();
      await tid(page, 'coupon-grant-account').fill(member.account);
      await tid(page, 'coupon-grant-value').fill('30');
      await tid(page, 'coupon-grant-uses').fill('2');
      await tid(page, 'coupon-grant-reason').fill('goodwill');
      const granted = nextResponse(page, 'POST', '/api/vue/ops/coupons');
      await tid(page, 'coupon-grant-submit').click();
      const res = await granted;
      assert.equal(res.status, 200, JSON.stringify(res.body));
      await waitToast(page, X.granted);
      await tid(page, 'ops-coupon').filter({ hasText: member.account }).first().waitFor();
      await screen(page, lang, 'coupons-04-ops');
      await logout(page, lang);

      await login(page, lang, member.account, member.password);
      await openRoute(page, '/home/coupons');
      const c = tid(page, 'coupon-item').and(page.locator(`[data-coupon-id="${res.body.data.couponId}"]`));
      await waitText(c.getByTestId('coupon-value'), X.opsValue);
      await waitText(c.getByTestId('coupon-left'), X.opsLeft);
      await waitText(tid(page, 'checkin-button'), X.checkedIn);
      await screen(page, lang, 'coupons-05-granted');
    });
  });
}
