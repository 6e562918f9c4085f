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

// The ticket in Taiwan terms: trade condition, session and time in force (the server's
// commands/rules/ticket holds the same rules and is the judge; these only shape the form).
export type Condition = 'cash' | 'margin' | 'short' | 'day_trade';
export type Session = 'regular' | 'odd_intraday' | 'odd_after_hours' | 'fixed_price';
export type Tif = 'ROD' | 'IOC' | 'FOK';

export const CONDITIONS: Condition[] = ['cash', 'margin', 'short', 'day_trade'];
export const SESSIONS: Session[] = ['regular', 'odd_intraday', 'odd_after_hours', 'fixed_price'];

/** What a session allows: odd lots in shares, cash and limit ROD only; 盤後定價 at the close, in lots, no day trade; IOC/FOK and market orders only in 整股. */
export function sessionAllows(s: Session): { odd: boolean; market: boolean; tifs: Tif[]; conditions: Condition[]; closeOnly: boolean } {
  switch (s) {
    case 'regular':
      return { odd: false, market: true, tifs: ['ROD', 'IOC', 'FOK'], conditions: CONDITIONS, closeOnly: false };
    case 'fixed_price':
      return { odd: false, market: false, tifs: ['ROD'], conditions: ['cash', 'margin', 'short'], closeOnly: true };
    default:
      return { odd: true, market: false, tifs: ['ROD'], conditions: ['cash'], closeOnly: false };
  }
}

/**
 * The hours a session's hint states: the exchange's, or, when the market publishes a cadence for
 * the after-hours sessions' auctions (the demo, which takes their orders around the clock), that.
 */
export function sessionHint(s: Session, afterHoursAuctionEvery: number): TicketError {
  if (afterHoursAuctionEvery > 0 && (s === 'odd_after_hours' || s === 'fixed_price')) {
    return { key: `tk.sessHintDemo.${s}`, opts: { min: String(afterHoursAuctionEvery / 60) } };
  }
  return { key: `tk.sessHint.${s}` };
}

/** The way a 現股當沖 opens: 先買後賣 (buy first) or 先賣後買 (sell first). */
export type DayTradeWay = 'buy' | 'sell';

/**
 * The direction a ticket opens: 融券 sells (short), 現股 and 融資 buy (long), a 現股當沖 either way,
 * as its way says (selling first is a short sale at leverage 1 the same day; commands/rules/ticket).
 */
export function openingDirection(c: Condition, way: DayTradeWay): 'long' | 'short' {
  return c === 'short' || (c === 'day_trade' && way === 'sell') ? 'short' : 'long';
}

/** The leverage a condition implies (shown, not chosen), from the published rules. */
export function impliedLeverage(c: Condition, r?: { maxLongLeverage: string; maxShortLeverage: string }): string {
  if (c === 'margin') return r?.maxLongLeverage ?? '2.5';
  if (c === 'short') return r?.maxShortLeverage ?? '1.11';
  return '1';
}

/** A rate ("0.6") as a percentage ("60"). */
export function pct(rate: string): string {
  const n = scaled(rate, 6);
  if (n === null) return rate;
  const s = (Number(n) / 10000).toFixed(4);
  return s.replace(/\.?0+$/, '');
}
