// Profile and cards in local terms (issue 13.8), in both languages at the phone viewport: a
// verified member sets an avatar on mine (the picture goes through the proofs' upload path and is
// shown back from the server, to its owner only), then binds a Taiwan bank card: the bank chosen
// from the list of Taiwan's banks, a 4-digit branch code and an account number, with no IFSC or
// UPI fields (no channel enables them); a bad branch is refused with a translated message.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { verifiedMember } from './api.mjs';
import { login, openApp, screen } from './flows.mjs';
import { freshMobile, imageShown, newPhone, nextResponse, openRoute, proofPng, tid, useFixture, waitHash, waitText, waitToast } from './harness.mjs';

// Written out, not imported from the app: a wrong translation fails here.
const T = {
  tw: { avatarUpdated: '頭像已更新', change: '更換頭像', bound: '銀行卡已綁定', branchInvalid: '分行代碼須為 4 位數字', bank: '中國信託商業銀行', branchLabel: '分行' },
  en: { avatarUpdated: 'Avatar updated', change: 'Change avatar', bound: 'Bank card bound', branchInvalid: 'The branch code must be 4 digits', bank: 'CTBC Bank', branchLabel: 'Branch' },
};
const NAME = '王小明';

const fx = useFixture();

for (const lang of ['tw', 'en']) {
  test(`avatar on mine and a Taiwan bank card (${lang})`, { timeout: 120_000 }, async (t) => {
    const L = T[lang];
    const member = { account: freshMobile(), password: 'Pass1234word' };
    await verifiedMember(fx.server.base, member, []);
    const { context, page, pageErrors } = await newPhone(fx.browser);
    const number = `8220${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;

    await t.test('set an avatar on mine', async () => {
      await openApp(page, fx.server.base, lang);
      await login(page, lang, member.account, member.password);
      await openRoute(page, '/user/usercenter');
      await tid(page, 'usercenter-page').waitFor();
      await tid(page, 'user-avatar-empty').waitFor();
      await waitText(tid(page, 'avatar-change'), L.change);
      const upload = nextResponse(page, 'POST', '/api/vue/files');
      const set = nextResponse(page, 'POST', '/api/vue/user/avatar');
      await page.getByTestId('avatar-input').setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: proofPng(120, 120) });
      const file = await upload;
      assert.equal(file.status, 200, JSON.stringify(file.body));
      assert.equal((await set).status, 200);
      await waitToast(page, L.avatarUpdated);
      const avatar = tid(page, 'user-avatar');
      await imageShown(page, avatar);
      await screen(page, lang, 'profile-01-avatar', { userText: [member.account] });
      // Served to its owner only: without the session the file is not found.
      const anon = await page.evaluate(async (id) => (await fetch(`/api/vue/files/${id}`)).status, file.body.data.id);
      assert.notEqual(anon, 200, 'the avatar is not public');
    });

    await t.test('bind a Taiwan bank card', async () => {
      await openRoute(page, '/user/BankCard');
      await tid(page, 'bank-card-add').click();
      await waitHash(page, '/user/WithCard');
      await tid(page, 'card-form').waitFor();
      assert.equal(await tid(page, 'card-holderName').inputValue(), NAME);
      assert.equal(await page.getByTestId('card-ifsc').count(), 0, 'no IFSC field unless a channel enables it');
      assert.equal(await page.getByTestId('card-upi').count(), 0, 'no UPI field unless a channel enables it');
      await tid(page, 'card-bankCode').selectOption('822');
      assert.equal(await tid(page, 'card-bankCode').evaluate((el) => el.selectedOptions[0].textContent), `822 ${L.bank}`);
      await tid(page, 'card-branch').fill('09');
      await tid(page, 'card-cardNumber').fill(number);
      await tid(page, 'card-submit').click();
      await waitText(tid(page, 'form-error'), L.branchInvalid);
      await tid(page, 'card-branch').fill('0901');
      await screen(page, lang, 'profile-02-taiwan-card', { userText: [NAME] });
      const sent = nextResponse(page, 'POST', '/api/vue/user/cards');
      await tid(page, 'card-submit').click();
      const res = await sent;
      assert.equal(res.status, 200, JSON.stringify(res.body));
      await waitToast(page, L.bound);
      await waitHash(page, '/user/BankCard');
      const card = tid(page, 'bank-card').and(page.locator(`[data-last4="${number.slice(-4)}"]`));
      await card.waitFor();
      await waitText(card.getByTestId('bank-card-bank'), L.bank);
      await waitText(card.getByTestId('bank-card-branch'), `${L.branchLabel} 0901`);
      await screen(page, lang, 'profile-03-cards', { userText: [NAME] });
    });
    assert.deepEqual(pageErrors.map(String), []);
    await context.close();
  });
}
