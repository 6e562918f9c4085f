#!/usr/bin/env node
// Prints the size as served (the build's brotli twins, which browsers get) of the first route's
// JavaScript and CSS (the entry with everything it imports statically, plus the lazily loaded
// welcome page at /login/start, where / redirects) and of the whole build. Reads
// dist/.vite/manifest.json, so run `npm run build` first. Exit status 1 when the first route
// exceeds the budget (150 KB). The bytes a browser really transfers for the first route (with
// index.html, API calls and headers) are measured by e2e/delivery.e2e.mjs.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync } from 'node:zlib';

const BUDGET = 150 * 1024;
const FIRST_ROUTE = 'src/features/auth/StartPage.tsx';
const dist = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist');
const manifest = JSON.parse(readFileSync(join(dist, '.vite', 'manifest.json'), 'utf8'));

// The .br twin the build wrote (scripts/precompress.ts), else the file compressed here.
const served = (file) => {
  try {
    return statSync(join(dist, `${file}.br`)).size;
  } catch {
    return brotliCompressSync(readFileSync(join(dist, file))).length;
  }
};

function collect(key, js, css) {
  const chunk = manifest[key];
  if (!chunk || js.has(chunk.file)) return;
  js.add(chunk.file);
  for (const c of chunk.css ?? []) css.add(c);
  for (const imp of chunk.imports ?? []) collect(imp, js, css);
}

const entry = Object.keys(manifest).find((k) => manifest[k].isEntry);
if (!entry || !manifest[FIRST_ROUTE]) {
  console.error('size: entry or first route missing from the manifest');
  process.exit(2);
}
const js = new Set();
const css = new Set();
collect(entry, js, css);
collect(FIRST_ROUTE, js, css);

function walk(dir) {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? walk(p) : [p];
  });
}
const all = walk(join(dist, 'assets'))
  .map((p) => p.slice(dist.length + 1))
  .filter((f) => !f.endsWith('.br') && !f.endsWith('.gz'));

const sum = (files) => [...files].reduce((n, f) => n + served(f), 0);
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
const firstJs = sum(js);
const firstCss = sum(css);
const totalJs = sum(all.filter((f) => f.endsWith('.js')));
const totalCss = sum(all.filter((f) => f.endsWith('.css')));

console.log(`first route JS  (brotli): ${kb(firstJs)} in ${js.size} files`);
console.log(`first route CSS (brotli): ${kb(firstCss)} in ${css.size} files`);
console.log(`first route total (brotli): ${kb(firstJs + firstCss)} (budget ${kb(BUDGET)})`);
console.log(`whole build (brotli): JS ${kb(totalJs)}, CSS ${kb(totalCss)}, total ${kb(totalJs + totalCss)}`);
if (firstJs + firstCss > BUDGET) {
  console.error('size: the first route is over budget');
  process.exit(1);
}
