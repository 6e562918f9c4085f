import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { detectLanguage } from '@/lib/i18n';

// index.html's inline script picks the first paint before any module loads: the prerendered
// welcome page in the language lib/i18n will pick, when the address leads to the welcome page.
const page = readFileSync(resolve(__dirname, '../../index.html'), 'utf8');
const boot = /<script>([\s\S]*?)<\/script>/.exec(page)?.[1] ?? '';

function firstPaint(url: string, stored: string | null): string {
  window.history.replaceState(null, '', url);
  if (stored === null) localStorage.removeItem('lang');
  else localStorage.setItem('lang', stored);
  document.body.innerHTML =
    '<div id="root"><div class="lb-shell">skeleton</div></div>' +
    '<template id="lb-welcome-tw"><div class="welcome">tw</div></template><template id="lb-welcome-en"><div class="welcome">en</div></template>';
  new Function(boot)();
  return document.getElementById('root')?.textContent ?? '';
}

describe("index.html's first paint", () => {
  afterEach(() => {
    localStorage.clear();
    window.history.replaceState(null, '', '/');
  });

  it.each([
    ['/', null],
    ['/', 'en'],
    ['/', 'zh-TW'],
    ['/', 'fr'],
    ['/#/login/start', 'en'],
    ['/?lang=en', 'tw'],
    ['/?lang=tw#/login/start', 'en'],
    ['/#/login/start?lang=en', null],
    ['/#/login/start?x=1&lang=tw', 'en'],
    ['/?lang=xx', 'en'],
    ['/?lang=en#/?lang=tw', null],
    ['/#/?lang=en', null],
  ])('%s (stored %j): the welcome page in the language the app picks', (url, stored) => {
    const u = new URL(url, 'http://x');
    const { lang } = detectLanguage({ search: u.search, hash: u.hash }, stored);
    expect(firstPaint(url, stored)).toBe(lang);
  });

  it.each(['/#/market/market', '/#/login/login?lang=en', '/#/home/index'])('%s: the skeleton, not the welcome page', (url) => {
    expect(firstPaint(url, 'en')).toBe('skeleton');
  });
});
