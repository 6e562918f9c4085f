import type { FieldError } from '@/lib/validation';

/** What a margin top-up may take: the cash available and, for a long, the financing left. */
export interface TopUpLimits {
  available: string;
  /** a long's financing outstanding; null for a short (no cap beyond the cash) */
  loan: string | null;
}

/**
 * The first failing rule of a top-up amount, with the server's message keys (the server checks
 * all of it again): a positive whole NT$ amount, within the available cash and a long's financing.
 */
export function validateTopUp(amount: string, lim: TopUpLimits): FieldError<'amount'> | null {
  const a = amount.trim();
  if (a === '') return { field: 'amount', key: 'amount_required' };
  if (!/^[+-]?\d{1,15}(\.\d{1,15})?$/.test(a)) return { field: 'amount', key: 'amount_invalid' };
  const n = Number(a);
  if (!Number.isInteger(n)) return { field: 'amount', key: 'amount_not_integer' };
  if (n <= 0) return { field: 'amount', key: 'amount_not_positive' };
  if (n > Number(lim.available)) return { field: 'amount', key: 'insufficient_balance' };
  if (lim.loan !== null && n > Number(lim.loan)) return { field: 'amount', key: 'top_up_exceeds_financing' };
  return null;
}

/** A top-up's cap: the available cash, and for a long its financing. */
export function topUpMax(lim: TopUpLimits): string {
  const cash = Number(lim.available);
  return String(Math.floor(lim.loan === null ? cash : Math.min(cash, Number(lim.loan))));
}
