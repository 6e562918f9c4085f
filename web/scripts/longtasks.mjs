#!/usr/bin/env node
// The main thread's work at a cold start, from a Chromium trace at Lighthouse's 4x CPU slowdown
// (real throttling, no network throttling), against a fresh `lotbook serve --demo` (bin/lotbook,
// or LOTBOOK_BIN). Prints per screen the medians of several runs: the summed long-task time (tasks
// of 50 ms or more), its blocking part (each task's time over 50 ms), and the main thread's CPU
// time (thread time: without the time the throttling or other processes held the thread, so it
// follows the work more than the machine's load); then the long tasks of the last run (on
// stderr), each with where its time went.
// Usage: node scripts/longtasks.mjs [runs]
import { CHROMIUM, PHONE, startServer } from '../e2e/harness.mjs';
import { chromium } from 'playwright-core';

const runs = Number(process.argv[2] ?? 3);
const SCREENS = [
  // The app's own welcome page (the prerendered copy has no test ids) and its first quote rows.
  ['welcome', '/', '[data-testid=welcome]'],
  ['market', '/#/market/market', '[data-testid=quote-row]'],
];
const LONG_MS = 50;
const CATEGORIES = ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8.execute', 'v8', 'blink', 'loading', 'toplevel'];

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** The renderer main thread that ran the most: the page's, whichever process it navigated to. */
function mainThread(events) {
  const mains = new Set(events.filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain').map((e) => `${e.pid}:${e.tid}`));
  const busy = new Map();
  for (const e of events) {
    const k = `${e.pid}:${e.tid}`;
    if (e.ph === 'X' && e.name === 'RunTask' && mains.has(k)) busy.set(k, (busy.get(k) ?? 0) + e.dur);
  }
  return [...busy].sort((a, b) => b[1] - a[1])[0]?.[0];
}

/** What a child event did, as a short label (the script for evaluation and calls). */
function label(e) {
  const d = e.args?.data ?? e.args?.beginData ?? {};
  const file = (d.url ?? d.fileName ?? '').split('/').pop();
  if (e.name === 'FunctionCall') return `FunctionCall ${file}:${d.functionName ?? ''}`;
  return file ? `${e.name} ${file}` : e.name;
}

/**
 * The long tasks of one trace: each with its duration and where it went, as self time (an event's
 * time less its children's) summed by what the events did.
 */
function longTasks(events) {
  const main = mainThread(events);
  const on = events.filter((e) => `${e.pid}:${e.tid}` === main && e.ph === 'X' && typeof e.dur === 'number').sort((a, b) => a.ts - b.ts || b.dur - a.dur);
  const tasks = on.filter((e) => e.name === 'RunTask' && e.dur >= LONG_MS * 1000);
  // Thread time: the work itself, without the time the throttling or other processes held the thread.
  const cpu = on.filter((e) => e.name === 'RunTask').reduce((s, e) => s + (e.tdur ?? 0), 0) / 1000;
  const long = tasks.map((t) => {
    const inside = on.filter((e) => e.ts >= t.ts && e.ts + e.dur <= t.ts + t.dur);
    const self = new Map(inside.map((e) => [e, e.dur]));
    const stack = [];
    for (const e of inside) {
      while (stack.length > 0 && stack.at(-1).ts + stack.at(-1).dur <= e.ts) stack.pop();
      if (stack.length > 0) self.set(stack.at(-1), self.get(stack.at(-1)) - e.dur);
      stack.push(e);
    }
    const byLabel = new Map();
    for (const [e, us] of self) byLabel.set(label(e), (byLabel.get(label(e)) ?? 0) + us / 1000);
    const top = [...byLabel].sort((a, b) => b[1] - a[1]).slice(0, 5);
    return { at: t.ts, ms: t.dur / 1000, cpu: (t.tdur ?? 0) / 1000, top };
  });
  return { cpu, long };
}

const server = await startServer();
const browser = await chromium.launch({
  executablePath: CHROMIUM,
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
try {
  for (const [name, path, ready] of SCREENS) {
    const sums = [];
    const blocking = [];
    const cpus = [];
    const longCpus = [];
    let last = [];
    for (let i = 0; i < runs; i++) {
      const context = await browser.newContext(PHONE);
      const page = await context.newPage();
      const cdp = await context.newCDPSession(page);
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
      await browser.startTracing(page, { categories: CATEGORIES });
      await page.goto(`${server.base}${path}`);
      await page.locator(ready).first().waitFor({ timeout: 60_000 });
      // What runs after the first render (effects, the socket's first quotes) counts too.
      await page.waitForTimeout(3000);
      const { traceEvents } = JSON.parse((await browser.stopTracing()).toString());
      await context.close();
      const { cpu, long: tasks } = longTasks(traceEvents);
      cpus.push(cpu);
      longCpus.push(tasks.reduce((s, t) => s + t.cpu, 0));
      sums.push(tasks.reduce((s, t) => s + t.ms, 0));
      blocking.push(tasks.reduce((s, t) => s + t.ms - LONG_MS, 0));
      last = tasks;
    }
    const ms = (xs) => `${median(xs).toFixed(0)} ms (${xs.map((x) => x.toFixed(0)).join(' ')})`;
    console.log(`long tasks ${name} (4x CPU, median of ${runs}): ${ms(sums)}, blocking ${ms(blocking)}`);
    console.log(`main thread CPU ${name} (median of ${runs}): ${ms(cpus)}, in long tasks ${ms(longCpus)}`);
    const t0 = last[0]?.at ?? 0;
    for (const t of last) {
      console.error(`  ${name} +${((t.at - t0) / 1000).toFixed(0)} ms: ${t.ms.toFixed(0)} ms: ${t.top.map(([l, ms]) => `${l} ${ms.toFixed(0)}`).join(', ')}`);
    }
  }
} finally {
  await browser.close();
  await server.stop();
}
