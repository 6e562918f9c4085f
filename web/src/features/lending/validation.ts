import type { FieldError } from '@/lib/validation';

export type LendValues = { shares: string };
export type RuleValues = { symbol: string; rate: string; quota: string };

/** A lending's shares: a whole number from 1 up to what may be lent. */
export function validateLend(v: LendValues, lendable: number): FieldError<keyof LendValues> | null {
  const s = v.shares.trim();
  if (s === '') return { field: 'shares', key: 'quantity_required' };
  if (!/^\d+$/.test(s) || Number(s) < 1) return { field: 'shares', key: 'quantity_invalid' };
  if (Number(s) > lendable) return { field: 'shares', key: 'insufficient_shares' };
  return null;
}

/** A rate in percent a year: above 0, at most max (percent), at most two decimals. */
export function validRatePercent(s: string, maxPercent: number): boolean {
  return /^\d+(\.\d{1,2})?$/.test(s.trim()) && Number(s) > 0 && Number(s) <= maxPercent;
}

/** A symbol's rule: a code, a rate in percent (empty: the default) and a whole quota. */
export function validateRule(v: RuleValues, maxPercent: number): FieldError<keyof RuleValues> | null {
  if (!/^[0-9A-Z]{1,10}$/.test(v.symbol.trim())) return { field: 'symbol', key: 'symbol_required' };
  if (v.rate.trim() !== '' && !validRatePercent(v.rate, maxPercent)) return { field: 'rate', key: 'lending_rate_invalid' };
  if (!/^\d{1,10}$/.test(v.quota.trim())) return { field: 'quota', key: 'lending_quota_invalid' };
  return null;
}

/** A percent typed by ops as the fraction the server takes ("3.5" -> "0.035"); "" stays "". */
export function fractionOf(percentText: string): string {
  const s = percentText.trim();
  if (s === '') return '';
  const [i, f = ''] = s.split('.');
  const digits = (i + f.padEnd(2, '0')).replace(/^0+(?=\d)/, '');
  const n = digits.padStart(5, '0');
  const frac = `${n.slice(0, -4)}.${n.slice(-4)}`.replace(/^0+(?=\d)/, '');
  return frac.replace(/\.?0+$/, '') || '0';
}
