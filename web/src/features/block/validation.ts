import type { FieldError } from '@/lib/validation';

/** What the application form holds. */
export interface ApplyValues {
  lots: string;
  bid: string;
  password: string;
}

/** The block an application is checked against. */
export interface BlockTerms {
  price: string;
  minLots: number;
  dailyCapLots: number;
  hasPassword: boolean;
}

const PRICE = /^\d{1,9}(\.\d{1,2})?$/;

/**
 * The first failing field of an application, in the server's order (lots, bid, password), with
 * the server's own message keys where it has one; the server checks all of it again (and the
 * day's cap, which counts earlier applications).
 */
export function validateApply(v: ApplyValues, b: BlockTerms): FieldError<keyof ApplyValues> | null {
  if (v.lots === '') return { field: 'lots', key: 'block.err.lotsRequired' };
  if (!/^\d{1,6}$/.test(v.lots) || Number(v.lots) < 1) return { field: 'lots', key: 'lots_invalid' };
  const lots = Number(v.lots);
  if (lots < b.minLots) return { field: 'lots', key: 'block_below_minimum' };
  if (lots > b.dailyCapLots) return { field: 'lots', key: 'block_over_daily_cap' };
  if (v.bid === '') return { field: 'bid', key: 'block.err.bidRequired' };
  if (!PRICE.test(v.bid) || Number(v.bid) <= 0) return { field: 'bid', key: 'price_invalid' };
  if (Number(v.bid) < Number(b.price)) return { field: 'bid', key: 'block_bid_below_minimum' };
  if (b.hasPassword && v.password === '') return { field: 'password', key: 'block.err.passwordRequired' };
  return null;
}

/** What the ops listing form holds. */
export interface ListValues {
  symbol: string;
  mode: 'premium' | 'price';
  premium: string;
  price: string;
  minLots: string;
  dailyCap: string;
  total: string;
  password: string;
  days: string;
}

/**
 * The first failing field of a listing; the server checks the price against the day's band, and
 * the block's size (at least 500 lots or NT$15 m) against the price it fixes from a premium.
 */
export function validateList(v: ListValues): FieldError<keyof ListValues> | null {
  if (!/^[0-9A-Z]{2,12}$/.test(v.symbol)) return { field: 'symbol', key: 'symbol_required' };
  if (v.mode === 'premium') {
    if (!/^-?\d{1,2}(\.\d{1,2})?$/.test(v.premium) || Math.abs(Number(v.premium)) > 10) return { field: 'premium', key: 'premium_invalid' };
  } else if (!PRICE.test(v.price) || Number(v.price) <= 0) {
    return { field: 'price', key: 'price_invalid' };
  }
  const min = Number(v.minLots);
  if (!/^\d+$/.test(v.minLots) || min < 1) return { field: 'minLots', key: 'lots_invalid' };
  if (!/^\d+$/.test(v.dailyCap) || Number(v.dailyCap) < min || Number(v.dailyCap) > 100000) return { field: 'dailyCap', key: 'lots_invalid' };
  if (!/^\d+$/.test(v.total) || Number(v.total) < Number(v.dailyCap) || Number(v.total) > 100000) return { field: 'total', key: 'lots_invalid' };
  if (v.mode === 'price' && Number(v.total) < 500 && Number(v.price) * Number(v.total) * 1000 < 15_000_000) return { field: 'total', key: 'block_size_too_small' };
  if (!/^\d+$/.test(v.days) || Number(v.days) < 1 || Number(v.days) > 365) return { field: 'days', key: 'block_time_invalid' };
  return null;
}

/** The listing request: open from now for the days given. */
export function listBody(v: ListValues, now: Date) {
  const closes = new Date(now.getTime() + Number(v.days) * 86_400_000);
  return {
    symbol: v.symbol,
    ...(v.mode === 'premium' ? { premiumPercent: v.premium } : { price: v.price }),
    minLots: Number(v.minLots),
    dailyCapLots: Number(v.dailyCap),
    totalLots: Number(v.total),
    ...(v.password ? { password: v.password } : {}),
    opensAt: now.toISOString(),
    closesAt: closes.toISOString(),
  };
}
