import { compareDecimal, money } from '@/lib/filters';
import type { AppLang } from '@/lib/i18n';

/** Shares in a board lot (張), spec section 9. */
export const LOT = 1000;

/** The instrument's name in the language shown: Chinese in tw, English (if any) in en. */
export function displayName(q: { name: string; nameEn?: string }, lang: AppLang): string {
  return lang === 'en' && q.nameEn ? q.nameEn : q.name;
}

/** Taiwan colours of a value against a reference: red above, green below, none equal. */
export function priceTrend(v: unknown, ref: unknown): '' | 'up' | 'down' {
  const c = compareDecimal(v, ref);
  return c === 1 ? 'up' : c === -1 ? 'down' : '';
}

function isZeroOrMissing(v: unknown): boolean {
  const c = compareDecimal(v, '0');
  return c === null || c === 0;
}

/**
 * Whether a stock or ETF trades at its limit today: 'up' at 漲停, 'down' at 跌停, '' otherwise
 * (an index, or before the day's first trade).
 */
export function atLimit(q: { type?: string; open?: unknown; price: unknown; limitUp?: unknown; limitDown?: unknown }): '' | 'up' | 'down' {
  if (q.type === 'index' || isZeroOrMissing(q.open) || isZeroOrMissing(q.limitUp)) return '';
  if (compareDecimal(q.price, q.limitUp) === 0) return 'up';
  if (compareDecimal(q.price, q.limitDown) === 0) return 'down';
  return '';
}

/** A price with 2 decimals and separators; "--" before the day's first trade (zero) or when absent. */
export function formatPrice(v: unknown): string {
  return isZeroOrMissing(v) ? '--' : money(v);
}

/** A change with its sign: +1.50, -0.35, 0.00. */
export function formatChange(v: unknown): string {
  const s = money(v);
  return compareDecimal(v, '0') === 1 ? `+${s}` : s;
}

/** A percent change with its sign: +1.25%, -3.00%, 0.00%. */
export function formatPercent(v: unknown): string {
  return `${formatChange(v)}%`;
}

function toInt(v: unknown): number {
  const n = typeof v === 'number' ? v : typeof v === 'string' ? Number(v) : NaN;
  return Number.isFinite(n) ? Math.trunc(n) : 0;
}

const group = (n: number) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');

/** Whole board lots (張) in a number of shares, with separators: 12345678 → "12,345". */
export function formatLots(shares: unknown): string {
  return group(Math.floor(Math.max(0, toInt(shares)) / LOT));
}

/** Shares with separators. */
export function formatShares(shares: unknown): string {
  return group(Math.max(0, toInt(shares)));
}

/** Moves a decimal string's point n places left ("123456", 4 → "12.3456"); null if not a number. */
function shiftLeft(v: unknown, n: number): string | null {
  const s = typeof v === 'number' ? String(v) : v;
  if (typeof s !== 'string') return null;
  const m = /^\s*(-?)(\d+)(?:\.(\d*))?\s*$/.exec(s);
  if (!m) return null;
  const int = m[2]!.padStart(n + 1, '0');
  return `${m[1]}${int.slice(0, int.length - n)}.${int.slice(int.length - n)}${m[3] ?? ''}`;
}

export interface BigUnit {
  digits: number;
  suffix: string;
}

/**
 * Parses the translation's unit list, "8:億,4:萬" (tw) or "9:B,6:M,3:K" (en): how many digits
 * each suffix stands for, largest first.
 */
export function parseUnits(spec: string): BigUnit[] {
  return spec
    .split(',')
    .map((part) => {
      const i = part.indexOf(':');
      return { digits: Number(part.slice(0, i)), suffix: part.slice(i + 1) };
    })
    .filter((u) => Number.isInteger(u.digits) && u.digits > 0 && u.suffix !== '')
    .sort((a, b) => b.digits - a.digits);
}

/**
 * A large amount in the language's units with 2 decimals: 123456789 → "1.23億" (tw) or
 * "123.46M" (en); below the smallest unit, money with separators.
 */
export function formatBig(v: unknown, units: readonly BigUnit[]): string {
  const s = typeof v === 'number' ? String(v) : v;
  if (typeof s !== 'string' || compareDecimal(s, '0') === null) return money(s);
  const abs = s.trim().replace(/^-/, '');
  for (const u of units) {
    if (compareDecimal(abs, `1${'0'.repeat(u.digits)}`) !== -1) return money(shiftLeft(s, u.digits)) + u.suffix;
  }
  return money(s);
}

/**
 * A candle's start as the chart's time: seconds, shifted to Taipei's wall clock, because the
 * chart draws its time axis in UTC.
 */
export const TAIPEI_OFFSET_S = 8 * 3600;
export function chartTime(iso: string): number {
  return Math.floor(Date.parse(iso) / 1000) + TAIPEI_OFFSET_S;
}
