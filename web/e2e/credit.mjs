// Issue 12's credit loans in one language, at the phone viewport: a member with a fund password
// opens borrow and repay from mine, sees the limit with its rule, is refused above what may be
// borrowed (on the form), applies; ops approve the loan in the review queue; the member sees the
// loan in the records and in the loan assets (debt, borrowed), repays part of it and then all.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { login, logout, openApp, screen } from './flows.mjs';
import { call, memberWithBalance } from './api.mjs';
import { DEMO, dialogButton, freshMobile, nextResponse, openRoute, tid, useFixture, waitHash, waitText, waitToast } from './harness.mjs';

/** The texts these screens show, written out so that a wrong translation fails here. */
const C = {
  tw: {
    menu: '信用借款',
    title: '信用借款',
    records: '借款記錄',
    quota: '借款額度不足',
    applied: '借款申請已送出，等待審核',
    repaid: '還款成功',
    pending: '審核中',
    outstanding: '還款中',
    paidOff: '已還清',
    approve: '通過',
  },
  en: {
    menu: 'Borrow & repay',
    title: 'Credit loans',
    records: 'Loan records',
    quota: 'Loan quota insufficient',
    applied: 'Loan application submitted, pending review',
    repaid: 'Repayment done',
    pending: 'Pending review',
    outstanding: 'Repaying',
    paidOff: 'Repaid',
    approve: 'Approve',
  },
};

async function title(page, text) {
  await waitText(page.locator('.adm-nav-bar-title').filter({ visible: true }), text);
}

export function creditJourney(lang) {
  const X = C[lang];
  const member = { account: freshMobile(), password: 'Pass1234word' };
  const fx = useFixture({ phone: true });
  let orderNo;

  test(`credit: borrow, review, records, repay (${lang})`, { timeout: 180_000 }, async (t) => {
    const { page } = fx.phone;
    const step = (name, fn) => fx.step(t, `${lang}-credit-${name}`, page, fn);

    await step('borrow', async () => {
      const session = await memberWithBalance(fx.server.base, member, ['5000']);
      await call(fx.server.base, 'POST', '/api/vue/user/fundPassword', {
        session,
        body: { loginPassword: member.password, fundPassword: '123456', confirmFundPassword: '123456' },
      });
      await openApp(page, fx.server.base, lang);
      await tid(page, 'welcome-login').click();
      await login(page, lang, member.account, member.password);
      await openRoute(page, '/user/usercenter');
      await waitText(tid(page, 'menu-borrow'), X.menu);
      await tid(page, 'menu-borrow').click();
      await waitHash(page, '/credit/borrow');
      await title(page, X.title);
      await waitText(tid(page, 'credit-loanable'), '100,000.00');
      await waitText(tid(page, 'credit-debt'), '0.00');
      await tid(page, 'credit-rule').waitFor();
      await screen(page, lang, 'credit-01-borrow');

      // Above what may be borrowed: caught on the form, nothing sent.
      await tid(page, 'credit-borrow-amount').fill('100001');
      await tid(page, 'credit-borrow-fund-password').fill('123456');
      await tid(page, 'credit-borrow-submit').click();
      await waitText(tid(page, 'form-error'), X.quota);

      await tid(page, 'credit-borrow-amount').fill('30000');
      const sent = nextResponse(page, 'POST', '/api/vue/credit/loans');
      await tid(page, 'credit-borrow-submit').click();
      const res = await sent;
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.body.msg, 'loan_applied');
      orderNo = res.body.data.orderNo;
      await waitToast(page, X.applied);
      await waitText(tid(page, 'credit-loanable'), '70,000.00');

      await tid(page, 'credit-records-link').click();
      await waitHash(page, '/user/jkjl');
      await title(page, X.records);
      const loan = tid(page, 'credit-loan').and(page.locator(`[data-order-no="${orderNo}"]`));
      await loan.waitFor();
      await waitText(loan.getByTestId('credit-loan-status'), X.pending);
      await screen(page, lang, 'credit-02-records');
      await logout(page, lang);
    });

    await step('ops approve', async () => {
      await login(page, lang, DEMO.ops.account, DEMO.ops.password, { hash: '/ops/console', testId: 'ops-console-page' });
      await openRoute(page, '/ops/credit/loans');
      const item = tid(page, 'ops-credit-loan').and(page.locator(`[data-order-no="${orderNo}"]`));
      await item.waitFor();
      assert.equal(await item.getAttribute('data-account'), member.account);
      await screen(page, lang, 'credit-03-ops-queue');
      await item.getByTestId('ops-credit-approve').click();
      const approved = nextResponse(page, 'POST', `/api/vue/ops/credit/loans/${orderNo}/approve`);
      await dialogButton(page, X.approve);
      const res = await approved;
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.body.data.status, 'outstanding');
      await item.waitFor({ state: 'detached' });
      await logout(page, lang);
    });

    await step('records, assets, repay', async () => {
      await login(page, lang, member.account, member.password);
      await openRoute(page, '/user/jkjl');
      const loan = tid(page, 'credit-loan').and(page.locator(`[data-order-no="${orderNo}"]`));
      await page.waitForFunction((no) => document.querySelector(`[data-order-no="${no}"]`)?.getAttribute('data-status') === 'outstanding', orderNo);
      await waitText(loan.getByTestId('credit-loan-status'), X.outstanding);
      await waitText(loan.getByTestId('credit-loan-debt'), '30,000.00');

      await openRoute(page, '/credit/borrow');
      await waitText(tid(page, 'credit-debt'), '30,000.00');
      await waitText(tid(page, 'credit-borrowed'), '30,000.00');
      await screen(page, lang, 'credit-04-assets');

      // The same figures in the wallet's loans card and in mine (the server's credit summary).
      await openRoute(page, '/wallet/index');
      await waitText(tid(page, 'wallet-loans-outstanding'), '1');
      await waitText(tid(page, 'wallet-debt'), '30,000.00');
      await waitText(tid(page, 'wallet-loanable'), '70,000.00');
      await waitText(tid(page, 'wallet-borrowed'), '30,000.00');
      await screen(page, lang, 'credit-04b-wallet-loans');
      await openRoute(page, '/user/usercenter');
      await waitText(tid(page, 'mine-debt'), '30,000.00');
      await waitText(tid(page, 'mine-loanable'), '70,000.00');
      await waitText(tid(page, 'mine-borrowed'), '30,000.00');
      await screen(page, lang, 'credit-04c-mine-loans');
      await openRoute(page, '/wallet/index');
      await tid(page, 'wallet-borrow').click();
      await waitHash(page, '/credit/borrow');
      await waitText(tid(page, 'credit-debt'), '30,000.00');

      // Part, then the rest.
      const out = tid(page, 'credit-outstanding').and(page.locator(`[data-order-no="${orderNo}"]`));
      await out.getByTestId('credit-repay-open').click();
      await out.getByTestId('credit-repay-amount').fill('10000');
      await out.getByTestId('credit-repay-fund-password').fill('123456');
      let sent = nextResponse(page, 'POST', `/api/vue/credit/loans/${orderNo}/repay`);
      await out.getByTestId('credit-repay-submit').click();
      let res = await sent;
      assert.equal(res.status, 200, JSON.stringify(res.body));
      await waitToast(page, X.repaid);
      await waitText(tid(page, 'credit-debt'), '20,000.00');

      await out.getByTestId('credit-repay-open').click();
      await out.getByTestId('credit-repay-fund-password').fill('123456');
      sent = nextResponse(page, 'POST', `/api/vue/credit/loans/${orderNo}/repay`);
      await out.getByTestId('credit-repay-submit').click();
      res = await sent;
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.body.data.status, 'repaid');
      await waitText(tid(page, 'credit-debt'), '0.00');
      await screen(page, lang, 'credit-05-repaid');

      await openRoute(page, '/user/jkjl');
      await page.waitForFunction((no) => document.querySelector(`[data-order-no="${no}"]`)?.getAttribute('data-status') === 'repaid', orderNo);
      await waitText(loan.getByTestId('credit-loan-status'), X.paidOff);
      await openRoute(page, '/wallet/index');
      await waitText(tid(page, 'wallet-loans-outstanding'), '0');
      await waitText(tid(page, 'wallet-debt'), '0.00');
    });
  });
}
