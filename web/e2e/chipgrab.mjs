// Issue 11's chip grabbing in one language, at the phone viewport: a member with a balance opens
// chip grabbing from home, is refused more lots than a member may take, grabs lots of the demo's
// offering and sees them frozen in the records; ops allot the offering; the member sees them
// allotted and the holding in positions.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { login, logout, openApp, screen } from './flows.mjs';
import { memberWithBalance } from './api.mjs';
import { DEMO, dialogButton, freshMobile, nextResponse, openRoute, tid, useFixture, waitHash, waitText, waitToast } from './harness.mjs';

/** The texts these screens show, written out so that a wrong translation fails here. */
const C = {
  tw: { shortcut: '搶籌', title: '搶籌', records: '搶籌紀錄', memberCap: '超過每人可搶張數', claimed: '搶籌成功，資金已凍結待配售', frozen: '待配售', allotted: '已配售', confirm: '確定', lots: '2 張' },
  en: {
    shortcut: 'Chip grabbing',
    title: 'Chip grabbing',
    records: 'My chip bids',
    memberCap: 'Over the lots one member may take',
    claimed: 'Lots taken, funds frozen until allotment',
    frozen: 'Awaiting allotment',
    allotted: 'Allotted',
    confirm: 'Confirm',
    lots: '2 lot(s)',
  },
};

async function title(page, text) {
  await waitText(page.locator('.adm-nav-bar-title').filter({ visible: true }), text);
}

export function chipGrabJourney(lang) {
  const X = C[lang];
  const member = { account: freshMobile(), password: 'Pass1234word' };
  const fx = useFixture({ phone: true });
  let orderNo;

  test(`chip grab: claim, allot, holding (${lang})`, { timeout: 180_000 }, async (t) => {
    const { page } = fx.phone;
    const step = (name, fn) => fx.step(t, `${lang}-chipgrab-${name}`, page, fn);

    await step('claim', async () => {
      await memberWithBalance(fx.server.base, member, ['200000']);
      await openApp(page, fx.server.base, lang);
      await tid(page, 'welcome-login').click();
      await login(page, lang, member.account, member.password);
      await waitText(tid(page, 'shortcut-chipGrab'), X.shortcut);
      await tid(page, 'shortcut-chipGrab').click();
      await waitHash(page, '/chipgrab/list');
      await title(page, X.title);
      const item = tid(page, 'chipgrab-item').and(page.locator('[data-status=open]')).filter({ hasText: '2884' });
      await item.waitFor();
      await waitText(item.getByTestId('chipgrab-left'), /^500 \/ 500/);
      await item.getByTestId('chipgrab-lots').fill('6');
      await item.getByTestId('chipgrab-submit').click();
      await waitText(item.getByTestId('form-error'), X.memberCap);
      await item.getByTestId('chipgrab-lots').fill('2');
      await screen(page, lang, 'chipgrab-01-list', { userText: ['2'] });
      const sent = nextResponse(page, 'POST', '/api/vue/chipgrab/');
      await item.getByTestId('chipgrab-submit').click();
      const res = await sent;
      assert.equal(res.status, 200, JSON.stringify(res.body));
      orderNo = res.body.data.orderNo;
      await waitToast(page, X.claimed);
      await waitText(item.getByTestId('chipgrab-left'), /^498 \/ 500/);

      await tid(page, 'chipgrab-records-link').click();
      await waitHash(page, '/chipgrab/records');
      await title(page, X.records);
      const claim = tid(page, 'chipgrab-claim').and(page.locator(`[data-order-no="${orderNo}"]`));
      await waitText(claim.getByTestId('chipgrab-claim-status'), X.frozen);
      await waitText(claim.getByTestId('chipgrab-claim-lots'), X.lots);
      await screen(page, lang, 'chipgrab-02-records');
      await logout(page, lang);
    });

    await step('ops allot', async () => {
      await login(page, lang, DEMO.ops.account, DEMO.ops.password, { hash: '/ops/console', testId: 'ops-console-page' });
      await openRoute(page, '/ops/chipgrab');
      const off = tid(page, 'ops-chipgrab').and(page.locator('[data-status=open]')).filter({ hasText: '2884' });
      await off.waitFor();
      await screen(page, lang, 'chipgrab-03-ops');
      await off.getByTestId('ops-chipgrab-allot').click();
      const allotted = nextResponse(page, 'POST', '/api/vue/ops/chipgrab/');
      await dialogButton(page, X.confirm);
      const res = await allotted;
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.ok(res.body.data.lots >= 2);
      await logout(page, lang);
    });

    await step('allotted into a holding', async () => {
      await login(page, lang, member.account, member.password);
      await openRoute(page, '/chipgrab/records');
      const claim = tid(page, 'chipgrab-claim').and(page.locator(`[data-order-no="${orderNo}"]`));
      await waitText(claim.getByTestId('chipgrab-claim-status'), X.allotted);
      await openRoute(page, '/position/position');
      const pos = tid(page, 'position').and(page.locator(`[data-id="${orderNo}"]`));
      await pos.waitFor();
      assert.equal(await pos.getAttribute('data-symbol'), '2884');
      await screen(page, lang, 'chipgrab-04-holding');
    });
  });
}
