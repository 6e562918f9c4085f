import type { DividendReceipt } from './api';

/** The frequency's text key (an unknown or empty one reads as no dividend). */
export function frequencyKey(f: string): 'frequency.annual' | 'frequency.semiannual' | 'frequency.quarterly' | 'frequency.' {
  return f === 'annual' || f === 'semiannual' || f === 'quarterly' ? `frequency.${f}` : 'frequency.';
}

/** Whether a decimal string is above zero. */
export function positive(v: string | undefined): boolean {
  return v !== undefined && Number(v) > 0;
}

/** The cash received and expected and the new shares received and expected, over the receipts. */
export function receiptTotals(items: readonly DividendReceipt[]): { paid: number; expected: number; shares: number; sharesExpected: number } {
  const t = { paid: 0, expected: 0, shares: 0, sharesExpected: 0 };
  for (const r of items) {
    const v = Number(r.amount);
    if (!Number.isFinite(v)) continue;
    const done = r.status === 'completed';
    if (r.kind === 'stock') {
      if (done) t.shares += v;
      else t.sharesExpected += v;
    } else if (done) t.paid += v;
    else t.expected += v;
  }
  t.paid = Math.round(t.paid * 100) / 100;
  t.expected = Math.round(t.expected * 100) / 100;
  return t;
}

/** A stock code as typed: trimmed and upper-case, or '' when it is not one (1–6 letters or digits). */
export function cleanCode(s: string): string {
  const c = s.trim().toUpperCase();
  return /^[0-9A-Z]{1,6}$/.test(c) ? c : '';
}
