import type { TradeOrder, TradePosition } from '../api';
import { scaled, unscaled } from '../rules';

/** The sum of decimal strings to the cent, exactly. */
export function addDecimals(vs: readonly string[]): string {
  return unscaled(vs.reduce((s, v) => s + (scaled(v, 2) ?? 0n), 0n), 2);
}

/** The Asia/Taipei calendar date of an instant, YYYY-MM-DD (Taipei has no daylight saving time). */
export function taipeiDate(at: Date): string {
  return new Date(at.getTime() + 8 * 3600_000).toISOString().slice(0, 10);
}

/** The orders of the trading day, newest first, and those of them that filled any shares. */
export function todays(orders: readonly TradeOrder[], day: string): { orders: TradeOrder[]; fills: TradeOrder[] } {
  const mine = orders.filter((o) => o.tradingDay === day).sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  return { orders: mine, fills: mine.filter((o) => o.filled > 0) };
}

/** The held positions' market value and unrealised profit, summed exactly (decimal strings). */
export function holdingsSummary(positions: readonly TradePosition[]): { count: number; marketValue: string; unrealised: string } {
  return {
    count: positions.length,
    marketValue: addDecimals(positions.map((p) => p.marketValue)),
    unrealised: addDecimals(positions.map((p) => p.unrealisedProfit)),
  };
}
