import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { precompress } from './precompress';

describe('precompress', () => {
  let dir = '';
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'precompress-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('writes a brotli and a gzip twin of every text file that decode to the original', () => {
    mkdirSync(join(dir, 'assets'));
    mkdirSync(join(dir, '.vite'));
    const text = {
      'index.html': '<!doctype html><div id="root"></div>',
      'favicon.svg': '<svg xmlns="http://www.w3.org/2000/svg"/>',
      'assets/index-1a.js': 'console.log("lotbook");'.repeat(40),
      'assets/index-2b.css': 'body{margin:0}'.repeat(40),
    };
    for (const [name, body] of Object.entries(text)) writeFileSync(join(dir, name), body);
    writeFileSync(join(dir, 'assets/photo-3c.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47]));
    writeFileSync(join(dir, '.vite/manifest.json'), '{}');

    precompress(dir);

    for (const [name, body] of Object.entries(text)) {
      expect(brotliDecompressSync(readFileSync(join(dir, `${name}.br`))).toString()).toBe(body);
      expect(gunzipSync(readFileSync(join(dir, `${name}.gz`))).toString()).toBe(body);
    }
    expect(readdirSync(join(dir, 'assets')).filter((n) => n.startsWith('photo'))).toEqual(['photo-3c.png']);
    expect(readdirSync(join(dir, '.vite'))).toEqual(['manifest.json']);
  });
});
