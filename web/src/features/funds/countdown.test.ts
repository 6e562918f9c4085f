import { describe, expect, it } from 'vitest';
import { clock, countdown, QUOTE_LOCK_MS, quoteDeadline } from './countdown';

const T0 = Date.parse('2026-05-04T01:00:00Z');

describe('countdown', () => {
  it.each([
    [30_000, { days: 0, hours: 0, minutes: 0, seconds: 30, total: 30 }, '00:30'],
    [29_001, { days: 0, hours: 0, minutes: 0, seconds: 30, total: 30 }, '00:30'],
    [29_000, { days: 0, hours: 0, minutes: 0, seconds: 29, total: 29 }, '00:29'],
    [1, { days: 0, hours: 0, minutes: 0, seconds: 1, total: 1 }, '00:01'],
    [0, { days: 0, hours: 0, minutes: 0, seconds: 0, total: 0 }, '00:00'],
    [-5_000, { days: 0, hours: 0, minutes: 0, seconds: 0, total: 0 }, '00:00'],
    [NaN, { days: 0, hours: 0, minutes: 0, seconds: 0, total: 0 }, '00:00'],
    [61_000, { days: 0, hours: 0, minutes: 1, seconds: 1, total: 61 }, '01:01'],
    [3_600_000, { days: 0, hours: 1, minutes: 0, seconds: 0, total: 3600 }, '01:00:00'],
    [86_399_000, { days: 0, hours: 23, minutes: 59, seconds: 59, total: 86_399 }, '23:59:59'],
    [86_400_000, { days: 1, hours: 0, minutes: 0, seconds: 0, total: 86_400 }, '00:00:00'],
    [(2 * 86_400 + 3 * 3600 + 4 * 60 + 5) * 1000, { days: 2, hours: 3, minutes: 4, seconds: 5, total: 2 * 86_400 + 3 * 3600 + 4 * 60 + 5 }, '03:04:05'],
  ])('%d ms left → %j, clock %s', (left, want, text) => {
    const c = countdown(T0 + left, T0);
    expect(c).toEqual(want);
    expect(clock(c)).toBe(text);
  });
});

describe('quoteDeadline', () => {
  const at = (ms: number) => new Date(T0 + ms).toISOString();
  it.each([
    ['the server expiry when within the lock', at(30_000), T0, T0 + 30_000],
    ['a device clock ahead by 5 s: 25 s left', at(25_000), T0, T0 + 25_000],
    ['a device clock behind: never more than the lock', at(45_000), T0, T0 + QUOTE_LOCK_MS],
    ['already past on arrival: the full lock from arrival', at(-10_000), T0, T0 + QUOTE_LOCK_MS],
    ['no expiry: the full lock', 'garbage', T0, T0 + QUOTE_LOCK_MS],
  ])('%s', (_, expiresAt, received, want) => expect(quoteDeadline(expiresAt, received)).toBe(want));
});
