// Pure figures of the stock screen: moving averages, the average-price (VWAP) line, the tick rule
// of 內外盤, best-five totals and the thinning of axis labels. No React, no chart library.

export interface Point {
  time: number;
  value: number;
}

/** The n-period simple moving average of closes: one point per bar from the n-th on. */
export function movingAverage(bars: readonly { time: number; close: number }[], n: number): Point[] {
  const out: Point[] = [];
  if (n < 1) return out;
  let sum = 0;
  for (let i = 0; i < bars.length; i++) {
    sum += bars[i]!.close;
    if (i >= n) sum -= bars[i - n]!.close;
    if (i >= n - 1) out.push({ time: bars[i]!.time, value: Math.round((sum / n) * 10000) / 10000 });
  }
  return out;
}

/**
 * The day's average price at each bar: turnover so far over shares so far (均價). Bars without
 * volume carry the last average; before the first trade there is none.
 */
export function vwap(bars: readonly { time: number; volume: number; turnover: number }[]): Point[] {
  const out: Point[] = [];
  let shares = 0;
  let value = 0;
  for (const b of bars) {
    shares += b.volume;
    value += b.turnover;
    if (shares > 0) out.push({ time: b.time, value: Math.round((value / shares) * 10000) / 10000 });
  }
  return out;
}

export type Tick = 'up' | 'down' | 'flat';
export type Side = 'outer' | 'inner' | 'none';

/**
 * The tick rule of 內外盤 (the server's, market.Classify): above the previous price the trade
 * took the ask (外盤), below it hit the bid (內盤), at the same price it keeps the last side.
 */
export function classify(prev: number, prevSide: Side, price: number): { tick: Tick; side: Side } {
  if (price > prev) return { tick: 'up', side: 'outer' };
  if (price < prev) return { tick: 'down', side: 'inner' };
  return { tick: 'flat', side: prevSide };
}

export interface InnerOuter {
  outer: number;
  inner: number;
  neutral: number;
}

/** Adds a trade of `shares` on `side` to the totals. */
export function addTrade(t: InnerOuter, side: Side, shares: number): InnerOuter {
  if (side === 'outer') return { ...t, outer: t.outer + shares };
  if (side === 'inner') return { ...t, inner: t.inner + shares };
  return { ...t, neutral: t.neutral + shares };
}

/** The outer share of outer + inner in percent (50 when nothing is told apart), one decimal. */
export function outerPercent(t: InnerOuter): number {
  const told = t.outer + t.inner;
  if (told <= 0) return 50;
  return Math.round((t.outer / told) * 1000) / 10;
}

/** Sum of a side's best-five sizes (shares). */
export function bookTotal(levels: readonly { size: number }[] | null | undefined): number {
  return (levels ?? []).reduce((s, l) => s + (Number(l.size) || 0), 0);
}

/**
 * Which axis labels to show, given their centres `xs` (px, ascending), so that none overlaps:
 * each needs `labelWidth` px plus `gap`. Keeps the first, then every one far enough from the last
 * kept, and always the last one (dropping the kept one before it when they would collide).
 */
export function thinLabels(xs: readonly number[], labelWidth: number, gap = 4): number[] {
  const need = labelWidth + gap;
  const out: number[] = [];
  xs.forEach((x, i) => {
    if (out.length === 0 || x - xs[out[out.length - 1]!]! >= need) out.push(i);
  });
  const last = xs.length - 1;
  if (last > 0 && out[out.length - 1] !== last) {
    if (out.length > 1 && xs[last]! - xs[out[out.length - 1]!]! < need) out.pop();
    if (out.length === 0 || xs[last]! - xs[out[out.length - 1]!]! >= need) out.push(last);
  }
  return out;
}
