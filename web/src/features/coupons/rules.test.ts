import { describe, expect, it } from 'vitest';
import { applicable, cycleDone, validateGrant } from './rules';

describe('applicable', () => {
  it('keeps usable coupons with a use left', () => {
    const cs = [
      { id: 'a', status: 'usable' as const, left: 1 },
      { id: 'b', status: 'expired' as const, left: 1 },
      { id: 'c', status: 'reserved' as const, left: 0 },
      { id: 'd', status: 'used' as const, left: 0 },
      { id: 'e', status: 'usable' as const, left: 0 },
    ];
    expect(applicable(cs).map((c) => c.id)).toEqual(['a']);
  });
});

describe('cycleDone', () => {
  it.each([
    [0, false, 0],
    [1, true, 1],
    [6, false, 6],
    [7, true, 7],
    [7, false, 0],
    [8, true, 1],
    [14, true, 7],
  ])('streak %i, checked in today %s: %i done', (streak, today, done) => {
    expect(cycleDone(streak, today)).toBe(done);
  });
});

describe('validateGrant', () => {
  const v = { account: '0912345678', value: '50', uses: '2', days: '30', reason: 'goodwill' };
  it.each([
    ['ok', v, null],
    ['account', { ...v, account: '' }, 'account_not_exist'],
    ['zero', { ...v, value: '0' }, 'coupon_value_invalid'],
    ['cents', { ...v, value: '5.5' }, 'coupon_value_invalid'],
    ['too big', { ...v, value: '1001' }, 'coupon_value_invalid'],
    ['uses', { ...v, uses: '11' }, 'coupon_uses_invalid'],
    ['days', { ...v, days: '0' }, 'coupon_days_invalid'],
    ['reason', { ...v, reason: '  ' }, 'remark_required'],
  ])('%s', (_, val, key) => {
    expect(validateGrant(val)?.key ?? null).toBe(key);
  });
});
