import marketEN from '../src/domain/market/locales/en';
import marketTW from '../src/domain/market/locales/zh-TW';
import { importedModule, marketPlaceholder, paintBeforeScripts, screenFiles, welcomeTemplates, type FirstScreen, type MarketLabels } from './firstPaint';

// index.html as Vite writes it for this app (relative base), reduced to what the plugin touches.
const built = `<!doctype html>
<html>
  <head>
    <style>.lb-shell{display:flex}</style>
    <script type="module" crossorigin src="./assets/index-1a.js"></script>
    <link rel="modulepreload" crossorigin href="./assets/react-2b.js">
    <link rel="modulepreload" crossorigin href="./assets/i18n-3c.js">
    <link rel="stylesheet" crossorigin href="./assets/index-4d.css">
  </head>
  <body>
    <div id="root"></div>
  </body>
</html>`;

describe('paintBeforeScripts', () => {
  const out = paintBeforeScripts(built, { 'assets/index-4d.css': 'body{margin:0}' });

  it('inlines the entry styles: the first paint needs no other file', () => {
    expect(out).toContain('<style>body{margin:0}</style>');
    expect(out).not.toMatch(/rel="stylesheet"/);
  });

  it('takes the scripts out of the head and loads them after the first frame, entry first', () => {
    expect(out).not.toMatch(/<script type="module"|rel="modulepreload"/);
    const loader = out.slice(out.lastIndexOf('<script>'), out.indexOf('</body>'));
    expect(loader).toContain('requestAnimationFrame');
    const order = ['"./assets/index-1a.js"', '"./assets/react-2b.js"', '"./assets/i18n-3c.js"'].map((s) => loader.indexOf(s));
    expect(order.every((i) => i > 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
  });

  it('loads the scripts, entry and preloads, in a page', async () => {
    document.head.innerHTML = '';
    const loader = out.slice(out.lastIndexOf('<script>') + '<script>'.length, out.lastIndexOf('</script>'));
    new Function(loader)();
    await new Promise((r) => setTimeout(r, 50));
    const entry = document.head.querySelector('script[type=module]');
    expect(entry?.getAttribute('src')).toBe('./assets/index-1a.js');
    expect([...document.head.querySelectorAll('link[rel=modulepreload]')].map((l) => l.getAttribute('href'))).toEqual(['./assets/react-2b.js', './assets/i18n-3c.js']);
    document.head.innerHTML = '';
  });

  it('fails the build when the page has no entry or names a stylesheet the build lacks', () => {
    expect(() => paintBeforeScripts('<html><body></body></html>', {})).toThrow(/no entry script/);
    expect(() => paintBeforeScripts(built, {})).toThrow(/no stylesheet assets\/index-4d.css/);
  });
});

describe('welcomeTemplates', () => {
  it('has one template per language, without test ids (tests wait for the working page)', () => {
    const html = welcomeTemplates({ tw: '<div data-testid="welcome">歡迎</div>', en: '<div data-testid="welcome">Welcome</div>' });
    expect(html).toBe('<template id="lb-welcome-tw"><div>歡迎</div></template><template id="lb-welcome-en"><div>Welcome</div></template>');
  });
});

describe('marketPlaceholder', () => {
  it("carries the market screen's texts of both languages, escaped for the attribute the server reads", () => {
    const html = marketPlaceholder({ tw: marketTW, en: { ...marketEN, title: 'Market "<&>"' } });
    const attr = /^<template id="lb-market-labels" data-labels="([^"]*)"><\/template>$/.exec(html)?.[1];
    expect(attr).toBeDefined();
    const decoded = new DOMParser().parseFromString(html, 'text/html').querySelector('template')?.dataset.labels ?? '';
    const parsed = JSON.parse(decoded) as Record<string, MarketLabels>;
    expect(parsed.en?.title).toBe('Market "<&>"');
    expect(parsed.tw?.short.otc).toBe(marketTW.short.otc);
    // Only the texts the first view shows: the page stays small.
    expect(decoded).not.toContain(marketEN.lotsValue);
  });
});

describe('the first screen', () => {
  const names = { tokenKey: 'tokend', accountKey: 'account', firstRead: '__lbFirstRead' };
  const screens: FirstScreen[] = [
    { path: 'login/start', files: ['./assets/Start-1.js'], session: false },
    { path: 'market/market', files: ['./assets/Market-2.js', './assets/kit-3.js', './assets/market-4.css'], firstRead: '/api/vue/market/stocks?page=1', session: false },
    { path: 'home/index', files: ['./assets/Home-5.js', './assets/kit-3.js'], session: true },
    { path: 'ops/chats/:account', files: ['./assets/Chat-6.js'], session: true },
  ];
  const out = paintBeforeScripts(built, { 'assets/index-4d.css': 'body{margin:0}' }, screens, names);
  const loader = out.slice(out.lastIndexOf('<script>') + '<script>'.length, out.lastIndexOf('</script>'));
  const slot = window as unknown as Record<string, unknown>;
  let fetchMock: ReturnType<typeof vi.fn>;

  const asked = () => [...document.head.querySelectorAll('link')].map((l) => `${l.rel}${l.rel === 'preload' ? `:${l.as}` : ''} ${l.getAttribute('href')}`);

  /**
   * Runs the loader at url (token: the stored session) and returns what it asked for. In a hidden
   * tab, where it requests at once rather than after a frame: a loaded machine's late frame would
   * otherwise leave this boot's requests to the next one's page.
   */
  async function boot(url: string, token = '', code = loader) {
    window.history.replaceState(null, '', url);
    if (token) localStorage.setItem('tokend', token);
    document.head.innerHTML = '';
    Object.defineProperty(document, 'visibilityState', { value: 'hidden', configurable: true });
    try {
      new Function(code)();
    } finally {
      delete (document as { visibilityState?: string }).visibilityState;
    }
    const first = document.head.children.length;
    await new Promise((r) => setTimeout(r, 50));
    const script = document.head.querySelector('script[type=module]')?.getAttribute('src');
    return { links: asked(), script, first };
  }

  beforeEach(() => {
    fetchMock = vi.fn().mockReturnValue(new Promise(() => {}));
    vi.stubGlobal('fetch', fetchMock);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    localStorage.clear();
    delete slot.__lbFirstRead;
    document.head.innerHTML = '';
    window.history.replaceState(null, '', '/');
  });

  it("preloads the market tab's files after the entry's and sends its first read at once", async () => {
    const { links, script } = await boot('/#/market/market?lang=en');
    expect(script).toBe('./assets/index-1a.js');
    expect(links).toEqual([
      'modulepreload ./assets/react-2b.js',
      'modulepreload ./assets/i18n-3c.js',
      'modulepreload ./assets/Market-2.js',
      'modulepreload ./assets/kit-3.js',
      'preload:style ./assets/market-4.css',
    ]);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(fetchMock.mock.calls[0]).toEqual(['/api/vue/market/stocks?page=1', { headers: { Accept: 'application/json' } }]);
    expect((slot.__lbFirstRead as { url: string }).url).toBe('/api/vue/market/stocks?page=1');
  });

  it('sends the first read with the session headers when there is a session', async () => {
    localStorage.setItem('account', '0912345678');
    await boot('/#/market/market', 'tok');
    expect(fetchMock.mock.calls[0]?.[1]).toEqual({ headers: { Accept: 'application/json', token: 'tok', account: '0912345678' } });
  });

  it("preloads the welcome page's for / and a session's screen only with a session", async () => {
    expect((await boot('/')).links).toContain('modulepreload ./assets/Start-1.js');
    expect((await boot('/#/home/index')).links).toEqual(['modulepreload ./assets/react-2b.js', 'modulepreload ./assets/i18n-3c.js']);
    expect((await boot('/#/home/index', 'tok')).links.slice(2)).toEqual(['modulepreload ./assets/Home-5.js', 'modulepreload ./assets/kit-3.js']);
    expect((await boot('/#/ops/chats/0912345678', 'tok')).links.slice(2)).toEqual(['modulepreload ./assets/Chat-6.js']);
    expect((await boot('/#/market/market/x')).links).toHaveLength(2);
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('requests at most 8 files a task, all of them in order', async () => {
    const files = Array.from({ length: 10 }, (_, i) => `./assets/Big-${i}.js`);
    const big = paintBeforeScripts(built, { 'assets/index-4d.css': 'body{margin:0}' }, [{ path: 'big', files, session: false }], names);
    const { links, script, first } = await boot('/#/big', '', big.slice(big.lastIndexOf('<script>') + '<script>'.length, big.lastIndexOf('</script>')));
    // The entry, its two preloads and five of the screen's files; the other five in the next task.
    expect(first).toBe(8);
    expect(script).toBe('./assets/index-1a.js');
    expect(links).toEqual(['modulepreload ./assets/react-2b.js', 'modulepreload ./assets/i18n-3c.js', ...files.map((f) => `modulepreload ${f}`)]);
  });
});

describe('screenFiles', () => {
  // A bundle as Rollup hands it to the plugin, reduced to what screenFiles reads.
  const chunk = (fileName: string, imports: string[], extra: Record<string, unknown> = {}) => ({ type: 'chunk', fileName, imports, moduleIds: [], viteMetadata: { importedCss: new Set<string>() }, ...extra });
  const bundle = {
    'assets/index.js': chunk('assets/index.js', ['assets/react.js'], { isEntry: true }),
    'assets/react.js': chunk('assets/react.js', []),
    'assets/Market.js': chunk('assets/Market.js', ['assets/react.js', 'assets/kit.js'], { moduleIds: ['/app/src/features/market/MarketPage.tsx', '/app/src/features/market/QuoteList.tsx'], viteMetadata: { importedCss: new Set(['assets/market.css']) } }),
    'assets/kit.js': chunk('assets/kit.js', ['assets/react.js']),
    'assets/Tabs.js': chunk('assets/Tabs.js', ['assets/kit.js'], { moduleIds: ['/app/src/app/TabsLayout.tsx'] }),
  } as unknown as Parameters<typeof screenFiles>[1];

  it("lists a screen's chunks, their imports and styles, less what the entry loads", () => {
    const [market] = screenFiles([{ path: 'market/market', modules: ['/src/features/market/MarketPage.tsx', '/src/app/TabsLayout.tsx'], session: false, firstRead: '/api/x' }], bundle, '/app');
    expect(market).toEqual({ path: 'market/market', files: ['./assets/Market.js', './assets/market.css', './assets/kit.js', './assets/Tabs.js'], session: false, firstRead: '/api/x' });
  });

  it('fails the build for a module with no chunk', () => {
    expect(() => screenFiles([{ path: 'x', modules: ['/src/Nope.tsx'], session: false }], bundle, '/app')).toThrow(/no chunk for \/src\/Nope.tsx/);
  });
});

describe('importedModule', () => {
  it('reads the module a loader imports, as the module runner rewrote it', () => {
    // eslint-disable-next-line no-new-func
    const load = new Function('return () => __vite_ssr_dynamic_import__("/src/features/market/MarketPage.tsx")')() as () => unknown;
    expect(importedModule(load)).toBe('/src/features/market/MarketPage.tsx');
    expect(() => importedModule(() => 1)).toThrow(/cannot tell/);
  });
});
