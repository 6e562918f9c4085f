// The spec's display filters (section 9) as pure functions. Money arrives as decimal strings;
// the arithmetic here is on digits, never on floats, so 0.29 × 100 stays 29.

interface Parsed {
  neg: boolean;
  int: string; // no leading zeros except "0"
  frac: string;
}

const NUMERIC = /^\s*([+-])?(\d+)?(?:\.(\d*))?\s*$/;

function parse(v: unknown): Parsed | null {
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) return null;
    v = v.toFixed(Math.min(20, Math.max(0, fractionDigits(v))));
  }
  if (typeof v !== 'string') return null;
  const m = NUMERIC.exec(v);
  if (!m || (m[2] === undefined && !m[3])) return null;
  const int = (m[2] ?? '0').replace(/^0+(?=\d)/, '');
  return { neg: m[1] === '-', int, frac: m[3] ?? '' };
}

function fractionDigits(n: number): number {
  const s = String(n);
  if (s.includes('e-')) return Number(s.split('e-')[1]) + 2;
  const i = s.indexOf('.');
  return i < 0 ? 0 : s.length - i - 1;
}

/** Adds one to a string of digits. */
function increment(digits: string): string {
  const a = digits.split('');
  for (let i = a.length - 1; i >= 0; i--) {
    if (a[i] === '9') a[i] = '0';
    else {
      a[i] = String(Number(a[i]) + 1);
      return a.join('');
    }
  }
  return '1' + a.join('');
}

/** Rounds half away from zero to `places` decimals. */
function round(p: Parsed, places: number): Parsed {
  const frac = p.frac.padEnd(places + 1, '0');
  let kept = p.int + frac.slice(0, places);
  if (Number(frac[places]) >= 5) kept = increment(kept);
  const int = kept.slice(0, kept.length - places).replace(/^0+(?=\d)/, '') || '0';
  return { neg: p.neg, int, frac: kept.slice(kept.length - places) };
}

function isZero(p: Parsed): boolean {
  return /^0*$/.test(p.int) && /^0*$/.test(p.frac);
}

function group(int: string): string {
  return int.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** Money: 2 decimals with thousands separators; empty or non-numeric gives 0.00. */
export function money(v: unknown): string {
  const p = parse(v);
  if (!p) return '0.00';
  const r = round(p, 2);
  const sign = r.neg && !isZero(r) ? '-' : '';
  return `${sign}${group(r.int)}.${r.frac}`;
}

/** Plain 2-decimal rendering without separators (inputs, short numbers). */
function fixed2(p: Parsed): string {
  const r = round(p, 2);
  return `${r.neg && !isZero(r) ? '-' : ''}${r.int}.${r.frac}`;
}

/** Moves the decimal point `n` places left. */
function shiftLeft(p: Parsed, n: number): Parsed {
  const int = p.int.padStart(n + 1, '0');
  return { neg: p.neg, int: int.slice(0, int.length - n).replace(/^0+(?=\d)/, ''), frac: int.slice(int.length - n) + p.frac };
}

/**
 * Short number: 7 or more integer digits in millions, 4 or more in thousands (K), otherwise
 * 2 decimals. The suffixes come from the translation files.
 */
export function shortNumber(v: unknown, suffix: { million: string; thousand: string }): string {
  const p = parse(v);
  if (!p) return '0.00';
  const digits = p.int.length;
  if (digits >= 7) return fixed2(shiftLeft(p, 6)) + suffix.million;
  if (digits >= 4) return fixed2(shiftLeft(p, 3)) + suffix.thousand;
  return fixed2(p);
}

/** Text past 9 characters is cut to its first 10. */
export function cut10(s: string | null | undefined): string {
  const t = s ?? '';
  return t.length > 9 ? t.slice(0, 10) : t;
}

/** Text past 20 characters becomes its first 6 and last 6 joined by dots. */
export function middleEllipsis(s: string | null | undefined): string {
  const t = s ?? '';
  return t.length > 20 ? `${t.slice(0, 6)}...${t.slice(-6)}` : t;
}

/** Multiplies by 100 and truncates toward zero (ratios shown as whole percents). */
export function times100(v: unknown): number {
  const p = parse(v);
  if (!p) return 0;
  const frac = p.frac.padEnd(2, '0');
  const n = Number((p.int + frac.slice(0, 2)).replace(/^0+(?=\d)/, ''));
  return p.neg && n !== 0 ? -n : n;
}

/** Compares two decimal strings: -1, 0 or 1; null when either is not a number. */
export function compareDecimal(a: unknown, b: unknown): -1 | 0 | 1 | null {
  const x = parse(a);
  const y = parse(b);
  if (!x || !y) return null;
  const sx = isZero(x) ? 1 : x.neg ? -1 : 1;
  const sy = isZero(y) ? 1 : y.neg ? -1 : 1;
  if (sx !== sy) return sx < sy ? -1 : 1;
  const len = Math.max(x.frac.length, y.frac.length);
  const ax = x.int.padStart(64, '0') + x.frac.padEnd(len, '0');
  const ay = y.int.padStart(64, '0') + y.frac.padEnd(len, '0');
  const c = ax === ay ? 0 : ax < ay ? -1 : 1;
  return (sx < 0 ? -c : c) as -1 | 0 | 1;
}

/** Formats an RFC 3339 time in Asia/Taipei as YYYY-MM-DD HH:mm:ss; bad input gives ''. */
export function taipeiTime(iso: string | null | undefined): string {
  if (!iso) return '';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone: 'Asia/Taipei',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(d);
  const get = (t: string) => parts.find((p) => p.type === t)?.value ?? '';
  return `${get('year')}-${get('month')}-${get('day')} ${get('hour')}:${get('minute')}:${get('second')}`;
}

/** A window from one time to another in Asia/Taipei, to the minute (an offering's opening hours). */
export function taipeiWindow(from: string, to: string): string {
  return `${taipeiTime(from).slice(0, 16)} – ${taipeiTime(to).slice(0, 16)}`;
}
