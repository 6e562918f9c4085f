import { scaled, onTick, tickSize, type Kind } from './rules';
import type { TradeKey } from '@/domain/trade/texts';

export interface TicketFields {
  type: 'limit' | 'market';
  qty: string;
  price: string;
  kind: Kind;
  limitUp: string;
  limitDown: string;
}

export interface TicketError {
  key: TradeKey;
  opts?: Record<string, string>;
}

/** What stops the ticket from being sent, checked in the server's order; null when it may go. */
export function validateTicket(f: TicketFields): TicketError | null {
  if (!/^\d+$/.test(f.qty.trim()) || Number(f.qty) <= 0) return { key: 'err.quantity' };
  if (f.type === 'market') return null;
  // The server's grammar for every typed decimal: digits, then at most two decimals after a point.
  if (!/^\d+(\.\d{1,2})?$/.test(f.price)) return { key: 'err.price' };
  const p = scaled(f.price, 2);
  if (p === null || p <= 0n) return { key: 'err.price' };
  if (!onTick(f.price, f.kind)) return { key: 'err.tick', opts: { tick: tickSize(f.price, f.kind) } };
  const up = scaled(f.limitUp, 2);
  const down = scaled(f.limitDown, 2);
  // A band of zeros means the day has none (foreign-component ETFs, new listings).
  if (up !== null && down !== null && up > 0n && (p > up || p < down)) return { key: 'err.band', opts: { down: f.limitDown, up: f.limitUp } };
  return null;
}

/** The leverage choices: financing up to 60 % for longs (2.5), margin at least 90 % for shorts (1.11); odd lots cash only. */
export function leverageChoices(direction: 'long' | 'short', oddLot: boolean): string[] {
  if (oddLot) return ['1'];
  return direction === 'long' ? ['1', '1.5', '2', '2.5'] : ['1', '1.11'];
}

/** A position's size: lots for board-lot positions, shares for odd lots. */
export function sizeOf(shares: number): { n: number; unit: 'lots' | 'shares' } {
  return shares > 0 && shares % 1000 === 0 ? { n: shares / 1000, unit: 'lots' } : { n: shares, unit: 'shares' };
}
