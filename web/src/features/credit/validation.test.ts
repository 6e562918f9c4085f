import { describe, expect, it } from 'vitest';
import { validateBorrow, validateRepay } from './validation';

describe('validateBorrow', () => {
  const check = (amount: string, fundPassword = '123456') => validateBorrow({ amount, fundPassword }, '40000.00', '1000.00')?.key ?? null;
  it.each([
    ['', 'amount_required'],
    ['12.5', 'amount_invalid'],
    ['-1', 'amount_invalid'],
    ['0', 'amount_invalid'],
    ['999', 'loan_below_minimum'],
    ['40001', 'loan_quota_insufficient'],
    ['40000', null],
    ['1000', null],
  ])('amount %s -> %s', (amount, key) => expect(check(amount)).toBe(key));
  it('needs the fund password', () => expect(check('1000', '')).toBe('fund_password_required'));
});

describe('validateRepay', () => {
  const check = (amount: string) => validateRepay({ amount, fundPassword: '123456' }, '60024.00')?.key ?? null;
  it.each([
    ['', 'amount_required'],
    ['1.5', 'amount_invalid'],
    ['60025', 'repayment_exceeds_loan'],
    ['60024', null],
    ['1', null],
  ])('amount %s -> %s', (amount, key) => expect(check(amount)).toBe(key));
});
