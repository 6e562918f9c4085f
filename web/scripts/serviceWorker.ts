// The service worker of the web build (issue 13 item 7): scripts/sw-template.js with the app
// shell's files (index.html, the entry chunk and what it imports statically, its styles, the
// manifest and icons) and a version derived from them, emitted as dist/sw.js.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Plugin } from 'vite';

/** The static files of public/ the shell keeps. */
export const SHELL_STATIC = ['./', 'manifest.webmanifest', 'favicon.svg', 'icon-192.png', 'icon-512.png'];

interface Chunkish {
  type: 'chunk' | 'asset';
  fileName: string;
  isEntry?: boolean;
  imports?: string[];
  viteMetadata?: { importedCss?: Set<string> };
}

/** The entry chunks, their static imports (transitively) and their styles. */
export function shellFiles(bundle: Record<string, Chunkish>): string[] {
  const out = new Set<string>();
  const visit = (name: string) => {
    const c = bundle[name];
    if (!c || c.type !== 'chunk' || out.has(name)) return;
    out.add(name);
    for (const css of c.viteMetadata?.importedCss ?? []) out.add(css);
    for (const i of c.imports ?? []) visit(i);
  };
  for (const c of Object.values(bundle)) if (c.type === 'chunk' && c.isEntry) visit(c.fileName);
  return [...out].sort();
}

/** The worker's source: the template with the shell list and its version filled in. */
export function renderServiceWorker(template: string, shell: string[]): string {
  const version = createHash('sha256').update(shell.join('\n')).digest('hex').slice(0, 12);
  return template.replace('__VERSION__', JSON.stringify(version)).replace('__SHELL__', JSON.stringify(shell));
}

export function serviceWorkerPlugin(): Plugin {
  return {
    name: 'lotbook-service-worker',
    apply: 'build',
    generateBundle(_opts, bundle) {
      const template = readFileSync(new URL('./sw-template.js', import.meta.url), 'utf8');
      const shell = [...SHELL_STATIC, ...shellFiles(bundle as unknown as Record<string, Chunkish>)];
      this.emitFile({ type: 'asset', fileName: 'sw.js', source: renderServiceWorker(template, shell) });
    },
  };
}
