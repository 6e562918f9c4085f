// Issue 6's money journey in one language, through the screens at the phone viewport: a new member
// (given a balance through the API: the deposit screens have their own journey) verifies the
// identity, ops approves it seeing both photos and the ID number in the clear, the member binds a
// card, sets the fund password, withdraws on the number keyboard, ops approves the withdrawal, the
// member sees it in fund records; then exchanges TWD to USD and sees mine's USD amount change.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { login, logout, openApp, screen } from './flows.mjs';
import { memberWithBalance } from './api.mjs';
import { DEMO, dialogButton, freshMobile, imageShown, money, nextResponse, openRoute, proofPng, tid, title, useFixture, waitHash, waitText, waitToast } from './harness.mjs';
import { TEXTS } from './texts.mjs';

/** The texts these screens show, written out so that a wrong translation fails here. */
const W = {
  tw: {
    unverified: '未認證',
    pending: '審核中',
    verified: '已認證',
    realNameSubmitted: '已提交，等待審核',
    approve: '通過',
    approved: '已通過',
    cardBound: '銀行卡已綁定',
    fundSaved: '資金密碼已儲存',
    withdrawSubmitted: '提領申請已送出，等待審核',
    statusPending: '待審核',
    statusApproved: '已通過',
    exchanged: '兌換成功',
    withdrawTitle: '提領',
    exchangeTitle: '匯款換匯',
    realNameTitle: '實名認證',
    cardsTitle: '銀行卡管理',
    withCardTitle: '綁定銀行卡',
    creditTitle: '信用分規則',
    limits: /單筆 TWD 100\.00 – 500,000\.00/,
    countdown: /報價有效 00:(30|2\d)/,
    totalLabel: '總資產（全幣別折合NT$）',
    name: '王小明',
  },
  en: {
    unverified: 'Not verified',
    pending: 'Under review',
    verified: 'Verified',
    realNameSubmitted: 'Submitted, awaiting review',
    approve: 'Approve',
    approved: 'Approved',
    cardBound: 'Bank card bound',
    fundSaved: 'Fund password saved',
    withdrawSubmitted: 'Withdrawal requested, waiting for review',
    statusPending: 'Pending review',
    statusApproved: 'Passed',
    exchanged: 'Exchanged',
    withdrawTitle: 'Withdraw',
    exchangeTitle: 'Currency exchange',
    realNameTitle: 'Real-name verification',
    cardsTitle: 'Bank cards',
    withCardTitle: 'Add a bank card',
    creditTitle: 'Credit score rule',
    limits: /Per withdrawal TWD 100\.00 – 500,000\.00/,
    countdown: /Quote valid for 00:(30|2\d)/,
    totalLabel: 'Total assets, all currencies in NT$',
    name: 'Wang Hsiao-ming',
  },
};

/** A random valid Taiwan ID number (letter A: code 10, so the letter adds 1 to the sum). */
export function freshTaiwanId() {
  const digits = [1 + Math.floor(Math.random() * 2), ...Array.from({ length: 7 }, () => Math.floor(Math.random() * 10))];
  const sum = 1 + digits.reduce((s, d, i) => s + d * (8 - i), 0);
  return `A${digits.join('')}${(10 - (sum % 10)) % 10}`;
}


export function walletJourney(lang) {
  const T = TEXTS[lang];
  const X = W[lang];
  const member = { account: freshMobile(), password: 'Pass1234word' };
  const idNumber = freshTaiwanId();
  // Taiwan's terms (issue 13.8): the bank chosen from the list by its code, a 4-digit branch code.
  const card = { bank: lang === 'tw' ? '臺灣銀行' : 'Bank of Taiwan', branch: '0037', number: `0040${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`, code: '004' };
  const deposit = '20000';
  const withdrawAmount = '1500';
  const exchangeAmount = '3000';
  const fx = useFixture({ phone: true });
  let orderNo;

  test(`identity, card, withdrawal and exchange (${lang})`, { timeout: 180_000 }, async (t) => {
    const { page } = fx.phone;
    const step = (name, fn) => fx.step(t, `${lang}-wallet-${name}`, page, fn);

    await step('verify identity', async () => {
      await memberWithBalance(fx.server.base, member, [deposit]);
      await openApp(page, fx.server.base, lang);
      await tid(page, 'welcome-login').click();
      await login(page, lang, member.account, member.password);
      await tid(page, 'tab-mine').click();
      await waitHash(page, '/user/usercenter');
      await waitText(tid(page, 'asset-available'), money(deposit));
      assert.equal(await tid(page, 'verification-badge').getAttribute('data-status'), 'unverified');
      await waitText(tid(page, 'verification-badge'), X.unverified);
      await waitText(tid(page, 'user-credit-score'), /100/);
      await waitText(tid(page, 'asset-usd'), '0.00');
      await screen(page, lang, 'wallet-01-mine');

      await tid(page, 'menu-realname').click();
      await waitHash(page, '/user/bandCard');
      await title(page, X.realNameTitle);
      await tid(page, 'realname-form').waitFor();
      await tid(page, 'realname-name').fill(X.name);
      await tid(page, 'realname-id').fill(idNumber.toLowerCase());
      assert.equal(await tid(page, 'realname-id').inputValue(), idNumber, 'the ID number is upper-cased as typed');
      for (const [side, png] of [
        ['front', proofPng(64, 40)],
        ['back', proofPng(40, 64)],
      ]) {
        const up = nextResponse(page, 'POST', '/api/vue/files');
        await page.locator(`[data-testid=realname-${side}] input[type=file]`).setInputFiles({ name: `${side}.png`, mimeType: 'image/png', buffer: png });
        assert.equal((await up).status, 200);
        await page.locator(`[data-testid=realname-${side}] .adm-image-uploader-cell-image`).waitFor();
        await page.locator(`[data-testid=realname-${side}] .adm-image-uploader-cell-mask`).waitFor({ state: 'detached' });
      }
      await screen(page, lang, 'wallet-02-realname-form', { userText: [X.name] });
      const sent = nextResponse(page, 'POST', '/api/vue/user/realname');
      await tid(page, 'realname-submit').click();
      const res = await sent;
      assert.equal(res.status, 200, JSON.stringify(res.body));
      await waitToast(page, X.realNameSubmitted);
      const status = tid(page, 'realname-status');
      await page.waitForFunction((el) => el.dataset.status === 'pending', await status.elementHandle());
      await waitText(tid(page, 'realname-badge'), X.pending);
      // Masked: the first three and last three characters only.
      await waitText(tid(page, 'realname-id-masked'), `${idNumber.slice(0, 3)}****${idNumber.slice(-3)}`);
      assert.equal(await tid(page, 'realname-form').count(), 0, 'no form while under review');
      await screen(page, lang, 'wallet-03-realname-pending', { userText: [X.name] });
      await logout(page, lang);
    });

    await step('ops approves the identity', async () => {
      await login(page, lang, DEMO.ops.account, DEMO.ops.password, { hash: '/ops/console', testId: 'ops-console-page' });
      await openRoute(page, '/ops/deposits');
      await tid(page, 'ops-nav-realname').click();
      await waitHash(page, '/ops/realname');
      const item = tid(page, 'ops-realname').and(page.locator(`[data-account="${member.account}"]`));
      await item.waitFor();
      await waitText(item.getByTestId('ops-realname-id'), idNumber);
      await waitText(item.getByTestId('ops-realname-name'), X.name);
      await imageShown(page, item.getByTestId('ops-realname-front'));
      await imageShown(page, item.getByTestId('ops-realname-back'));
      await screen(page, lang, 'wallet-04-ops-realname', { userText: [X.name] });
      await item.getByTestId('ops-realname-approve').click();
      await page.locator('.adm-dialog-content').filter({ hasText: X.name }).waitFor();
      const approved = nextResponse(page, 'POST', `/api/vue/ops/realname/${member.account}/approve`);
      await dialogButton(page, X.approve);
      const res = await approved;
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.body.data.status, 'verified');
      await waitToast(page, X.approved);
      await item.waitFor({ state: 'detached' });
      await logout(page, lang);
    });

    await step('bind a card', async () => {
      await login(page, lang, member.account, member.password);
      await openRoute(page, '/user/usercenter');
      await page.waitForFunction(() => document.querySelector('[data-testid=verification-badge]')?.getAttribute('data-status') === 'verified');
      await waitText(tid(page, 'verification-badge'), X.verified);
      await tid(page, 'menu-bank-cards').click();
      await waitHash(page, '/user/BankCard');
      await title(page, X.cardsTitle);
      await tid(page, 'list-empty').waitFor();
      await screen(page, lang, 'wallet-05-cards-empty');
      await tid(page, 'bank-card-add').click();
      await waitHash(page, '/user/WithCard');
      await title(page, X.withCardTitle);
      await tid(page, 'card-form').waitFor();
      // The holder is the verified name, filled in.
      assert.equal(await tid(page, 'card-holderName').inputValue(), X.name);
      // IFSC and UPI are not asked: no channel enables them.
      assert.equal(await page.getByTestId('card-ifsc').count(), 0);
      assert.equal(await page.getByTestId('card-upi').count(), 0);
      await tid(page, 'card-bankCode').selectOption(card.code);
      assert.equal(await tid(page, 'card-bankCode').evaluate((el) => el.selectedOptions[0].textContent), `${card.code} ${card.bank}`);
      await tid(page, 'card-branch').fill(card.branch);
      await tid(page, 'card-cardNumber').fill(card.number);
      await screen(page, lang, 'wallet-06-with-card', { userText: [X.name, card.bank, card.branch] });
      const sent = nextResponse(page, 'POST', '/api/vue/user/cards');
      await tid(page, 'card-submit').click();
      const res = await sent;
      assert.equal(res.status, 200, JSON.stringify(res.body));
      await waitToast(page, X.cardBound);
      await waitHash(page, '/user/BankCard');
      const bound = tid(page, 'bank-card').and(page.locator(`[data-last4="${card.number.slice(-4)}"]`));
      await bound.waitFor();
      await waitText(bound.getByTestId('bank-card-number'), `**** ${card.number.slice(-4)}`);
      assert.doesNotMatch(await bound.innerText(), new RegExp(card.number), 'the full number is never shown');
      await waitText(bound.getByTestId('bank-card-bank'), card.bank);
      await waitText(bound.getByTestId('bank-card-branch'), new RegExp(`${card.branch}$`));
      await screen(page, lang, 'wallet-07-cards', { userText: [X.name, card.bank, card.branch] });
    });

    await step('withdraw', async () => {
      await openRoute(page, '/user/usercenter');
      await tid(page, 'usercenter-withdraw').click();
      await waitHash(page, '/user/withdraw');
      await title(page, X.withdrawTitle);
      await waitText(tid(page, 'withdraw-limits'), X.limits);
      // A new member has no fund password yet: set it from here.
      await tid(page, 'withdraw-set-fund-password').click();
      await waitHash(page, '/user/setPassword');
      await tid(page, 'fund-password-form').waitFor();
      assert.equal(await tid(page, 'fund-password-form').getAttribute('data-mode'), 'set');
      await tid(page, 'fund-login-password').fill(member.password);
      for (const id of ['fund-new', 'fund-confirm']) {
        await tid(page, id).click();
        await page.keyboard.type('246810');
      }
      await tid(page, 'fund-submit').click();
      await waitToast(page, X.fundSaved);
      await waitHash(page, '/user/withdraw');
      await tid(page, 'withdraw-form').waitFor();
      await tid(page, 'withdraw-no-fund-password').waitFor({ state: 'detached' });
      const option = tid(page, `withdraw-card-${card.number.slice(-4)}`);
      await option.click();
      assert.equal(await option.getAttribute('aria-checked'), 'true');
      await waitText(tid(page, 'withdraw-available'), new RegExp(money(deposit).replace(/[.,]/g, '\\$&')));
      // "All" fills exactly the withdrawable figure the server serves.
      const withdrawable = await tid(page, 'withdraw-available').getAttribute('data-available');
      await tid(page, 'withdraw-all').click();
      assert.equal(Number(await tid(page, 'withdraw-amount').inputValue()), Number(withdrawable));
      await tid(page, 'withdraw-amount').fill(withdrawAmount);
      await screen(page, lang, 'wallet-08-withdraw', { userText: [card.bank] });
      await tid(page, 'withdraw-submit').click();
      await tid(page, 'withdraw-passcode-popup').waitFor();
      const keyboard = page.locator('.adm-number-keyboard-wrapper').filter({ visible: true });
      await keyboard.waitFor();
      await screen(page, lang, 'wallet-09-fund-password', { userText: [card.bank] });
      const sent = nextResponse(page, 'POST', '/api/vue/funds/withdrawals');
      for (const d of '246810') await keyboard.locator('.adm-number-keyboard-key').filter({ hasText: new RegExp(`^${d}$`) }).click();
      const res = await sent;
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.body.data.status, 'pending');
      orderNo = res.body.data.orderNo;
      await waitToast(page, X.withdrawSubmitted);
      await waitHash(page, '/user/FundingDetails?tab=withdraw');
      const rec = tid(page, 'records-withdraw').locator(`[data-testid=fund-record][data-order-no="${orderNo}"]`);
      await rec.waitFor();
      await waitText(rec.getByTestId('fund-record-status'), X.statusPending);
      await waitText(rec.getByTestId('fund-record-amount'), `TWD ${money(withdrawAmount)}`);
      await waitText(rec.getByTestId('fund-record-card'), `${card.bank} **** ${card.number.slice(-4)}`);
      await screen(page, lang, 'wallet-10-records-withdraw-pending', { userText: [card.bank] });
      await logout(page, lang);
    });

    await step('ops approves the withdrawal', async () => {
      await login(page, lang, DEMO.ops.account, DEMO.ops.password, { hash: '/ops/console', testId: 'ops-console-page' });
      await openRoute(page, '/ops/deposits');
      await tid(page, 'ops-nav-withdrawals').click();
      await waitHash(page, '/ops/withdrawals');
      const item = tid(page, 'ops-withdrawal').and(page.locator(`[data-order-no="${orderNo}"]`));
      await item.waitFor();
      assert.equal(await item.getAttribute('data-account'), member.account);
      await waitText(item.getByTestId('ops-withdrawal-card'), `**** ${card.number.slice(-4)}`);
      await screen(page, lang, 'wallet-11-ops-withdrawals', { userText: [X.name, card.bank, card.branch] });
      await item.getByTestId('ops-withdrawal-approve').click();
      await page.locator('.adm-dialog-content').filter({ hasText: money(withdrawAmount) }).waitFor();
      const approved = nextResponse(page, 'POST', `/api/vue/ops/withdrawals/${orderNo}/approve`);
      await dialogButton(page, X.approve);
      const res = await approved;
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.body.data.status, 'approved');
      await waitToast(page, X.approved);
      await item.waitFor({ state: 'detached' });
      await logout(page, lang);
    });

    await step('the withdrawal in fund records', async () => {
      await login(page, lang, member.account, member.password);
      await openRoute(page, '/user/usercenter');
      const left = Number(deposit) - Number(withdrawAmount);
      await waitText(tid(page, 'asset-available'), money(left));
      await tid(page, 'menu-fund-records').click();
      await waitHash(page, '/user/FundingDetails');
      await tid(page, 'tab-withdraw').click();
      const rec = tid(page, 'records-withdraw').locator(`[data-testid=fund-record][data-order-no="${orderNo}"]`);
      await rec.waitFor();
      await waitText(rec.getByTestId('fund-record-status'), X.statusApproved);
      assert.equal(await rec.getAttribute('data-status'), 'approved');
      await screen(page, lang, 'wallet-12-records-withdraw-approved', { userText: [card.bank] });
    });

    await step('exchange TWD to USD', async () => {
      await openRoute(page, '/user/usercenter');
      await waitText(tid(page, 'asset-usd'), '0.00');
      await waitText(tid(page, 'asset-total-label'), X.totalLabel);
      const totalOf = async () => Number((await tid(page, 'asset-total').innerText()).replace(/,/g, ''));
      const totalBefore = await totalOf();
      await tid(page, 'usercenter-exchange').click();
      await waitHash(page, '/user/exchange');
      await title(page, X.exchangeTitle);
      await tid(page, 'balance-TWD').waitFor();
      assert.equal(Number(await tid(page, 'balance-TWD').getAttribute('data-available')), Number(deposit) - Number(withdrawAmount));
      assert.equal(await tid(page, 'exchange-from').inputValue(), 'TWD');
      assert.equal(await tid(page, 'exchange-to').inputValue(), 'USD');
      await tid(page, 'exchange-amount').fill(exchangeAmount);
      const quoted = nextResponse(page, 'POST', '/api/vue/funds/exchange/quote');
      await tid(page, 'exchange-get-quote').click();
      const q = await quoted;
      assert.equal(q.status, 200, JSON.stringify(q.body));
      const { toAmount, rate } = q.body.data;
      await waitText(tid(page, 'quote-to-amount'), `USD ${money(toAmount)}`);
      await waitText(tid(page, 'quote-rate'), `1 TWD = ${rate} USD`);
      await waitText(tid(page, 'quote-countdown'), X.countdown);
      await screen(page, lang, 'wallet-13-exchange-quote');
      const done = nextResponse(page, 'POST', '/api/vue/funds/exchange');
      await tid(page, 'exchange-confirm').click();
      const res = await done;
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.body.data.toAmount, toAmount);
      await waitToast(page, X.exchanged);
      await page.waitForFunction((v) => Number(document.querySelector('[data-testid=balance-USD]')?.getAttribute('data-available')) === v, Number(toAmount));
      await screen(page, lang, 'wallet-14-exchange-done');

      await openRoute(page, '/user/usercenter');
      await waitText(tid(page, 'asset-usd'), money(toAmount));
      // Total assets count the USD in NT$: the exchange moves them by rounding and the rate's drift only.
      const totalAfter = await totalOf();
      assert.ok(Math.abs(totalAfter - totalBefore) < 5, `total assets ${totalBefore} before the exchange, ${totalAfter} after`);
      await screen(page, lang, 'wallet-15-mine-usd');

      await tid(page, 'menu-fund-records').click();
      await waitHash(page, '/user/FundingDetails');
      await tid(page, 'tab-all').click();
      const x = tid(page, 'records-all').locator(`[data-testid=fund-record][data-order-no="${res.body.data.orderNo}"]`);
      await x.waitFor();
      await waitText(x.getByTestId('fund-record-paid'), `TWD -${money(exchangeAmount)}`);
      await waitText(x.getByTestId('fund-record-received'), `USD ${money(toAmount)}`);
      await screen(page, lang, 'wallet-16-records-all', { userText: [card.bank] });
    });

    await step('credit score rule', async () => {
      await openRoute(page, '/user/usercenter');
      await tid(page, 'menu-credit').click();
      await waitHash(page, '/user/creditRule');
      await title(page, X.creditTitle);
      await waitText(tid(page, 'credit-score'), '100');
      await tid(page, 'credit-rule-deposit_approved').waitFor();
      await screen(page, lang, 'wallet-17-credit-rule');
    });

    assert.deepEqual(fx.phone.pageErrors.map(String), [], 'no uncaught errors in the page');
    void T;
  });
}
