import { type FieldError, isValidAccount, isValidPassword } from '@/lib/validation';

export interface LoginValues {
  account: string;
  password: string;
  agreed: boolean;
}

export interface RegisterValues {
  account: string;
  password: string;
  confirmPassword: string;
  inviteCode: string;
  agreed: boolean;
}

/** Login: account and password present, privacy agreement accepted (staff accounts are not phones). */
export function validateLogin(v: LoginValues): FieldError<keyof LoginValues> | null {
  if (!v.account.trim()) return { field: 'account', key: 'account_required' };
  if (!v.password) return { field: 'password', key: 'password_required' };
  if (!v.agreed) return { field: 'agreed', key: 'auth.agreementRequired' };
  return null;
}

/** Register: spec section 5 plus the account and password formats the server enforces. */
export function validateRegister(v: RegisterValues): FieldError<keyof RegisterValues> | null {
  const account = v.account.trim();
  if (!account) return { field: 'account', key: 'account_required' };
  if (!isValidAccount(account)) return { field: 'account', key: 'account_invalid' };
  if (!v.password) return { field: 'password', key: 'password_required' };
  if (!isValidPassword(v.password)) return { field: 'password', key: 'password_invalid' };
  if (!v.confirmPassword) return { field: 'confirmPassword', key: 'confirm_password_required' };
  if (v.confirmPassword !== v.password) return { field: 'confirmPassword', key: 'passwords_inconsistent' };
  if (!v.inviteCode.trim()) return { field: 'inviteCode', key: 'invite_code_required' };
  if (!v.agreed) return { field: 'agreed', key: 'auth.agreementRequired' };
  return null;
}
