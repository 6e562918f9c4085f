// Browser-test harness: the real `lotbook serve --demo` on a fresh data folder, and Debian's
// Chromium driven by playwright-core at a phone viewport. Never a downloaded browser.
import { spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { after, before } from 'node:test';
import { fileURLToPath } from 'node:url';
import { deflateSync as zlibDeflate } from 'node:zlib';
import { chromium } from 'playwright-core';

const here = dirname(fileURLToPath(import.meta.url));
export const ROOT = resolve(here, '../..');
export const BIN = process.env.LOTBOOK_BIN || join(ROOT, 'bin/lotbook');
export const SHOTS = process.env.LOTBOOK_SCREENSHOTS || join(ROOT, 'screenshots');
export const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

// Without the networking flags Chromium floods the closed network with refused requests.
// playwright-core adds --headless and its own fresh --user-data-dir (it refuses one in args).
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** The iPhone X class viewport the issue asks for. */
export const PHONE = {
  viewport: { width: 375, height: 812 },
  deviceScaleFactor: 2,
  isMobile: true,
  hasTouch: true,
  locale: 'zh-TW',
  timezoneId: 'Asia/Taipei',
};

const DEMO = {
  member: { account: '0912345678', password: 'demo1234' },
  ops: { account: 'ops', password: 'opsdemo1' },
  auditor: { account: 'audit', password: 'auditdemo1' },
};
export { DEMO };

function freePort() {
  return new Promise((ok, fail) => {
    const s = createServer();
    s.once('error', fail);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => ok(port));
    });
  });
}

async function waitReady(base, proc, deadline) {
  while (Date.now() < deadline) {
    if (proc.exitCode !== null) return false;
    try {
      const res = await fetch(`${base}/readyz`, { signal: AbortSignal.timeout(1000) });
      if (res.ok) return true;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`lotbook at ${base} not ready within the deadline`);
}

// Every server this process started. They must not outlive it: a test that fails before its
// teardown would otherwise leave the server running, and its pipes would keep this process (and
// so the whole run) waiting forever.
const servers = new Map();
process.on('exit', () => {
  for (const [p, data] of servers) {
    p.kill('SIGKILL');
    rmSync(data, { recursive: true, force: true });
  }
});

/** A seeded data folder the run made once (run.mjs); each server starts on its own copy. */
export const TEMPLATE_ENV = 'LOTBOOK_E2E_TEMPLATE';

/**
 * Starts `lotbook serve --demo` on a free port and a fresh data folder, waits for /readyz.
 * The folder is a copy of the run's seeded template when there is one (the demo seed hashes
 * passwords with argon2: seeding takes seconds of CPU per server under load), else empty.
 * The port is picked before the server binds it; on the rare lost race the start is retried.
 */
export async function startServer({ demo = true } = {}) {
  const data = mkdtempSync(join(tmpdir(), 'lotbook-e2e-'));
  if (demo && process.env[TEMPLATE_ENV]) cpSync(process.env[TEMPLATE_ENV], data, { recursive: true });
  const env = { ...process.env };
  // A production server seals ID and card numbers with its own key (a test key here).
  if (!demo) env.LOTBOOK_SECRET_KEY = E2E_SECRET_KEY;
  // Embedded SQLite only, whatever the developer's shell points at.
  delete env.LOTBOOK_DATABASE_URL;
  delete env.LOTBOOK_EVENTS_URL;
  let last = '';
  for (let attempt = 0; attempt < 3; attempt++) {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const log = [];
    const proc = spawn(BIN, ['serve', ...(demo ? ['--demo'] : []), '--addr', `127.0.0.1:${port}`, '--data', data], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    servers.set(proc, data);
    proc.once('exit', () => servers.delete(proc));
    // The server alone does not keep this process alive (see servers above).
    proc.unref();
    for (const out of [proc.stdout, proc.stderr]) {
      out.unref();
      out.on('data', (b) => {
        log.push(b.toString());
        if (log.length > 400) log.splice(0, log.length - 400);
      });
    }
    const stop = async () => {
      if (proc.exitCode === null && proc.signalCode === null) {
        const exited = new Promise((r) => proc.once('exit', r));
        proc.kill('SIGTERM');
        const timer = setTimeout(() => proc.kill('SIGKILL'), 5000);
        await exited;
        clearTimeout(timer);
      }
    };
    try {
      await new Promise((ok, fail) => {
        proc.once('spawn', ok);
        proc.once('error', fail);
      });
    } catch (e) {
      throw new Error(`cannot start ${BIN} (run \`make bin/lotbook\` or set LOTBOOK_BIN): ${e.message}`);
    }
    let ready;
    try {
      // Generous: on a loaded two-core machine the demo seed and catch-up can take a while.
      ready = await waitReady(base, proc, Date.now() + 60_000);
    } catch (e) {
      await stop();
      rmSync(data, { recursive: true, force: true });
      throw new Error(`${e.message}\n${log.join('')}`);
    }
    if (ready) {
      return {
        base,
        data,
        log: () => log.join(''),
        /** Stops the server, keeping its data folder. */
        halt: stop,
        async stop() {
          await stop();
          rmSync(data, { recursive: true, force: true });
        },
      };
    }
    last = `lotbook exited with ${proc.exitCode}:\n${log.join('')}`;
  }
  rmSync(data, { recursive: true, force: true });
  throw new Error(last);
}

/** The sealing key of the servers started without --demo (never a real one). */
const E2E_SECRET_KEY = 'e2e0'.repeat(16);

/**
 * Runs the lotbook command line (`lotbook user add ...`) on a server's data folder, the way an
 * operator does on the server; stdin is written to it. Resolves with its output, rejects when it
 * fails.
 */
export function runCli(args, { data, stdin = '' }) {
  const env = { ...process.env, LOTBOOK_SECRET_KEY: E2E_SECRET_KEY };
  delete env.LOTBOOK_DATABASE_URL;
  delete env.LOTBOOK_EVENTS_URL;
  return new Promise((ok, fail) => {
    const proc = spawn(BIN, [...args, '--data', data], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    proc.stdout.on('data', (b) => (out += b));
    proc.stderr.on('data', (b) => (out += b));
    proc.once('error', fail);
    proc.once('exit', (code) => (code === 0 ? ok(out) : fail(new Error(`lotbook ${args.join(' ')} exited ${code}: ${out}`))));
    proc.stdin.end(stdin);
  });
}

/**
 * Seeds a data folder for the run's servers: a server on a fresh folder, stopped once ready (its
 * databases closed cleanly). The caller removes the folder.
 */
export async function seedTemplate() {
  const server = await startServer();
  await server.halt();
  return server.data;
}

export function launchBrowser() {
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
}

/**
 * A fresh phone context (own localStorage) and page. Uncaught page errors are collected: a
 * journey fails on any.
 */
export async function newPhone(browser) {
  const context = await browser.newContext(PHONE);
  context.setDefaultTimeout(10_000);
  context.setDefaultNavigationTimeout(15_000);
  const page = await context.newPage();
  const pageErrors = [];
  page.on('pageerror', (e) => pageErrors.push(e));
  return { context, page, pageErrors };
}

/** The visible element with this data-testid (keep-alive screens stay in the DOM, hidden). */
export function tid(scope, id) {
  return scope.getByTestId(id).filter({ visible: true });
}

/** Waits until the element's text, whitespace collapsed, satisfies want (string: equal; RegExp). */
export async function waitText(locator, want, timeout = 10_000) {
  const deadline = Date.now() + timeout;
  let last = '';
  for (;;) {
    try {
      last = (await locator.innerText({ timeout: Math.max(1, deadline - Date.now()) })).replace(/\s+/g, ' ').trim();
      if (typeof want === 'string' ? last === want : want.test(last)) return last;
    } catch (e) {
      if (Date.now() >= deadline) throw e;
    }
    if (Date.now() >= deadline) throw new Error(`text of ${locator}: want ${want}, have ${JSON.stringify(last)}`);
    // Polls the DOM (as Playwright's own expect does); the state comes from the app, not a timer.
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Waits until the visible screen's title bar says text. */
export async function title(page, text) {
  await waitText(page.locator('.adm-nav-bar-title').filter({ visible: true }), text);
}

/** Waits until an authed image inside the locator is decoded. */
export async function imageShown(page, locator) {
  const img = locator.locator('img');
  await img.waitFor();
  await page.waitForFunction((el) => el.complete && el.naturalWidth > 0, await img.elementHandle());
}

/** Waits for a toast (server messages show 2 s) with exactly this text. */
export async function waitToast(page, text) {
  await page.locator('.adm-toast-main').filter({ hasText: text }).first().waitFor({ state: 'visible', timeout: 5000 });
}

/** Waits until the location's hash is exactly `#${path}`. */
export async function waitHash(page, path, timeout = 10_000) {
  await page.waitForFunction((want) => location.hash === want, `#${path}`, { timeout, polling: 50 }).catch(async (e) => {
    throw new Error(`want hash #${path}, have ${await page.evaluate(() => location.hash)}: ${e.message}`);
  });
}

/** Goes to a route of the hash router inside the running app (no page load). */
export async function openRoute(page, path) {
  await page.evaluate((p) => {
    location.hash = p;
  }, path);
  await waitHash(page, path);
}

/**
 * Saves a screenshot of the whole page as screenshots/<lang>/<name>.png. The viewport is made as
 * tall as the page for the picture (a full-page capture would paint the fixed tab bar in the
 * middle of a long page), then restored. Toasts left over from the previous action are hidden
 * unless the screen is about one.
 */
export async function shot(page, lang, name, { toasts = false } = {}) {
  const dir = join(SHOTS, lang);
  mkdirSync(dir, { recursive: true });
  const size = page.viewportSize();
  const height = await page.evaluate(async () => {
    window.scrollTo(0, 0);
    await document.fonts.ready;
    return document.documentElement.scrollHeight;
  });
  const tall = Math.min(Math.max(height, size.height), 4000);
  if (tall > size.height) {
    await page.setViewportSize({ width: size.width, height: tall });
    // Two frames: the resize is laid out and painted before the capture.
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  }
  try {
    await page.screenshot({
      path: join(dir, `${name}.png`),
      animations: 'disabled',
      caret: 'hide',
      style: toasts ? '' : '.adm-toast-mask { display: none !important; }',
    });
  } finally {
    if (tall > size.height) await page.setViewportSize(size);
  }
}

/** Clicks a dialog's button (they animate in; Playwright's click waits until it is stable). */
export async function dialogButton(page, text) {
  const btn = page.locator('.adm-dialog-body .adm-dialog-button').filter({ hasText: text }).filter({ visible: true });
  await btn.click();
  // The dialog animates out; wait until it is gone so the next click reaches the page.
  await page.locator('.adm-dialog-body').filter({ visible: true }).first().waitFor({ state: 'hidden' });
}

/** Resolves with the JSON body of the next response to METHOD path (prefix match on the path). */
export function nextResponse(page, method, path) {
  return page
    .waitForResponse((r) => r.request().method() === method && new URL(r.url()).pathname.startsWith(path), { timeout: 15_000 })
    .then(async (r) => ({ status: r.status(), body: await r.json().catch(() => null) }));
}

let proofSeq = 0;

/**
 * A small real PNG (solid colour with a diagonal band): the server sniffs the content and
 * re-encodes it, so it has to be a genuine image. Each call's first pixel differs, so every
 * image is a file of its own (one proof backs one deposit).
 */
export function proofPng(width = 64, height = 48) {
  proofSeq += 1;
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (buf) => {
    let c = 0xffffffff;
    for (const b of buf) c = crcTable[(c ^ b) & 0xff] ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type, data) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const td = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const sum = Buffer.alloc(4);
    sum.writeUInt32BE(crc(td));
    return Buffer.concat([len, td, sum]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // RGB
  const raw = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) {
    const row = y * (width * 3 + 1);
    for (let x = 0; x < width; x++) {
      const band = Math.abs(x - y) < 6;
      raw.set(band ? [220, 38, 38] : [37, 99, 235], row + 1 + x * 3);
    }
  }
  raw.set([proofSeq & 0xff, (proofSeq >> 8) & 0xff, 235], 1);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', zlibDeflate(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/**
 * One file's fixture: server, browser, and `step`, a subtest of t that, when it fails, saves a
 * screenshot of the page to screenshots/failures/ and adds the server log's tail to the error;
 * the steps after a failed one are skipped (they depend on it).
 */
export async function setup() {
  const server = await startServer();
  const browser = await launchBrowser().catch(async (e) => {
    await server.stop();
    throw e;
  });
  const failed = new WeakSet();
  return {
    server,
    browser,
    async teardown() {
      await browser.close().catch(() => {});
      await server.stop();
    },
    async step(t, name, page, fn) {
      if (failed.has(t)) return t.test(name, { skip: 'an earlier step failed' }, () => {});
      await t.test(name, async (st) => {
        try {
          await fn(st);
        } catch (e) {
          failed.add(t);
          const dir = join(SHOTS, 'failures');
          mkdirSync(dir, { recursive: true });
          const file = join(dir, `${name.replace(/[^\w-]+/g, '_')}.png`);
          await page.screenshot({ path: file, fullPage: true }).catch(() => {});
          const tail = server.log().split('\n').slice(-15).join('\n');
          e.message += `\n  url: ${page.url()}\n  screenshot: ${file}\n  server log tail:\n${tail}`;
          throw e;
        }
      });
    },
  };
}

/**
 * Sets this file's fixture up before its tests and tears it down after them. The returned object
 * is the fixture (see setup) once the tests run; with `phone`, fx.phone is a phone on its browser.
 */
export function useFixture({ phone = false } = {}) {
  const fx = {};
  before(async () => {
    Object.assign(fx, await setup());
    if (phone) fx.phone = await newPhone(fx.browser);
  });
  after(async () => {
    await fx.teardown?.();
  });
  return fx;
}

/** A fresh valid mobile number (09 and eight digits) that no other run uses. */
export function freshMobile() {
  for (;;) {
    const n = `09${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;
    if (n !== DEMO.member.account) return n;
  }
}

/** The app's money filter: two decimals with thousands separators. */
export function money(s) {
  const [i, f = ''] = String(s).split('.');
  return `${i.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}.${(f + '00').slice(0, 2)}`;
}
