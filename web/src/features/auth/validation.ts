import { type FieldError, isTaiwanId, isTaiwanMobile, isValidAccount, isValidPassword } from '@/lib/validation';

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

export interface LoginByIdValues {
  idNumber: string;
  password: string;
  agreed: boolean;
}

/** Login by phone number (/login/logon): a Taiwan mobile number, the password, the agreement. */
export function validateLogonByPhone(v: LoginValues): FieldError<keyof LoginValues> | null {
  const phone = v.account.trim();
  if (!phone) return { field: 'account', key: 'auth.phoneRequired' };
  if (!isTaiwanMobile(phone)) return { field: 'account', key: 'auth.phoneInvalid' };
  return validateLogin(v);
}

/** Login by ID number (/login/logon2): a Taiwan ID number with its check digit, either case. */
export function validateLoginById(v: LoginByIdValues): FieldError<keyof LoginByIdValues> | null {
  const id = v.idNumber.trim().toUpperCase();
  if (!id) return { field: 'idNumber', key: 'id_number_required' };
  if (!isTaiwanId(id)) return { field: 'idNumber', key: 'id_number_invalid' };
  if (!v.password) return { field: 'password', key: 'password_required' };
  if (!v.agreed) return { field: 'agreed', key: 'auth.agreementRequired' };
  return null;
}
