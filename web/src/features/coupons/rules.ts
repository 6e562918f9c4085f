import type { FieldError } from '@/lib/validation';

/** A coupon as the ticket and the list need it. */
export interface CouponLike {
  status: 'usable' | 'reserved' | 'used' | 'expired';
  left: number;
}

/** The coupons a new order may use: usable, with a use left. */
export function applicable<C extends CouponLike>(cs: readonly C[]): C[] {
  return cs.filter((c) => c.status === 'usable' && c.left > 0);
}

/** The streak bar: which of the cycle's 7 days are done (1-based cycle days up to the streak's place). */
export function cycleDone(streak: number, checkedInToday: boolean): number {
  if (streak <= 0) return 0;
  const place = ((streak - 1) % 7) + 1;
  // A streak that ended yesterday at day 7 starts a new cycle today: nothing of it is done yet.
  return !checkedInToday && place === 7 ? 0 : place;
}

/** What the ops grant form holds. */
export interface GrantValues {
  account: string;
  value: string;
  uses: string;
  days: string;
  reason: string;
}

/** The first failing field of a grant; the server checks the same and that the account is a member. */
export function validateGrant(v: GrantValues): FieldError<keyof GrantValues> | null {
  if (!/^\S{1,64}$/.test(v.account)) return { field: 'account', key: 'account_not_exist' };
  if (!/^[1-9]\d{0,3}$/.test(v.value) || Number(v.value) > 1000) return { field: 'value', key: 'coupon_value_invalid' };
  if (!/^\d{1,2}$/.test(v.uses) || Number(v.uses) < 1 || Number(v.uses) > 10) return { field: 'uses', key: 'coupon_uses_invalid' };
  if (!/^\d{1,2}$/.test(v.days) || Number(v.days) < 1 || Number(v.days) > 90) return { field: 'days', key: 'coupon_days_invalid' };
  if (v.reason.trim() === '' || v.reason.length > 200 || /[\r\n]/.test(v.reason)) return { field: 'reason', key: 'remark_required' };
  return null;
}
