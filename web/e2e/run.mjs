// `npm run e2e`: the browser tests (node:test, one lotbook server and one Chromium per file).
// Uses LOTBOOK_BIN (as `make e2e` sets it), else builds bin/lotbook with make. Screenshots go to
// screenshots/ at the repository root (LOTBOOK_SCREENSHOTS overrides), cleared first.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CHROMIUM, ROOT, SHOTS, seedTemplate, TEMPLATE_ENV } from './harness.mjs';

const here = dirname(fileURLToPath(import.meta.url));

if (!existsSync(CHROMIUM)) {
  console.error(`e2e: ${CHROMIUM} is missing; install Debian's Chromium (apt-get install chromium), never a downloaded browser`);
  process.exit(1);
}
if (!process.env.LOTBOOK_BIN) {
  const made = spawnSync('make', ['-C', ROOT, 'bin/lotbook'], { stdio: 'inherit' });
  if (made.status !== 0) process.exit(made.status ?? 1);
  process.env.LOTBOOK_BIN = join(ROOT, 'bin/lotbook');
}
for (const sub of ['tw', 'en', 'failures']) rmSync(join(SHOTS, sub), { recursive: true, force: true });

// A file filter on the command line runs only the matching files: `npm run e2e -- journey`.
const only = process.argv.slice(2);
// The longest files start first, so the last ones to start are short and the run ends together.
const LONGEST_FIRST = ['market', 'errors', 'wallet', 'screens', 'journey'];
const weight = (f) => {
  const i = LONGEST_FIRST.findIndex((w) => f.startsWith(w));
  return i < 0 ? LONGEST_FIRST.length : i;
};
const files = readdirSync(here)
  .filter((f) => f.endsWith('.e2e.mjs'))
  .filter((f) => only.length === 0 || only.some((o) => f.includes(o)))
  .sort((a, b) => weight(a) - weight(b) || a.localeCompare(b))
  .map((f) => join(here, f));
if (files.length === 0) {
  console.error(`e2e: no test file matches ${only.join(' ')}`);
  process.exit(1);
}

const started = Date.now();
// One demo seed for a run of several files; every file's server starts on a copy of it.
const template = files.length > 1 ? await seedTemplate() : undefined;
if (template) process.on('exit', () => rmSync(template, { recursive: true, force: true }));

// Three files at a time (E2E_JOBS overrides): each is a server plus a browser, mostly waiting
// on each other; on two cores three measured 113 s against 143 s for two, four no better.
// --test-force-exit ends a file's process once its tests are done, even if a failed test left a
// handle open; the watchdog ends the whole run (its process group) if it hangs anyway.
const JOBS = Number(process.env.E2E_JOBS) || 3;
const WATCHDOG_MS = 25 * 60_000;
const run = spawn(process.execPath, ['--test', '--test-force-exit', `--test-concurrency=${JOBS}`, '--test-reporter=spec', ...files], {
  stdio: 'inherit',
  detached: true,
  env: template ? { ...process.env, [TEMPLATE_ENV]: template } : process.env,
});
const watchdog = setTimeout(() => {
  console.error(`e2e: still running after ${WATCHDOG_MS / 60_000} min, stopping it`);
  process.kill(-run.pid, 'SIGKILL');
}, WATCHDOG_MS);
const [code, signal] = await new Promise((r) => run.once('exit', (c, s) => r([c, s])));
clearTimeout(watchdog);
console.log(`e2e: ${files.length} files in ${((Date.now() - started) / 1000).toFixed(1)} s; screenshots in ${SHOTS}`);
process.exit(signal ? 1 : (code ?? 1));
