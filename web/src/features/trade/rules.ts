// The ticket's pure rules: the tick grid of market-rules.md 1b and the estimate of an order with
// the published figures of GET /api/vue/trade/rules (the server's commands/rules/fees and margin).
// Money is handled as integers (BigInt) of fixed scale, never as floats.

export type Kind = 'stock' | 'etf' | 'bond_etf';

const RATE_DIGITS = 8;
const RATE_SCALE = 10n ** BigInt(RATE_DIGITS);

/** A decimal string as an integer of the given number of decimals (extra digits cut); null if not a number. */
export function scaled(v: string, digits: number): bigint | null {
  const m = /^(-?)(\d+)(?:\.(\d*))?$/.exec(v.trim());
  if (!m) return null;
  const frac = (m[3] ?? '').slice(0, digits).padEnd(digits, '0');
  const n = BigInt(m[2]! + frac);
  return m[1] ? -n : n;
}

/** An integer of the given decimals as a decimal string. */
export function unscaled(n: bigint, digits: number): string {
  const neg = n < 0n;
  const s = (neg ? -n : n).toString().padStart(digits + 1, '0');
  const out = digits ? `${s.slice(0, -digits)}.${s.slice(-digits)}` : s;
  return neg ? `-${out}` : out;
}

const cents = (v: string) => scaled(v, 2);

/** The tick in cents at a price in cents: stocks by the six bands, ETFs 0.01 below NT$50, else 0.05. */
export function tickCents(priceCents: bigint, kind: Kind): bigint {
  if (kind !== 'stock') return priceCents < 5000n ? 1n : 5n;
  if (priceCents < 1000n) return 1n;
  if (priceCents < 5000n) return 5n;
  if (priceCents < 10000n) return 10n;
  if (priceCents < 50000n) return 50n;
  if (priceCents < 100000n) return 100n;
  return 500n;
}

/** The tick at a price, as a decimal string ("0.05"). */
export function tickSize(price: string, kind: Kind): string {
  return unscaled(tickCents(cents(price) ?? 0n, kind), 2);
}

export function onTick(price: string, kind: Kind): boolean {
  const p = cents(price);
  if (p === null || p <= 0n) return false;
  return p % tickCents(p, kind) === 0n;
}

/**
 * The next price on the grid up (dir 1) or down (dir -1). Off the grid it snaps to the nearest
 * grid price in that direction; going down across a band edge uses the lower band's tick.
 */
export function stepPrice(price: string, dir: 1 | -1, kind: Kind): string {
  const p = cents(price) ?? 0n;
  if (dir === 1) {
    const t = tickCents(p, kind);
    return unscaled((p / t) * t + t, 2);
  }
  if (p <= 1n) return unscaled(p < 1n ? 1n : p, 2);
  const t = tickCents(p - 1n, kind);
  const down = ((p - 1n) / t) * t;
  return unscaled(down < 1n ? 1n : down, 2);
}

/** The published rules the estimate needs (strings as the API sends them). */
export interface FeeRules {
  commissionRate: string;
  minCommissionBoardLot: string;
  minCommissionOddLot: string;
  stockTaxRate: string;
  etfTaxRate: string;
  bondEtfTaxRate: string;
  dayTradeTaxRate: string;
  loanUnit: string;
}

export interface EstimateInput {
  price: string;
  shares: number;
  oddLot: boolean;
  kind: Kind;
  /** the ticket's side: a buy (opening a long) or a sale (opening a short) */
  side: 'buy' | 'sell';
  leverage: string;
  dayTrade: boolean;
}

export interface Estimate {
  marketValue: string;
  fee: string;
  tax: string;
  /** the member's own money in the position */
  margin: string;
  loan: string;
  /** the member's cash the order commits: margin, fee and (sales) tax */
  amount: string;
}

const floorDiv = (a: bigint, b: bigint) => a / b; // operands are never negative here
const ceilDiv = (a: bigint, b: bigint) => (a + b - 1n) / b;

/** Commission on a traded amount in cents, whole NT$ rounded down, at least the kind's minimum; none on nothing. */
export function commission(amountCents: bigint, oddLot: boolean, r: FeeRules): bigint {
  if (amountCents <= 0n) return 0n;
  const fee = floorDiv(amountCents * scaled(r.commissionRate, RATE_DIGITS)!, 100n * RATE_SCALE);
  const min = floorDiv(cents(oddLot ? r.minCommissionOddLot : r.minCommissionBoardLot)!, 100n);
  return fee < min ? min : fee;
}

/** Transaction tax on a sale's amount in cents, whole NT$ rounded down; the day-trade rate is for stocks only. */
export function tax(amountCents: bigint, kind: Kind, dayTrade: boolean, r: FeeRules): bigint {
  const rate = kind === 'bond_etf' ? r.bondEtfTaxRate : kind === 'etf' ? r.etfTaxRate : dayTrade ? r.dayTradeTaxRate : r.stockTaxRate;
  return floorDiv(amountCents * scaled(rate, RATE_DIGITS)!, 100n * RATE_SCALE);
}

/** The order's estimate; null when the price or quantity is not set. */
export function estimate(i: EstimateInput, r: FeeRules): Estimate | null {
  const p = cents(i.price);
  const lev = scaled(i.leverage || '1', 2);
  if (p === null || p <= 0n || i.shares <= 0 || lev === null || lev < 100n) return null;
  const value = p * BigInt(i.shares); // cents
  const fee = commission(value, i.oddLot, r) * 100n;
  const taxC = i.side === 'sell' ? tax(value, i.kind, i.dayTrade, r) * 100n : 0n;
  let margin: bigint;
  let loan = 0n;
  if (i.side === 'buy') {
    // loan = value × (1 − 1/leverage), under whole loan units dropped; the margin is the rest.
    const unit = cents(r.loanUnit) ?? 100000n;
    const raw = floorDiv(value * (lev - 100n), lev);
    loan = unit > 0n ? (raw / unit) * unit : raw;
    margin = value - loan;
  } else {
    // margin = value / leverage, rounded up to whole NT$.
    margin = ceilDiv(ceilDiv(value * 100n, lev), 100n) * 100n;
  }
  const amount = margin + fee + taxC;
  return {
    marketValue: unscaled(value, 2),
    fee: unscaled(fee, 2),
    tax: unscaled(taxC, 2),
    margin: unscaled(margin, 2),
    loan: unscaled(loan, 2),
    amount: unscaled(amount, 2),
  };
}
