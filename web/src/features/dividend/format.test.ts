import { describe, expect, it } from 'vitest';
import type { DividendReceipt } from './api';
import { cleanCode, frequencyKey, positive, receiptTotals } from './format';

const r = (kind: string, amount: string, status: string): DividendReceipt =>
  ({ kind, amount, status, orderNo: 'DV' + kind + amount + status }) as DividendReceipt;

describe('dividend format', () => {
  it('sums paid and expected cash and shares apart', () => {
    expect(receiptTotals([r('cash', '4490.00', 'completed'), r('cash', '19568.00', 'pending'), r('stock', '100', 'completed'), r('stock', '61', 'pending')])).toEqual({
      paid: 4490,
      expected: 19568,
      shares: 100,
      sharesExpected: 61,
    });
    expect(receiptTotals([])).toEqual({ paid: 0, expected: 0, shares: 0, sharesExpected: 0 });
  });
  it('names frequencies', () => {
    expect(frequencyKey('quarterly')).toBe('frequency.quarterly');
    expect(frequencyKey('weekly')).toBe('frequency.');
  });
  it('cleans codes', () => {
    expect(cleanCode(' 2330 ')).toBe('2330');
    expect(cleanCode('00631l')).toBe('00631L');
    expect(cleanCode('23 30')).toBe('');
    expect(cleanCode('<script>')).toBe('');
  });
  it('tells positive decimals', () => {
    expect(positive('0.00')).toBe(false);
    expect(positive('0.5')).toBe(true);
    expect(positive(undefined)).toBe(false);
  });
});
