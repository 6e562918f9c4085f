import { describe, expect, it } from 'vitest';
import { validateFollow, validateProfile } from './validation';

describe('validateFollow', () => {
  it.each([
    [{ amount: '10000', days: '' }, null],
    [{ amount: '10000', days: '30' }, null],
    [{ amount: '9999', days: '' }, { field: 'amount', key: 'buy_amount_below_minimum' }],
    [{ amount: '1e5', days: '' }, { field: 'amount', key: 'amount_invalid' }],
    [{ amount: '', days: '' }, { field: 'amount', key: 'amount_invalid' }],
    [{ amount: '10000', days: '31' }, { field: 'days', key: 'time_limit_exceeded' }],
    [{ amount: '10000', days: '0' }, { field: 'days', key: 'time_limit_exceeded' }],
  ])('%j', (v, want) => expect(validateFollow(v, '10000.00', 30)).toEqual(want));
});

describe('validateProfile', () => {
  const ok = { displayName: 'Ann', minAmount: '10000', windowDays: '30', profitShare: '10' };
  it.each([
    [ok, null],
    [{ ...ok, profitShare: '0' }, null],
    [{ ...ok, displayName: ' ' }, { field: 'displayName', key: 'name_required' }],
    [{ ...ok, minAmount: '999' }, { field: 'minAmount', key: 'minimum_amount_invalid' }],
    [{ ...ok, windowDays: '366' }, { field: 'windowDays', key: 'follow_window_invalid' }],
    [{ ...ok, profitShare: '20.5' }, { field: 'profitShare', key: 'profit_share_invalid' }],
    [{ ...ok, profitShare: '-1' }, { field: 'profitShare', key: 'profit_share_invalid' }],
  ])('%j', (v, want) => expect(validateProfile(v, '1000.00', 365, '20')).toEqual(want));
});
