// What the primary market's offerings besides the lottery (the auction, the placement) share on
// the web: their states and the ops form's times.

/** An offering's state from its calendar (the server's OfferingState). */
export type OfferingState = 'upcoming' | 'open' | 'closed' | 'listed';

/** A Taipei wall-clock time ("2026-03-02T09:00", a datetime-local input) as an RFC 3339 instant, or null. */
export function taipeiInstant(local: string): string | null {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/.test(local)) return null;
  const d = new Date(`${local}:00+08:00`);
  return Number.isNaN(d.getTime()) ? null : d.toISOString().replace('.000Z', 'Z');
}

/** A count of lots as typed: a whole number from 1, or null. */
export function wholeLots(s: string): number | null {
  return /^[1-9][0-9]{0,7}$/.test(s.trim()) ? Number(s.trim()) : null;
}

/** A price as typed: a positive decimal with at most two places, or null (the server checks again). */
export function priceOf(s: string): string | null {
  const v = s.trim();
  return /^(0|[1-9][0-9]{0,8})(\.[0-9]{1,2})?$/.test(v) && Number(v) > 0 ? v : null;
}
