import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { renderServiceWorker, shellFiles } from './serviceWorker';

describe('the service worker of the build', () => {
  const bundle = {
    'assets/index-a.js': { type: 'chunk' as const, fileName: 'assets/index-a.js', isEntry: true, imports: ['assets/i18n-b.js'], viteMetadata: { importedCss: new Set(['assets/index-a.css']) } },
    'assets/i18n-b.js': { type: 'chunk' as const, fileName: 'assets/i18n-b.js', imports: ['assets/index-a.js'] },
    'assets/Screen-c.js': { type: 'chunk' as const, fileName: 'assets/Screen-c.js', imports: ['assets/i18n-b.js'] },
    'assets/index-a.css': { type: 'asset' as const, fileName: 'assets/index-a.css' },
  };

  it('keeps the entry, its static imports and styles, not the lazy screens', () => {
    expect(shellFiles(bundle)).toEqual(['assets/i18n-b.js', 'assets/index-a.css', 'assets/index-a.js']);
  });

  it('fills the template, with a version that follows the files', () => {
    const template = readFileSync(join(process.cwd(), 'scripts/sw-template.js'), 'utf8');
    const a = renderServiceWorker(template, ['./', 'assets/index-a.js']);
    const b = renderServiceWorker(template, ['./', 'assets/index-b.js']);
    expect(a).toContain('const SHELL = ["./","assets/index-a.js"]');
    expect(a).not.toContain('__VERSION__');
    expect(a.match(/const VERSION = "(\w+)"/)?.[1]).not.toBe(b.match(/const VERSION = "(\w+)"/)?.[1]);
    // The worker never answers the API: member data stays out of its caches.
    expect(template).toMatch(/api\//);
  });
});
