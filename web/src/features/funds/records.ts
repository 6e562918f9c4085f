import type { FundRecord } from './api';

/** A line of fund records as shown: one record, or both legs of an exchange together. */
export type RecordEntry = { kind: 'one'; r: FundRecord } | { kind: 'exchange'; orderNo: string; paid: FundRecord; received: FundRecord };

/**
 * Joins the two lines of each exchange (same order number: the amount paid, negative, and the
 * amount received) into one entry; a leg whose partner is not loaded yet stays on its own.
 */
export function groupRecords(items: readonly FundRecord[]): RecordEntry[] {
  const out: RecordEntry[] = [];
  for (let i = 0; i < items.length; i++) {
    const r = items[i]!;
    const next = items[i + 1];
    if (r.type === 'exchange' && next && next.type === 'exchange' && next.orderNo === r.orderNo) {
      const [paid, received] = r.amount.startsWith('-') ? [r, next] : [next, r];
      out.push({ kind: 'exchange', orderNo: r.orderNo, paid, received });
      i++;
    } else {
      out.push({ kind: 'one', r });
    }
  }
  return out;
}

/** Which tab a ?tab= value opens (stored value by default). */
export function tabOf(v: string | null): 'deposit' | 'withdraw' | 'exchange' | 'all' {
  return v === 'withdraw' || v === 'exchange' || v === 'all' ? v : 'deposit';
}
