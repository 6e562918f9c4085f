import { compareDecimal } from '@/lib/filters';
import { type FieldError, isAmount } from '@/lib/validation';

export interface DepositValues {
  amount: string;
  proofFileId: string;
  channelPassword: string;
}

export interface ChannelRules {
  min: string;
  max: string;
  openNow: boolean;
  window: { alwaysOpen: boolean };
}

/** Deposit: amount within the channel's min and max, proof uploaded, channel password, window open. */
export function validateDeposit(v: DepositValues, ch: ChannelRules): FieldError<keyof DepositValues | 'window'> | null {
  if (!ch.openNow && !ch.window.alwaysOpen) return { field: 'window', key: 'deposit_window_closed' };
  const amount = v.amount.trim();
  if (!amount) return { field: 'amount', key: 'amount_required' };
  if (!isAmount(amount)) return { field: 'amount', key: 'amount_invalid' };
  if (compareDecimal(amount, ch.min) === -1) return { field: 'amount', key: 'amount_below_minimum' };
  if (compareDecimal(amount, ch.max) === 1) return { field: 'amount', key: 'amount_above_maximum' };
  if (!v.proofFileId) return { field: 'proofFileId', key: 'deposit_proof_required' };
  if (!v.channelPassword) return { field: 'channelPassword', key: 'password_required' };
  return null;
}

/**
 * The days of a channel's window for display: a run of three or more days becomes "Mon–Fri",
 * others are listed. Weekdays are 0 (Sunday) to 6.
 */
export function formatWeekdays(days: readonly number[], names: readonly string[], sep = ', '): string {
  const sorted = [...new Set(days)].filter((d) => d >= 0 && d <= 6).sort((a, b) => a - b);
  const parts: string[] = [];
  for (let i = 0; i < sorted.length; ) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j]! + 1) j++;
    if (j - i >= 2) parts.push(`${names[sorted[i]!]}–${names[sorted[j]!]}`);
    else for (let k = i; k <= j; k++) parts.push(names[sorted[k]!]!);
    i = j + 1;
  }
  return parts.join(sep);
}
