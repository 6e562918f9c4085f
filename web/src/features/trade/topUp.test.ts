import { describe, expect, it } from 'vitest';
import { topUpMax, validateTopUp } from './topUp';

describe('validateTopUp', () => {
  const long = { available: '664205.00', loan: '223000.00' };
  const short = { available: '5000.00', loan: null };
  it.each([
    ['', 'amount_required'],
    ['abc', 'amount_invalid'],
    ['1e5', 'amount_invalid'],
    ['1000.5', 'amount_not_integer'],
    ['0', 'amount_not_positive'],
    ['-5', 'amount_not_positive'],
    ['664206', 'insufficient_balance'],
    ['223001', 'top_up_exceeds_financing'],
  ])('%s → %s', (amount, key) => {
    expect(validateTopUp(amount, long)?.key).toBe(key);
  });
  it('takes a whole amount within the cash and the financing', () => {
    expect(validateTopUp('70000', long)).toBeNull();
    expect(validateTopUp('1000.0', long)).toBeNull();
    expect(validateTopUp('5000', short)).toBeNull();
    expect(validateTopUp('5001', short)?.key).toBe('insufficient_balance');
  });
  it('caps at the smaller of cash and financing', () => {
    expect(topUpMax(long)).toBe('223000');
    expect(topUpMax(short)).toBe('5000');
  });
});
