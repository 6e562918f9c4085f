// Every screen that the journeys do not pass through, in both languages, with its title checked
// and a screenshot; and the language switch on /user/language, which is kept across reloads.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { login, openApp, screen } from './flows.mjs';
import { DEMO, dialogButton, newPhone, openRoute, tid, useFixture, waitHash, waitText } from './harness.mjs';
import { TEXTS } from './texts.mjs';

const SCREENS = [
  { path: '/user/setting', testId: 'setting-page', name: '30-setting', title: { tw: '設定', en: 'Settings' } },
  { path: '/user/loginPassword', testId: 'login-password-page', name: '31-login-password', title: { tw: '修改登入密碼', en: 'Change login password' } },
  // The demo member has a fund password, so this is the change form.
  { path: '/user/setPassword', testId: 'set-password-page', name: '32-fund-password', title: { tw: '修改資金密碼', en: 'Change fund password' } },
  { path: '/user/language', testId: 'language-page', name: '33-language', title: { tw: '語言', en: 'Language' } },
  { path: '/user/agreement', testId: 'agreement-page', name: '34-agreement', title: { tw: '隱私權協議', en: 'Privacy Agreement' } },
  { path: '/user/aboutUs', testId: 'about-page', name: '35-about', title: { tw: '關於我們', en: 'About us' } },
];

const fx = useFixture();

for (const lang of ['tw', 'en']) {
  test(`every screen (${lang})`, { timeout: 60_000 }, async (t) => {
    const { context, page, pageErrors } = await newPhone(fx.browser);
    const step = (name, fn) => fx.step(t, `${lang}-screens-${name}`, page, fn);

    await step('welcome', async () => {
      await openApp(page, fx.server.base, lang);
      await tid(page, 'welcome-next').click();
      await page.locator('.welcome-dots .dot').nth(1).and(page.locator('.active')).waitFor();
      await tid(page, 'welcome-contact').click();
      await page.locator('.adm-dialog-body').filter({ visible: true }).filter({ hasText: /09:00/ }).waitFor();
      await screen(page, lang, '36-welcome-contact');
      await dialogButton(page, TEXTS[lang].confirm);
    });

    await step('member screens', async () => {
      await tid(page, 'welcome-login').click();
      await login(page, lang, DEMO.member.account, DEMO.member.password);
      for (const s of SCREENS) {
        await openRoute(page, s.path);
        await tid(page, s.testId).waitFor();
        await waitText(page.locator('.adm-nav-bar-title').filter({ visible: true }), s.title[lang]);
        await screen(page, lang, s.name);
      }
      await openRoute(page, '/user/FundingDetails');
      await tid(page, 'tab-withdraw').click();
      await tid(page, 'records-withdraw').getByTestId('list-empty').waitFor();
      await screen(page, lang, '37-fund-records-withdraw');
      await openRoute(page, '/no/such/page');
      await tid(page, 'not-found').waitFor();
      await screen(page, lang, '38-not-found');
    });

    assert.deepEqual(pageErrors.map(String), [], 'no uncaught errors in the page');
    await context.close();
  });
}

test('the language switch is kept across reloads', { timeout: 60_000 }, async (t) => {
  const { context, page, pageErrors } = await newPhone(fx.browser);
  const step = (name, fn) => fx.step(t, `language-${name}`, page, fn);
  const htmlLang = (l) => page.waitForFunction((want) => document.documentElement.lang === want, l);

  await step('tw to en and back', async () => {
    await openApp(page, fx.server.base, 'tw');
    await tid(page, 'welcome-login').click();
    await login(page, 'tw', DEMO.member.account, DEMO.member.password);
    await tid(page, 'tab-mine').click();
    await tid(page, 'menu-language').click();
    await waitHash(page, '/user/language');
    await tid(page, 'lang-en').click();
    await htmlLang('en');
    await waitText(page.locator('.adm-nav-bar-title').filter({ visible: true }), 'Language');
    assert.equal(await page.evaluate(() => localStorage.getItem('lang')), 'en');

    // A reload without ?lang keeps the stored choice.
    await page.goto(`${fx.server.base}/#/user/usercenter`);
    await page.reload();
    await htmlLang('en');
    await waitText(tid(page, 'tab-mine'), TEXTS.en.tabMine);
    await waitText(tid(page, 'menu-language'), /English/);

    await tid(page, 'menu-language').click();
    await tid(page, 'lang-tw').click();
    await htmlLang('zh-TW');
    await waitText(page.locator('.adm-nav-bar-title').filter({ visible: true }), '語言');
    assert.equal(await page.evaluate(() => localStorage.getItem('lang')), 'tw');
  });

  assert.deepEqual(pageErrors.map(String), [], 'no uncaught errors in the page');
  await context.close();
});
