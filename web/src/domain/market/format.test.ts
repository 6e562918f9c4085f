import { describe, expect, it } from 'vitest';
import { trendClass } from '@/lib/trend';
import { chartTime, displayName, formatBig, formatChange, formatLots, formatPercent, formatPrice, formatShares, parseUnits, priceTrend } from './format';

describe('Taiwan colour rule', () => {
  it.each([
    ['1090', '1085', 'up'],
    ['1085.00', '1085', ''],
    ['1080.5', '1085', 'down'],
    ['0.01', '0', 'up'],
    ['', '1085', ''],
    [undefined, '1085', ''],
  ])('price %j against %j is %j (red up, green down)', (v, ref, want) => {
    expect(priceTrend(v, ref)).toBe(want);
  });
  it.each([
    ['+1.25', 'up'],
    ['1.25', 'up'],
    ['-0.01', 'down'],
    ['0.00', ''],
    ['-0', ''],
  ])('change %j is %j', (v, want) => {
    expect(trendClass(v)).toBe(want);
  });
});

describe('prices and changes', () => {
  it.each([
    ['1085', '1,085.00'],
    ['23456.789', '23,456.79'],
    ['0.00', '--'],
    ['0', '--'],
    ['', '--'],
    [null, '--'],
  ])('formatPrice(%j) = %s', (v, want) => {
    expect(formatPrice(v)).toBe(want);
  });
  it.each([
    ['15', '+15.00'],
    ['-3.5', '-3.50'],
    ['0', '0.00'],
  ])('formatChange(%j) = %s', (v, want) => {
    expect(formatChange(v)).toBe(want);
  });
  it.each([
    ['1.4', '+1.40%'],
    ['-10.00', '-10.00%'],
    ['0', '0.00%'],
  ])('formatPercent(%j) = %s', (v, want) => {
    expect(formatPercent(v)).toBe(want);
  });
});

describe('volume in lots and shares', () => {
  it.each([
    [0, '0', '0'],
    [999, '0', '999'],
    [1000, '1', '1,000'],
    [35_421_999, '35,421', '35,421,999'],
    ['12345678', '12,345', '12,345,678'],
    [-5, '0', '0'],
    ['x', '0', '0'],
  ])('%j shares = %s lots, %s shares', (v, lots, shares) => {
    expect(formatLots(v)).toBe(lots);
    expect(formatShares(v)).toBe(shares);
  });
});

describe('large amounts in the language units', () => {
  const tw = parseUnits('8:億,4:萬');
  const en = parseUnits('9:B,6:M,3:K');
  it('parses the translation unit lists, largest first', () => {
    expect(parseUnits('4:萬,8:億')).toEqual([
      { digits: 8, suffix: '億' },
      { digits: 4, suffix: '萬' },
    ]);
    expect(parseUnits('bad,x:y,3:')).toEqual([]);
  });
  it.each([
    ['12345678901.5', '123.46億', '12.35B'],
    ['100000000', '1.00億', '100.00M'],
    ['99999999', '10,000.00萬', '100.00M'],
    ['12345', '1.23萬', '12.35K'],
    ['9999.5', '9,999.50', '10.00K'],
    ['999', '999.00', '999.00'],
    ['0', '0.00', '0.00'],
    [123456, '12.35萬', '123.46K'],
    ['abc', '0.00', '0.00'],
  ])('%j → tw %s, en %s', (v, wantTw, wantEn) => {
    expect(formatBig(v, tw)).toBe(wantTw);
    expect(formatBig(v, en)).toBe(wantEn);
  });
});

describe('names and chart times', () => {
  it('shows Chinese names in tw and English ones (falling back to Chinese) in en', () => {
    expect(displayName({ name: '台積電', nameEn: 'TSMC' }, 'tw')).toBe('台積電');
    expect(displayName({ name: '台積電', nameEn: 'TSMC' }, 'en')).toBe('TSMC');
    expect(displayName({ name: '聯發科', nameEn: '' }, 'en')).toBe('聯發科');
    expect(displayName({ name: '聯發科' }, 'en')).toBe('聯發科');
  });
  it('puts candle times on the Taipei wall clock for the UTC axis', () => {
    // 09:00 Taipei is 01:00 UTC; the chart must label it 09:00.
    const t = chartTime('2026-11-23T01:00:00Z');
    expect(new Date(t * 1000).toISOString()).toBe('2026-11-23T09:00:00.000Z');
  });
});
