// Validation of the withdrawal and exchange forms: the server's rules (commands/funds.go,
// commands/rules/money) checked before sending, so most refusals need no round trip.
import { compareDecimal, money } from '@/lib/filters';
import type { FieldError } from '@/lib/validation';

/** The exchangeable currencies, in the app's order (the server's balances order). */
export const CURRENCIES = ['CNY', 'TWD', 'HKD', 'USD', 'THB', 'JPY', 'VND', 'MYR', 'KRW', 'INR'] as const;
export type Currency = (typeof CURRENCIES)[number];

/** Decimals a currency allows (ISO 4217): JPY, KRW and VND none, the others 2. */
export function minorUnits(currency: string): number {
  return currency === 'JPY' || currency === 'KRW' || currency === 'VND' ? 0 : 2;
}

/** An amount for display with its currency's decimals (none for JPY, KRW, VND). */
export function amountIn(v: string, currency: string): string {
  const s = money(v);
  return minorUnits(currency) === 0 ? s.replace(/\.\d+$/, '') : s;
}

/**
 * A typed amount the server accepts for the currency: plain digits, at most 15 before the point,
 * at most the currency's decimals after it, more than zero.
 */
export function isAmountIn(s: string, currency: string): boolean {
  const d = minorUnits(currency);
  const re = d === 0 ? /^\d{1,15}$/ : new RegExp(`^\\d{1,15}(?:\\.\\d{1,${d}})?$`);
  return re.test(s) && /[1-9]/.test(s);
}

/** INR trades only against USD. */
export function pairAllowed(from: string, to: string): boolean {
  if (from === 'INR') return to === 'USD';
  if (to === 'INR') return from === 'USD';
  return true;
}

export interface WithdrawRules {
  currency: string;
  min: string;
  max: string;
  /** the window is open now (or the demo keeps it always open) */
  open: boolean;
  /** available cash in the channel's currency */
  available: string;
  /** the part of it a withdrawal accepts now (the server's figure: unsettled sale proceeds excluded) */
  withdrawable: string;
  creditScore: number;
  creditThreshold: number;
  fundPasswordSet: boolean;
}

export interface WithdrawValues {
  cardId: string;
  amount: string;
}

/** A withdrawal, in the server's order: fund password set, card, amount, limits, window, balance, score. */
export function validateWithdraw(v: WithdrawValues, r: WithdrawRules): FieldError<'cardId' | 'amount' | 'fundPassword' | 'window' | 'credit'> | null {
  if (!r.fundPasswordSet) return { field: 'fundPassword', key: 'fund_password_not_set' };
  if (!v.cardId) return { field: 'cardId', key: 'card_required' };
  const amount = v.amount.trim();
  if (!amount) return { field: 'amount', key: 'amount_required' };
  if (!isAmountIn(amount, r.currency)) return { field: 'amount', key: 'amount_invalid' };
  if (compareDecimal(amount, r.min) === -1) return { field: 'amount', key: 'amount_below_minimum' };
  if (compareDecimal(amount, r.max) === 1) return { field: 'amount', key: 'amount_above_maximum' };
  if (!r.open) return { field: 'window', key: 'withdraw_window_closed' };
  if (r.creditScore < r.creditThreshold) return { field: 'credit', key: 'credit_score_too_low' };
  if (compareDecimal(amount, r.available) === 1) return { field: 'amount', key: 'insufficient_balance' };
  if (compareDecimal(amount, r.withdrawable) === 1) return { field: 'amount', key: 'insufficient_withdrawable' };
  return null;
}

/** The most the member can withdraw now: the server's withdrawable figure capped at the channel's maximum. */
export function withdrawAll(withdrawable: string, max: string): string {
  const a = compareDecimal(withdrawable, '0') === 1 ? withdrawable : '0';
  return compareDecimal(a, max) === 1 ? max : a;
}

export interface ExchangeValues {
  from: string;
  to: string;
  amount: string;
}

/** An exchange quote request: amount, two different currencies, INR only with USD, the balance. */
export function validateExchange(v: ExchangeValues, available: string): FieldError<'amount' | 'to'> | null {
  const amount = v.amount.trim();
  if (!amount) return { field: 'amount', key: 'amount_required' };
  if (v.from === v.to) return { field: 'to', key: 'exchange_same_currency' };
  if (!pairAllowed(v.from, v.to)) return { field: 'to', key: 'exchange_pair_unsupported' };
  if (!isAmountIn(amount, v.from)) return { field: 'amount', key: 'amount_invalid' };
  if (compareDecimal(amount, available) === 1) return { field: 'amount', key: 'insufficient_balance' };
  return null;
}
