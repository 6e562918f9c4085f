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

/** Elements whose text is data, in whatever language it was written (instrument and member names). */
const DATA_TEXT = '[data-testid=quote-name], [data-text=data]';

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
  const wide = await overflow(page);
  await shot(page, lang, name, opts);
  assert.equal(wide, null, `${name}: the page is wider than the ${PHONE.viewport.width} px phone: ${JSON.stringify(wide)}`);
}

/**
 * What does not fit the phone's width, or null: the document's scroll width; the visible elements
 * and text whose right edge is past the viewport's or past the box they are drawn in (a card, a
 * button: the nearest ancestor with a background or border), innermost first, at most five; and
 * strips that scroll sideways (tabs cut off at an edge; a carousel that snaps is meant to).
 * Content inside a box that clips (an ellipsis) does not count.
 */
export function overflow(page) {
  return page.evaluate(() => {
    const w = document.documentElement.clientWidth;
    const scrollWidth = Math.max(document.documentElement.scrollWidth, document.body.scrollWidth);
    const visible = (el) => el.checkVisibility({ opacityProperty: true, visibilityProperty: true });
    const drawn = (st) =>
      st.backgroundColor !== 'rgba(0, 0, 0, 0)' || st.backgroundImage !== 'none' || (parseFloat(st.borderRightWidth) > 0 && st.borderRightStyle !== 'none');
    // The right edge the node must stay inside: its drawn box's (nearest ancestor with a
    // background or border), else the viewport's. An ancestor that clips (overflow other than
    // visible) and ends on screen hides what passes it: only a drawn box wholly inside it still
    // counts (a slide parked beside a carousel does not). A clipping ancestor past the edge is
    // judged on its own.
    const limit = (node) => {
      let box;
      for (let a = node.parentElement; a && a !== document.body; a = a.parentElement) {
        const st = getComputedStyle(a);
        const right = a.getBoundingClientRect().right;
        if (st.overflowX !== 'visible') {
          if (right <= w + 0.5) return box !== undefined && box <= right + 0.5 ? box : Infinity;
        } else if (box === undefined && drawn(st)) box = right;
      }
      return Math.min(w, box ?? w);
    };
    const describe = (el, right) =>
      `${el.tagName.toLowerCase()}${el.dataset.testid ? `[data-testid=${el.dataset.testid}]` : ''}.${[...el.classList].join('.')} "${(el.textContent ?? '').trim().slice(0, 40)}" right ${Math.round(right)}`;
    const out = [];
    for (const el of document.querySelectorAll('body *')) {
      if (!visible(el)) continue;
      const st = getComputedStyle(el);
      if (st.position === 'fixed' && el.getBoundingClientRect().left >= w) continue; // parked off screen
      const r = el.getBoundingClientRect();
      if (r.width > 0 && r.height > 0 && r.right > limit(el) + 0.5) out.push([el, describe(el, r.right)]);
      // A carousel (it snaps, one slide at a time) scrolls sideways on purpose; a strip does not.
      const carousel = st.scrollSnapType.startsWith('x') || st.scrollSnapType.startsWith('both');
      if ((st.overflowX === 'auto' || st.overflowX === 'scroll') && !carousel && el.scrollWidth > el.clientWidth + 1) out.push([el, `sideways scroller ${describe(el, r.right)}`]);
    }
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const el = n.parentElement;
      if (!n.textContent.trim() || !el || !visible(el)) continue;
      const range = document.createRange();
      range.selectNodeContents(n);
      const right = range.getBoundingClientRect().right;
      if (right > limit(n) + 0.5) out.push([el, `text of ${describe(el, right)}`]);
    }
    // Innermost first: an element none of whose descendants is listed is the cause.
    const inner = out.filter(([el]) => !out.some(([other]) => other !== el && el.contains(other))).map(([, d]) => d);
    if (scrollWidth <= w && inner.length === 0) return null;
    return { width: w, scrollWidth, elements: [...new Set(inner)].slice(0, 5) };
  });
}
