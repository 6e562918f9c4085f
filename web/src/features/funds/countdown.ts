// The spec's countdown output (day, hour, minute, second), used by the exchange quote's lock.

export interface Countdown {
  days: number;
  hours: number;
  minutes: number;
  seconds: number;
  /** whole seconds left, rounded up so that the display reaches 0 exactly when time is up */
  total: number;
}

/** Splits the time left until `until` (ms since the epoch) at `now`; past or invalid gives zeros. */
export function countdown(until: number, now: number): Countdown {
  const left = until - now;
  const total = Number.isFinite(left) && left > 0 ? Math.ceil(left / 1000) : 0;
  return {
    days: Math.floor(total / 86_400),
    hours: Math.floor((total % 86_400) / 3_600),
    minutes: Math.floor((total % 3_600) / 60),
    seconds: total % 60,
    total,
  };
}

const two = (n: number) => String(n).padStart(2, '0');

/** The clock part: hh:mm:ss when hours are left (days shown apart), else mm:ss. */
export function clock(c: Countdown): string {
  if (c.days > 0 || c.hours > 0) return `${two(c.hours)}:${two(c.minutes)}:${two(c.seconds)}`;
  return `${two(c.minutes)}:${two(c.seconds)}`;
}

/** Quotes are locked for 30 s (issue 6). */
export const QUOTE_LOCK_MS = 30_000;

/**
 * When a quote ends on this device's clock: the server's expiry, but never later than the 30 s
 * lock after the answer arrived (a device clock behind the server's); an expiry already past on
 * arrival (a device clock far ahead) counts the full lock from arrival. The server decides anyway:
 * an expired quote is refused and the screen asks for a new one.
 */
export function quoteDeadline(expiresAt: string, receivedAt: number): number {
  const left = Date.parse(expiresAt) - receivedAt;
  return receivedAt + (left > 0 && left <= QUOTE_LOCK_MS ? left : QUOTE_LOCK_MS);
}
