// User actions shared by the browser tests, done through the screens as a person would.
import assert from 'node:assert/strict';
import { dialogButton, nextResponse, openRoute, PHONE, shot, tid, waitHash, waitToast } from './harness.mjs';
import { RAW_KEY, TEXTS } from './texts.mjs';

/** Opens the app at the welcome page in the given language (?lang= is stored by the app). */
export async function openApp(page, base, lang) {
  await page.goto(`${base}/?lang=${lang}`);
  await waitHash(page, '/login/start');
  await tid(page, 'welcome').waitFor();
  await page.waitForFunction((l) => document.documentElement.lang === l, TEXTS[lang].htmlLang);
}

/** Fills and sends the login form (already on /login/login); resolves with the response. */
export async function submitLogin(page, account, password, { agree = true } = {}) {
  const form = tid(page, 'login-form');
  await form.waitFor();
  await tid(page, 'login-account').fill(account);
  await tid(page, 'login-password').fill(password);
  if (agree) await tid(page, 'login-agree').check();
  const res = nextResponse(page, 'POST', '/api/vue/user/login');
  await tid(page, 'login-submit').click();
  return res;
}

/** Logs in through the form and waits for the role's landing screen. */
export async function login(page, lang, account, password, landing = { hash: '/home/index', testId: 'home-page' }) {
  if (!(await page.evaluate(() => location.hash)).startsWith('#/login/login')) await openRoute(page, '/login/login');
  const res = await submitLogin(page, account, password);
  assert.equal(res.status, 200, `login ${account}: ${JSON.stringify(res.body)}`);
  await waitToast(page, TEXTS[lang].loginSuccess);
  await waitHash(page, landing.hash);
  await tid(page, landing.testId).waitFor();
}

/** Logs out from mine (the dialog's confirm), and waits for the login screen. */
export async function logout(page, lang) {
  await openRoute(page, '/user/usercenter');
  await tid(page, 'logout').click();
  await page.locator('.adm-dialog-content').filter({ hasText: TEXTS[lang].logoutConfirm }).waitFor();
  const res = nextResponse(page, 'POST', '/api/vue/user/logout');
  await dialogButton(page, TEXTS[lang].confirm);
  assert.equal((await res).status, 200);
  await waitHash(page, '/login/login');
  await tid(page, 'login-form').waitFor();
  assert.equal(await page.evaluate(() => localStorage.getItem('tokend')), null, 'the token is removed on logout');
}

/** Fills the register form (already on /login/register) and sends it; resolves with the response. */
export async function submitRegister(page, { account, password, confirm = password, invite = 'LOTBOOK', agree = true }) {
  await tid(page, 'register-form').waitFor();
  await tid(page, 'register-account').fill(account);
  await tid(page, 'register-password').fill(password);
  await tid(page, 'register-confirm').fill(confirm);
  await tid(page, 'register-invite').fill(invite);
  const box = tid(page, 'register-agree');
  if (agree) await box.check();
  else await box.uncheck();
  const res = nextResponse(page, 'POST', '/api/vue/user/register');
  await tid(page, 'register-submit').click();
  return res;
}

/** Elements whose text is data, in whatever language it was written. */
const DATA_TEXT = '[data-testid=quote-name]';

/**
 * Checks a screen, then saves its screenshot: no translation key shown instead of a text, no
 * Chinese on an English screen, nothing wider than the phone (the app must work from 320 px).
 * opts.toasts keeps toasts in the picture; opts.userText lists typed data to ignore.
 */
export async function screen(page, lang, name, opts = {}) {
  // Data is not the app's text: what users typed (a remark in the other language) and
  // instrument names (Chinese where the market has no English name).
  const data = await page.locator(DATA_TEXT).allInnerTexts();
  const text = [...(opts.userText ?? []), ...data].reduce((txt, u) => txt.replaceAll(u, ''), await page.locator('body').innerText());
  assert.doesNotMatch(text, RAW_KEY, `${name}: a translation key is shown instead of its text`);
  // The language list names 繁體中文 in its own script on purpose.
  if (lang === 'en') assert.doesNotMatch(text.replaceAll('繁體中文', ''), /[\u4e00-\u9fff]/, `${name}: Chinese text on an English screen`);
  const wide = await page.evaluate(() => {
    const w = document.documentElement.clientWidth;
    if (document.documentElement.scrollWidth <= w) return null;
    const out = [...document.querySelectorAll('body *')].find((el) => el.getBoundingClientRect().right > w + 1 && el.children.length === 0);
    return { scrollWidth: document.documentElement.scrollWidth, width: w, element: out ? `${out.tagName.toLowerCase()}.${out.className} "${out.textContent?.slice(0, 60)}"` : '?' };
  });
  await shot(page, lang, name, opts);
  assert.equal(wide, null, `${name}: the page is wider than the ${PHONE.viewport.width} px phone: ${JSON.stringify(wide)}`);
}
