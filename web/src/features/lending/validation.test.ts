import { describe, expect, it } from 'vitest';
import { fractionOf, validateLend, validateRule } from './validation';

describe('lending validation', () => {
  it('checks the shares of a lending', () => {
    expect(validateLend({ shares: '' }, 1000)?.key).toBe('quantity_required');
    expect(validateLend({ shares: '1.5' }, 1000)?.key).toBe('quantity_invalid');
    expect(validateLend({ shares: '0' }, 1000)?.key).toBe('quantity_invalid');
    expect(validateLend({ shares: '1001' }, 1000)?.key).toBe('insufficient_shares');
    expect(validateLend({ shares: '1000' }, 1000)).toBeNull();
  });
  it('checks a symbol rule', () => {
    expect(validateRule({ symbol: '2330', rate: '3.5', quota: '100000' }, 16)).toBeNull();
    expect(validateRule({ symbol: '2330', rate: '', quota: '0' }, 16)).toBeNull();
    expect(validateRule({ symbol: 'x', rate: '3', quota: '1' }, 16)?.field).toBe('symbol');
    expect(validateRule({ symbol: '2330', rate: '16.01', quota: '1' }, 16)?.field).toBe('rate');
    expect(validateRule({ symbol: '2330', rate: '1.234', quota: '1' }, 16)?.field).toBe('rate');
    expect(validateRule({ symbol: '2330', rate: '2', quota: '-1' }, 16)?.field).toBe('quota');
  });
  it('turns percents into fractions', () => {
    expect(fractionOf('3.5')).toBe('0.035');
    expect(fractionOf('16')).toBe('0.16');
    expect(fractionOf('0.01')).toBe('0.0001');
    expect(fractionOf('2')).toBe('0.02');
    expect(fractionOf('')).toBe('');
  });
});
