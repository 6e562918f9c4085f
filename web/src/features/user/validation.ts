import { type FieldError, isValidFundPassword, isValidPassword } from '@/lib/validation';

export interface ChangePasswordValues {
  oldPassword: string;
  newPassword: string;
  confirmPassword: string;
}

/** Change login password: old, new and confirmation required; new in format; both equal. */
export function validateChangePassword(v: ChangePasswordValues): FieldError<keyof ChangePasswordValues> | null {
  if (!v.oldPassword) return { field: 'oldPassword', key: 'old_password_required' };
  if (!v.newPassword) return { field: 'newPassword', key: 'password_required' };
  if (!isValidPassword(v.newPassword)) return { field: 'newPassword', key: 'password_invalid' };
  if (!v.confirmPassword) return { field: 'confirmPassword', key: 'confirm_password_required' };
  if (v.confirmPassword !== v.newPassword) return { field: 'confirmPassword', key: 'passwords_inconsistent' };
  return null;
}

export interface FundPasswordValues {
  /** The login password when setting the first time, the old fund password when changing. */
  current: string;
  fundPassword: string;
  confirmFundPassword: string;
}

/** Set (first time) or change the 6-digit fund password. */
export function validateFundPassword(v: FundPasswordValues, mode: 'set' | 'change'): FieldError<keyof FundPasswordValues> | null {
  if (mode === 'set' && !v.current) return { field: 'current', key: 'password_required' };
  if (mode === 'change') {
    if (!v.current) return { field: 'current', key: 'fund_password_required' };
    if (!isValidFundPassword(v.current)) return { field: 'current', key: 'fund_password_invalid' };
  }
  if (!v.fundPassword) return { field: 'fundPassword', key: 'fund_password_required' };
  if (!isValidFundPassword(v.fundPassword)) return { field: 'fundPassword', key: 'fund_password_invalid' };
  if (!v.confirmFundPassword) return { field: 'confirmFundPassword', key: 'confirm_password_required' };
  if (v.confirmFundPassword !== v.fundPassword) return { field: 'confirmFundPassword', key: 'passwords_inconsistent' };
  return null;
}
