import type { FieldError } from '@/lib/validation';

const WHOLE = /^\d{1,10}$/;

/** The subscribe form's first failing field, with the server's message keys: a whole NT$ amount not below the minimum. */
export function validateSubscribe(amount: string, minAmount: string): FieldError<'amount'> | null {
  if (amount === '') return { field: 'amount', key: 'amount_required' };
  if (!WHOLE.test(amount) || Number(amount) <= 0) return { field: 'amount', key: 'amount_invalid' };
  if (Number(amount) < Number(minAmount)) return { field: 'amount', key: 'amount_below_minimum' };
  return null;
}

/** A fraction as a percent with two decimals ("-0.1031" -> "-10.31%"). */
export function percent(fraction: string): string {
  const n = Number(fraction);
  if (!Number.isFinite(n)) return '';
  return `${(Math.round(n * 10000) / 100).toFixed(2)}%`;
}
