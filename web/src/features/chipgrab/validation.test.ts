import { describe, expect, it } from 'vitest';
import { validateClaim, validateOffer } from './validation';

describe('validateClaim', () => {
  it.each([
    ['1', 10, 5, null],
    ['5', 10, 5, null],
    ['0', 10, 5, 'lots_invalid'],
    ['1.5', 10, 5, 'lots_invalid'],
    ['6', 10, 5, 'quota_member_cap'],
    ['3', 2, 5, 'quota_insufficient'],
  ])('%s lots with %i left, %i a member', (lots, left, per, key) => {
    expect(validateClaim(lots, left, per)?.key ?? null).toBe(key);
  });
});

describe('validateOffer', () => {
  const v = { symbol: '2884', price: '31', quota: '500', perMember: '5', days: '3' };
  it.each([
    ['ok', v, null],
    ['symbol', { ...v, symbol: '' }, 'symbol_required'],
    ['price', { ...v, price: '31.005' }, 'price_invalid'],
    ['quota', { ...v, quota: '0' }, 'lots_invalid'],
    ['cap over quota', { ...v, perMember: '501' }, 'lots_invalid'],
    ['days', { ...v, days: '0' }, 'block_time_invalid'],
  ])('%s', (_, val, key) => {
    expect(validateOffer(val)?.key ?? null).toBe(key);
  });
});
