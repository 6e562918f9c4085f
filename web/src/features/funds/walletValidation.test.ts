import { describe, expect, it } from 'vitest';
import { amountIn, isAmountIn, minorUnits, pairAllowed, validateExchange, validateWithdraw, withdrawAll } from './walletValidation';

describe('amounts per currency', () => {
  it.each([
    ['TWD', 2],
    ['USD', 2],
    ['INR', 2],
    ['JPY', 0],
    ['KRW', 0],
    ['VND', 0],
  ])('minorUnits(%s) = %d', (c, want) => expect(minorUnits(c)).toBe(want));

  it.each([
    ['100', 'TWD', true],
    ['100.5', 'TWD', true],
    ['100.55', 'TWD', true],
    ['100.555', 'TWD', false],
    ['100.', 'TWD', false],
    ['.5', 'TWD', false],
    ['0', 'TWD', false],
    ['0.00', 'TWD', false],
    ['0.01', 'TWD', true],
    ['-5', 'TWD', false],
    ['1e3', 'TWD', false],
    ['1,000', 'TWD', false],
    ['1000', 'JPY', true],
    ['1000.5', 'JPY', false],
    ['9'.repeat(15), 'KRW', true],
    ['9'.repeat(16), 'KRW', false],
  ])('isAmountIn(%j, %s) = %s', (s, c, want) => expect(isAmountIn(s, c)).toBe(want));

  it.each([
    ['1234.5', 'USD', '1,234.50'],
    ['1234', 'JPY', '1,234'],
    ['', 'VND', '0'],
  ])('amountIn(%j, %s) = %j', (v, c, want) => expect(amountIn(v, c)).toBe(want));
});

describe('pairAllowed', () => {
  it.each([
    ['TWD', 'USD', true],
    ['TWD', 'JPY', true],
    ['INR', 'USD', true],
    ['USD', 'INR', true],
    ['INR', 'TWD', false],
    ['TWD', 'INR', false],
  ])('%s → %s: %s', (a, b, want) => expect(pairAllowed(a, b)).toBe(want));
});

describe('validateWithdraw', () => {
  const rules = { currency: 'TWD', min: '100', max: '500000', open: true, available: '20000', withdrawable: '20000', creditScore: 100, creditThreshold: 60, fundPasswordSet: true };
  const ok = { cardId: 'c1', amount: '1500' };
  it.each([
    [{}, {}, null],
    [{ amount: '20000' }, {}, null],
    [{ amount: '100' }, {}, null],
    [{}, { fundPasswordSet: false }, { field: 'fundPassword', key: 'fund_password_not_set' }],
    [{ cardId: '' }, {}, { field: 'cardId', key: 'card_required' }],
    [{ amount: ' ' }, {}, { field: 'amount', key: 'amount_required' }],
    [{ amount: '1.234' }, {}, { field: 'amount', key: 'amount_invalid' }],
    [{ amount: '99.99' }, {}, { field: 'amount', key: 'amount_below_minimum' }],
    [{ amount: '500000.01' }, { available: '900000', withdrawable: '900000' }, { field: 'amount', key: 'amount_above_maximum' }],
    [{}, { open: false }, { field: 'window', key: 'withdraw_window_closed' }],
    [{}, { creditScore: 59 }, { field: 'credit', key: 'credit_score_too_low' }],
    [{}, { creditScore: 60 }, null],
    [{ amount: '20000.01' }, {}, { field: 'amount', key: 'insufficient_balance' }],
    // Sale proceeds not yet settled are available but not withdrawable.
    [{ amount: '1200' }, { withdrawable: '1200' }, null],
    [{ amount: '1200.01' }, { withdrawable: '1200' }, { field: 'amount', key: 'insufficient_withdrawable' }],
  ])('%j with %j → %j', (v, r, want) => expect(validateWithdraw({ ...ok, ...v }, { ...rules, ...r })).toEqual(want));

  it.each([
    ['20000', '500000', '20000'],
    ['900000', '500000', '500000'],
    ['0', '500000', '0'],
    ['-5', '500000', '0'],
  ])('withdrawAll(%s, %s) = %s', (a, m, want) => expect(withdrawAll(a, m)).toBe(want));
});

describe('validateExchange', () => {
  const ok = { from: 'TWD', to: 'USD', amount: '3000' };
  it.each([
    [{}, '18500', null],
    [{ amount: '18500' }, '18500', null],
    [{ amount: '' }, '18500', { field: 'amount', key: 'amount_required' }],
    [{ to: 'TWD' }, '18500', { field: 'to', key: 'exchange_same_currency' }],
    [{ to: 'INR' }, '18500', { field: 'to', key: 'exchange_pair_unsupported' }],
    [{ from: 'INR', to: 'TWD' }, '18500', { field: 'to', key: 'exchange_pair_unsupported' }],
    [{ from: 'INR', to: 'USD' }, '18500', null],
    [{ amount: '3000.123' }, '18500', { field: 'amount', key: 'amount_invalid' }],
    [{ from: 'JPY', amount: '10.5' }, '18500', { field: 'amount', key: 'amount_invalid' }],
    [{ amount: '18500.01' }, '18500', { field: 'amount', key: 'insufficient_balance' }],
  ])('%j (available %s) → %j', (v, available, want) => expect(validateExchange({ ...ok, ...v }, available)).toEqual(want));
});
