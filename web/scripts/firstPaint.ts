// The first paint of the web build (issue 14 item 6, cold start): what a phone shows before any
// script of the app has run, and the app loading only after that.
// - The welcome page, the first route, is rendered at build time in both languages
//   (src/app/prerender.tsx) into index.html as two inert templates; index.html's inline script
//   shows the one of the visitor's language when the address leads there (else its skeleton).
// - The entry's styles are inlined, so that the page paints with the HTML alone.
// - The entry script and its preloads are requested once that first frame has painted: on a slow
//   phone the app's script would otherwise run before the first paint and hold it back.
import react from '@vitejs/plugin-react';
import type { IndexHtmlTransformContext, Plugin, ResolvedConfig } from 'vite';

/** The mark in index.html that the templates replace. */
export const WELCOME_MARK = '<!-- prerendered welcome -->';

/** The templates index.html carries, one per language (ids read by its inline script). */
export function welcomeTemplates(byLang: Record<'tw' | 'en', string>): string {
  // Without test ids: a browser test waits for the app's page, whose buttons work, not this copy.
  const bare = (html: string) => html.replace(/ data-testid="[^"]*"/g, '');
  return (['tw', 'en'] as const).map((l) => `<template id="lb-welcome-${l}">${bare(byLang[l])}</template>`).join('');
}

const ENTRY = /\s*<script type="module" crossorigin src="([^"]+)"><\/script>/;
const PRELOAD = /\s*<link rel="modulepreload" crossorigin href="([^"]+)">/g;
const STYLESHEET = /\s*<link rel="stylesheet" crossorigin href="\.\/([^"]+)">/g;

/**
 * The built index.html with the entry's styles inline (css: file name to text) and its scripts
 * loaded by an inline script once the first frame has painted (or at once in a hidden tab, which
 * paints no frame), in the order Vite listed them.
 */
export function paintBeforeScripts(html: string, css: Record<string, string>): string {
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
  const loader = `<script>
      (function () {
        var add = function (rel, href) {
          var el = document.createElement(rel ? 'link' : 'script');
          el.crossOrigin = '';
          if (rel) { el.rel = rel; el.href = href; } else { el.type = 'module'; el.src = href; }
          document.head.appendChild(el);
        };
        var load = function () {
          add('', ${JSON.stringify(entry)});
          ${JSON.stringify(preloads)}.forEach(function (href) { add('modulepreload', href); });
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
            return html.replace(WELCOME_MARK, welcomeTemplates(byLang));
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
          return paintBeforeScripts(html, css);
        },
      },
    },
  ];
}
