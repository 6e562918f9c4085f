#!/usr/bin/env node
// Cold start as a phone sees it: Lighthouse's default (mobile) preset, which emulates a mid-range
// phone (4x CPU slowdown, slow 4G), against a fresh `lotbook serve --demo` (bin/lotbook, or
// LOTBOOK_BIN) driving Debian's Chromium. Prints the median of several runs per screen, one
// "figure: value" line each (ops/bench turns them into rows). Usage: node scripts/lighthouse.mjs [runs]
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { CHROMIUM, startServer } from '../e2e/harness.mjs';

const runs = Number(process.argv[2] ?? 3);
// The first screens a visitor meets: the welcome page (where / leads) and the market list.
const SCREENS = [
  ['welcome', '/'],
  ['market', '/#/market/market'],
];
const METRICS = [
  ['LCP', 'largest-contentful-paint', 'ms'],
  ['FCP', 'first-contentful-paint', 'ms'],
  ['TBT', 'total-blocking-time', 'ms'],
  ['CLS', 'cumulative-layout-shift', ''],
  ['interactive', 'interactive', 'ms'],
];

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
};
const show = (v, unit) => (unit === 'ms' ? `${v.toFixed(0)} ms` : v.toFixed(3));

const server = await startServer();
const chrome = await chromeLauncher.launch({
  chromePath: CHROMIUM,
  chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu'],
});
try {
  for (const [name, path] of SCREENS) {
    const seen = Object.fromEntries(METRICS.map(([k]) => [k, []]));
    for (let i = 0; i < runs; i++) {
      const result = await lighthouse(`${server.base}${path}`, { port: chrome.port, onlyCategories: ['performance'], output: 'json', logLevel: 'error' });
      const audits = result?.lhr.audits ?? {};
      for (const [k, id] of METRICS) {
        const v = audits[id]?.numericValue;
        if (typeof v !== 'number') throw new Error(`lighthouse gave no ${id} for ${path}: ${result?.lhr.runtimeError?.message ?? 'no result'}`);
        seen[k].push(v);
      }
    }
    for (const [k, , unit] of METRICS) console.log(`lighthouse ${name} ${k} (mobile, median of ${runs}): ${show(median(seen[k]), unit)}`);
  }
} finally {
  await chrome.kill();
  await server.stop();
}
