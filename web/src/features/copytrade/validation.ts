// Copy trading's form checks, before anything is sent (the server checks again).

export interface FollowValues {
  amount: string;
  days: string;
}

export type FollowError = { field: keyof FollowValues; key: 'amount_invalid' | 'time_limit_exceeded' | 'buy_amount_below_minimum' } | null;

/** A follow form: a whole amount not below the minimum, days within the mentor's window (empty: all of it). */
export function validateFollow(v: FollowValues, minAmount: string, windowDays: number): FollowError {
  if (!/^[1-9]\d{0,9}$/.test(v.amount)) return { field: 'amount', key: 'amount_invalid' };
  if (Number(v.amount) < Number(minAmount)) return { field: 'amount', key: 'buy_amount_below_minimum' };
  if (v.days !== '' && (!/^\d{1,4}$/.test(v.days) || Number(v.days) < 1 || Number(v.days) > windowDays)) return { field: 'days', key: 'time_limit_exceeded' };
  return null;
}

export interface ProfileValues {
  displayName: string;
  minAmount: string;
  windowDays: string;
  profitShare: string;
}

export type ProfileError = { field: keyof ProfileValues; key: 'name_required' | 'minimum_amount_invalid' | 'follow_window_invalid' | 'profit_share_invalid' } | null;

/** A mentor profile within the published bounds. */
export function validateProfile(v: ProfileValues, floor: string, maxDays: number, maxShare: string): ProfileError {
  if (v.displayName.trim() === '' || v.displayName.trim().length > 24) return { field: 'displayName', key: 'name_required' };
  if (!/^[1-9]\d{0,9}$/.test(v.minAmount) || Number(v.minAmount) < Number(floor)) return { field: 'minAmount', key: 'minimum_amount_invalid' };
  if (!/^\d{1,4}$/.test(v.windowDays) || Number(v.windowDays) < 1 || Number(v.windowDays) > maxDays) return { field: 'windowDays', key: 'follow_window_invalid' };
  if (!/^\d{1,2}(\.\d{1,2})?$/.test(v.profitShare) || Number(v.profitShare) > Number(maxShare)) return { field: 'profitShare', key: 'profit_share_invalid' };
  return null;
}
