import { paintBeforeScripts, welcomeTemplates } from './firstPaint';

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
