import { describe, expect, it } from 'vitest';
import { percent, validateSubscribe } from './validation';

describe('validateSubscribe', () => {
  it.each([
    ['', 'amount_required'],
    ['12.5', 'amount_invalid'],
    ['0', 'amount_invalid'],
    ['99999', 'amount_below_minimum'],
  ])('%s -> %s', (amount, key) => {
    expect(validateSubscribe(amount, '100000.00')?.key).toBe(key);
  });
  it('accepts the minimum and above', () => {
    expect(validateSubscribe('100000', '100000.00')).toBeNull();
    expect(validateSubscribe('250000', '100000.00')).toBeNull();
  });
});

describe('percent', () => {
  it('shows fractions as percents', () => {
    expect(percent('-0.1031')).toBe('-10.31%');
    expect(percent('0.0174')).toBe('1.74%');
    expect(percent('0')).toBe('0.00%');
  });
});
