import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

// The typed client is generated from api/openapi.yaml; this fails when the committed file is
// stale. Fix: `npm run gen:api` and commit src/lib/api/schema.d.ts.
describe('generated API types', () => {
  it('match api/openapi.yaml', () => {
    const web = resolve(__dirname, '../../..');
    const dir = mkdtempSync(join(tmpdir(), 'lb-schema-'));
    try {
      const out = join(dir, 'schema.d.ts');
      execFileSync(process.execPath, [join(web, 'node_modules/openapi-typescript/bin/cli.js'), join(web, '../api/openapi.yaml'), '-o', out], { stdio: 'pipe' });
      expect(readFileSync(join(web, 'src/lib/api/schema.d.ts'), 'utf8'), 'schema.d.ts is stale: run npm run gen:api').toBe(readFileSync(out, 'utf8'));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 30_000);
});
