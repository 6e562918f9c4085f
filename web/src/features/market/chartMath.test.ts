import { describe, expect, it } from 'vitest';
import { addTrade, bookTotal, classify, movingAverage, outerPercent, thinLabels, vwap } from './chartMath';

describe('movingAverage', () => {
  const bars = [1, 2, 3, 4, 5, 6].map((close, i) => ({ time: i, close }));
  it('starts at the n-th bar and averages the last n closes', () => {
    expect(movingAverage(bars, 3)).toEqual([
      { time: 2, value: 2 },
      { time: 3, value: 3 },
      { time: 4, value: 4 },
      { time: 5, value: 5 },
    ]);
    expect(movingAverage(bars, 1).map((p) => p.value)).toEqual([1, 2, 3, 4, 5, 6]);
  });
  it('is empty with fewer bars than the period', () => {
    expect(movingAverage(bars.slice(0, 4), 5)).toEqual([]);
    expect(movingAverage(bars, 0)).toEqual([]);
  });
});

describe('vwap', () => {
  it('is turnover so far over shares so far, skipping until the first trade', () => {
    const pts = vwap([
      { time: 1, volume: 0, turnover: 0 },
      { time: 2, volume: 1000, turnover: 100_000 },
      { time: 3, volume: 3000, turnover: 330_000 },
      { time: 4, volume: 0, turnover: 0 },
    ]);
    expect(pts).toEqual([
      { time: 2, value: 100 },
      { time: 3, value: 107.5 },
      { time: 4, value: 107.5 },
    ]);
  });
});

describe('inner and outer (tick rule)', () => {
  it('classifies up as outer, down as inner, unchanged keeps the side', () => {
    expect(classify(100, 'none', 100.5)).toEqual({ tick: 'up', side: 'outer' });
    expect(classify(100, 'outer', 99.5)).toEqual({ tick: 'down', side: 'inner' });
    expect(classify(100, 'inner', 100)).toEqual({ tick: 'flat', side: 'inner' });
    expect(classify(100, 'none', 100)).toEqual({ tick: 'flat', side: 'none' });
  });
  it('adds trades and gives the outer share', () => {
    let t = { outer: 0, inner: 0, neutral: 0 };
    expect(outerPercent(t)).toBe(50);
    t = addTrade(t, 'outer', 3000);
    t = addTrade(t, 'inner', 1000);
    t = addTrade(t, 'none', 500);
    expect(t).toEqual({ outer: 3000, inner: 1000, neutral: 500 });
    expect(outerPercent(t)).toBe(75);
    expect(outerPercent({ outer: 1, inner: 2, neutral: 0 })).toBe(33.3);
  });
  it('totals a side of the book', () => {
    expect(bookTotal([{ size: 1000 }, { size: 2000 }])).toBe(3000);
    expect(bookTotal(null)).toBe(0);
  });
});

describe('thinLabels', () => {
  const even = (count: number, width: number) => Array.from({ length: count }, (_, i) => (count > 1 ? (i * width) / (count - 1) : 0));
  it('keeps every label with room to spare', () => {
    expect(thinLabels(even(5, 400), 40)).toEqual([0, 1, 2, 3, 4]);
  });
  it('drops labels so that neighbours never overlap, keeping both ends', () => {
    const cases: [number[], number][] = [
      [even(10, 300), 40],
      [even(10, 200), 40],
      [even(48, 330), 36],
      [even(271, 330), 36],
      [[0, 60, 120, 180, 240, 270], 36], // hours and the 13:30 close, half a step after 13:00
      [[0, 10, 300], 36],
    ];
    for (const [xs, lw] of cases) {
      const keep = thinLabels(xs, lw);
      expect(keep[0]).toBe(0);
      expect(keep[keep.length - 1]).toBe(xs.length - 1);
      for (let i = 1; i < keep.length; i++) expect(xs[keep[i]!]! - xs[keep[i - 1]!]!).toBeGreaterThanOrEqual(lw + 4);
    }
    expect(thinLabels([0, 60, 120, 180, 240, 270], 36)).toEqual([0, 1, 2, 3, 5]);
  });
  it('handles no room and no labels', () => {
    expect(thinLabels([], 40)).toEqual([]);
    expect(thinLabels([5], 40)).toEqual([0]);
    expect(thinLabels([0, 10, 20], 40)).toEqual([0]);
  });
});
