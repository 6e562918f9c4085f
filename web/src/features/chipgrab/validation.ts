import type { FieldError } from '@/lib/validation';

/** A claim's lots: a whole number from 1 to what is left and to the member's cap. */
export function validateClaim(lots: string, left: number, perMember: number): FieldError<'lots'> | null {
  if (!/^\d{1,6}$/.test(lots) || Number(lots) < 1) return { field: 'lots', key: 'lots_invalid' };
  if (Number(lots) > perMember) return { field: 'lots', key: 'quota_member_cap' };
  if (Number(lots) > left) return { field: 'lots', key: 'quota_insufficient' };
  return null;
}

/** What the ops offering form holds. */
export interface OfferValues {
  symbol: string;
  price: string;
  quota: string;
  perMember: string;
  days: string;
}

/** The first failing field of an offering; the server checks the price against the day's band. */
export function validateOffer(v: OfferValues): FieldError<keyof OfferValues> | null {
  if (!/^[0-9A-Z]{2,12}$/.test(v.symbol)) return { field: 'symbol', key: 'symbol_required' };
  if (!/^\d{1,9}(\.\d{1,2})?$/.test(v.price) || Number(v.price) <= 0) return { field: 'price', key: 'price_invalid' };
  if (!/^\d{1,6}$/.test(v.quota) || Number(v.quota) < 1) return { field: 'quota', key: 'lots_invalid' };
  if (!/^\d{1,6}$/.test(v.perMember) || Number(v.perMember) < 1 || Number(v.perMember) > Number(v.quota)) return { field: 'perMember', key: 'lots_invalid' };
  if (!/^\d{1,3}$/.test(v.days) || Number(v.days) < 1) return { field: 'days', key: 'block_time_invalid' };
  return null;
}
