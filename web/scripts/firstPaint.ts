// The first paint of the web build (issue 14 item 6, cold start): what a phone shows before any
// script of the app has run, and the app loading only after that.
// - The welcome page, the first route, is rendered at build time in both languages
//   (src/app/prerender.tsx) into index.html as two inert templates; index.html's inline script
//   shows the one of the visitor's language when the address leads there (else its skeleton).
// - The entry's styles are inlined, so that the page paints with the HTML alone.
// - The entry script and its preloads are requested once that first frame has painted: on a slow
//   phone the app's script would otherwise run before the first paint and hold it back.
// - The screen the address leads to has its chunks preloaded, and its first read sent, at once:
//   they load beside the entry, not after it has run and the router has asked for them.
import { join } from 'node:path';
import react from '@vitejs/plugin-react';
import type { IndexHtmlTransformContext, Plugin, ResolvedConfig } from 'vite';

type OutputBundle = NonNullable<IndexHtmlTransformContext['bundle']>;

/** The mark in index.html that the templates replace. */
export const WELCOME_MARK = '<!-- prerendered welcome -->';

/** The templates index.html carries, one per language (ids read by its inline script). */
export function welcomeTemplates(byLang: Record<'tw' | 'en', string>): string {
  // Without test ids: a browser test waits for the app's page, whose buttons work, not this copy.
  const bare = (html: string) => html.replace(/ data-testid="[^"]*"/g, '');
  return (['tw', 'en'] as const).map((l) => `<template id="lb-welcome-${l}">${bare(byLang[l])}</template>`).join('');
}

/** The mark in index.html that the market list's placeholder replaces. */
export const MARKET_MARK = '<!-- market first view -->';

/** The market list's texts the server's first view shows (api/firstview.go), in one language. */
export interface MarketLabels {
  title: string;
  listed: string;
  otc: string;
  short: { listed: string; otc: string };
  tabs: { all: string; gainers: string; losers: string; volume: string };
  col: { name: string; price: string; change: string };
}

/**
 * The placeholder the server fills with the market list's first quotes, per language: it carries
 * the screen's texts from the app's own messages, so the server paints the words the app shows.
 */
export function marketPlaceholder(byLang: Record<'tw' | 'en', MarketLabels>): string {
  const pick = (m: MarketLabels): MarketLabels => ({ title: m.title, listed: m.listed, otc: m.otc, short: m.short, tabs: m.tabs, col: m.col });
  const json = JSON.stringify({ tw: pick(byLang.tw), en: pick(byLang.en) });
  const attr = json.replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
  return `<template id="lb-market-labels" data-labels="${attr}"></template>`;
}

/** A screen a cold start can land on, as the router declares it (src/lib/routes.ts). */
export interface ScreenDecl {
  path: string;
  /** the source modules (root-relative, /src/...) of the chunks its first render waits for */
  modules: string[];
  /** the GET it makes first */
  firstRead?: string;
  /** it opens only with a session: nothing is preloaded for a visitor */
  session: boolean;
}

/** A screen with its files: the chunks and stylesheets of its modules the entry does not load. */
export interface FirstScreen {
  path: string;
  files: string[];
  firstRead?: string;
  session: boolean;
}

/** What the loader reads from the app: its storage keys and the early read's window property. */
export interface LoaderNames {
  tokenKey: string;
  accountKey: string;
  firstRead: string;
}

const SSR_IMPORT = /__vite_ssr_dynamic_import__\("([^"]+)"\)/;

/** The module a loader function (() => import('./X'), as Vite's module runner rewrote it) imports. */
export function importedModule(load: () => unknown): string {
  const m = SSR_IMPORT.exec(load.toString());
  if (!m?.[1]) throw new Error(`firstPaint: cannot tell which module ${load.toString()} imports`);
  return m[1];
}

/** The files each screen's modules need beyond the entry's, from the bundle (paths as ./assets/...). */
export function screenFiles(screens: ScreenDecl[], bundle: OutputBundle, root: string): FirstScreen[] {
  const chunks = Object.values(bundle).filter((o) => o.type === 'chunk');
  const byFile = new Map(chunks.map((c) => [c.fileName, c]));
  const closure = (start: string[], into: Set<string>) => {
    for (const f of start) {
      if (into.has(f)) continue;
      into.add(f);
      const c = byFile.get(f);
      if (!c) continue;
      for (const css of c.viteMetadata?.importedCss ?? []) into.add(css);
      closure(c.imports, into);
    }
  };
  const entry = chunks.find((c) => c.isEntry);
  if (!entry) throw new Error('firstPaint: the bundle has no entry chunk');
  const loaded = new Set<string>();
  closure([entry.fileName], loaded);
  return screens.map((s) => {
    const own = new Set<string>();
    for (const m of s.modules) {
      const id = join(root, m);
      // The chunk that holds the module (its own, or a group's that took it in).
      const chunk = chunks.find((c) => c.moduleIds.includes(id));
      if (!chunk) throw new Error(`firstPaint: no chunk for ${m} (screen ${s.path})`);
      closure([chunk.fileName], own);
    }
    const files = [...own].filter((f) => !loaded.has(f)).map((f) => `./${f}`);
    return { path: s.path, files, session: s.session, ...(s.firstRead ? { firstRead: s.firstRead } : {}) };
  });
}

/** The route path as a pattern on the hash's path (':name' is one segment). */
function pathPattern(path: string): string {
  return `^${path
    .split('/')
    .map((seg) => (seg.startsWith(':') ? '[^/]+' : seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/')}$`;
}

/**
 * The most files the loader requests in one task: each request costs the main thread about a
 * millisecond (4 on a phone), and the market's 47 in one task made one of its longest at start.
 */
const BATCH = 8;

const ENTRY = /\s*<script type="module" crossorigin src="([^"]+)"><\/script>/;
const PRELOAD = /\s*<link rel="modulepreload" crossorigin href="([^"]+)">/g;
const STYLESHEET = /\s*<link rel="stylesheet" crossorigin href="\.\/([^"]+)">/g;

/**
 * The built index.html with the entry's styles inline (css: file name to text) and its scripts
 * loaded by an inline script once the first frame has painted (or at once in a hidden tab, which
 * paints no frame), in the order Vite listed them. The screen the address leads to (the first of
 * screens whose path matches; '' is the welcome page's) has its files preloaded and its first read
 * sent at once, a session's screen only when there is a session.
 */
export function paintBeforeScripts(html: string, css: Record<string, string>, screens: FirstScreen[] = [], names?: LoaderNames): string {
  const entry = ENTRY.exec(html)?.[1];
  if (!entry) throw new Error('firstPaint: index.html has no entry script');
  const preloads = [...html.matchAll(PRELOAD)].map((m) => m[1]);
  const out = html
    .replace(ENTRY, '')
    .replace(PRELOAD, '')
    .replace(STYLESHEET, (_tag, file: string) => {
      const text = css[file];
      if (text === undefined) throw new Error(`firstPaint: no stylesheet ${file} in the build`);
      return `\n    <style>${text.replaceAll('</style', '<\\/style')}</style>`;
    });
  if (screens.length > 0 && !names) throw new Error('firstPaint: screens to preload but no loader names');
  // Each file once, screens naming them by index: the map stays small in the first route's HTML.
  const files = [...new Set(screens.flatMap((s) => s.files))];
  const table = screens.map((s) => [pathPattern(s.path), s.files.map((f) => files.indexOf(f)), s.firstRead ?? '', s.session ? 1 : 0]);
  const screen = screens.length === 0 || !names
    ? ''
    : `
        var files = ${JSON.stringify(files)}, screens = ${JSON.stringify(table).replaceAll('</', '<\\/')};
        var h = location.hash, q = h.indexOf('?');
        var path = (q < 0 ? h : h.slice(0, q)).replace(/^#\\/?/, '') || 'login/start';
        var token = '', account = '';
        try { token = localStorage.getItem(${JSON.stringify(names.tokenKey)}) || ''; account = localStorage.getItem(${JSON.stringify(names.accountKey)}) || ''; } catch (e) {}
        for (var i = 0; i < screens.length; i++) {
          var s = screens[i];
          if (!new RegExp(s[0]).test(path)) continue;
          if (s[3] && !token) break;
          mine = s[1].map(function (f) { return files[f]; });
          if (s[2]) {
            var headers = { Accept: 'application/json' };
            if (token) headers.token = token;
            if (account) headers.account = account;
            window[${JSON.stringify(names.firstRead)}] = { url: s[2], at: performance.now(), res: fetch(s[2], { headers: headers }) };
          }
          break;
        }`;
  const loader = `<script>
      (function () {
        var add = function (rel, href) {
          var el = document.createElement(rel ? 'link' : 'script');
          el.crossOrigin = '';
          if (rel) { el.rel = rel; el.href = href; if (rel === 'preload') el.as = 'style'; } else { el.type = 'module'; el.src = href; }
          document.head.appendChild(el);
        };
        var mine = [];${screen}
        var queue = [['', ${JSON.stringify(entry)}]].concat(
          ${JSON.stringify(preloads)}.map(function (href) { return ['modulepreload', href]; }),
          mine.map(function (href) { return [/\\.css$/.test(href) ? 'preload' : 'modulepreload', href]; })
        );
        var load = function () {
          queue.splice(0, ${BATCH}).forEach(function (a) { add(a[0], a[1]); });
          if (queue.length) setTimeout(load, 0);
        };
        if (document.visibilityState !== 'visible') load();
        else requestAnimationFrame(function () { setTimeout(load, 0); });
      })();
    </script>`;
  return out.replace('</body>', `  ${loader}\n  </body>`);
}

/** The Vite plugins: the prerender before Vite processes index.html, the loader after. */
export function firstPaintPlugins(): Plugin[] {
  let config: ResolvedConfig;
  // Read from the sources by the first plugin, used with the bundle by the second.
  let screens: ScreenDecl[] = [];
  let names: LoaderNames | undefined;
  return [
    {
      name: 'lotbook-prerender',
      apply: 'build',
      configResolved(c) {
        config = c;
      },
      transformIndexHtml: {
        order: 'pre',
        async handler(html) {
          if (!html.includes(WELCOME_MARK)) throw new Error(`firstPaint: index.html has no ${WELCOME_MARK}`);
          // A module runner of its own, on the same sources and aliases as the build.
          const { createServer } = await import('vite');
          const server = await createServer({
            configFile: false,
            root: config.root,
            resolve: { alias: config.resolve.alias },
            plugins: [react()],
            logLevel: 'error',
            server: { middlewareMode: true, hmr: false, ws: false },
            appType: 'custom',
          });
          try {
            const mod = (await server.ssrLoadModule('/src/app/prerender.tsx')) as typeof import('../src/app/prerender');
            const byLang = { tw: await mod.renderWelcome('tw'), en: await mod.renderWelcome('en') };
            const router = (await server.ssrLoadModule('/src/app/router.tsx')) as typeof import('../src/app/router');
            const session = (await server.ssrLoadModule('/src/lib/session.ts')) as typeof import('../src/lib/session');
            const firstRead = (await server.ssrLoadModule('/src/lib/api/firstRead.ts')) as typeof import('../src/lib/api/firstRead');
            names = { tokenKey: session.TOKEN_KEY, accountKey: session.ACCOUNT_KEY, firstRead: firstRead.FIRST_READ_GLOBAL };
            // The screens that declare a first read are the cold starts measured (the market tab);
            // a map of every screen's files would not fit the first route's budget on the wire.
            screens = router.featureRoutes
              .filter((r) => r.firstRead !== undefined)
              .map((r) => ({
                path: r.path,
                modules: router.screenLoaders(r).map(importedModule),
                session: !(r.visitors || r.zone === 'public'),
                ...(r.firstRead ? { firstRead: r.firstRead } : {}),
              }));
            if (!html.includes(MARKET_MARK)) throw new Error(`firstPaint: index.html has no ${MARKET_MARK}`);
            const labels = async (lang: 'tw' | 'en') =>
              ((await server.ssrLoadModule(`/src/domain/market/locales/${lang === 'en' ? 'en' : 'zh-TW'}.ts`)) as { default: MarketLabels }).default;
            const market = marketPlaceholder({ tw: await labels('tw'), en: await labels('en') });
            return html.replace(WELCOME_MARK, welcomeTemplates(byLang)).replace(MARKET_MARK, market);
          } finally {
            await server.close();
          }
        },
      },
    },
    {
      name: 'lotbook-first-paint',
      apply: 'build',
      transformIndexHtml: {
        order: 'post',
        handler(html: string, ctx: IndexHtmlTransformContext) {
          const css: Record<string, string> = {};
          for (const [name, out] of Object.entries(ctx.bundle ?? {})) {
            if (out.type === 'asset' && name.endsWith('.css')) css[name] = String(out.source);
          }
          return paintBeforeScripts(html, css, ctx.bundle ? screenFiles(screens, ctx.bundle, config.root) : [], names);
        },
      },
    },
  ];
}
