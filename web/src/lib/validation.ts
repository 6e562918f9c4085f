// Field rules shared by several forms (spec section 5). Each form's own validate function lives
// in its feature and returns the first failing field with the message key to show.

/** A failed check: the field to mark and the translation key of its message. */
export interface FieldError<F extends string = string> {
  field: F;
  /** A server message key (translated under msg.*) or a full translation key. */
  key: string;
}

/** Ten-digit mobile number starting 09. */
export function isTaiwanMobile(s: string): boolean {
  return /^09\d{8}$/.test(s);
}

// Letter values of Taiwan ID numbers (national ID and the new resident certificate).
const ID_LETTERS: Record<string, number> = {
  A: 10, B: 11, C: 12, D: 13, E: 14, F: 15, G: 16, H: 17, I: 34, J: 18, K: 19, L: 20, M: 21,
  N: 22, O: 35, P: 23, Q: 24, R: 25, S: 26, T: 27, U: 28, V: 29, W: 32, X: 30, Y: 31, Z: 33,
};

/**
 * Taiwan ID number: a capital letter, 1 or 2 (8 or 9 for the new resident certificate), seven
 * digits and a check digit; the weighted sum must be a multiple of 10.
 */
export function isTaiwanId(s: string): boolean {
  if (!/^[A-Z][1289]\d{8}$/.test(s)) return false;
  const code = ID_LETTERS[s[0]!]!;
  const weights = [8, 7, 6, 5, 4, 3, 2, 1];
  let sum = Math.floor(code / 10) + (code % 10) * 9;
  for (let i = 0; i < 8; i++) sum += Number(s[i + 1]) * weights[i]!;
  sum += Number(s[9]);
  return sum % 10 === 0;
}

/** A registration account: a mobile number or a Taiwan ID number. */
export function isValidAccount(s: string): boolean {
  return isTaiwanMobile(s) || isTaiwanId(s);
}

/** Login password: English letters or digits, 8 to 20. */
export function isValidPassword(s: string): boolean {
  return /^[A-Za-z0-9]{8,20}$/.test(s);
}

/** Fund password: exactly 6 digits. */
export function isValidFundPassword(s: string): boolean {
  return /^\d{6}$/.test(s);
}

/** Positive amount with at most 2 decimals. */
export function isAmount(s: string): boolean {
  return /^(?:0|[1-9]\d{0,14})(?:\.\d{1,2})?$/.test(s) && /[1-9]/.test(s);
}

/** Translation key of a message key: server keys live under msg.*. */
export function messageKey(key: string): string {
  return key.includes('.') ? key : `msg.${key}`;
}

/** The largest image an upload takes (deposit proofs, identity photos), as the server. */
export const MAX_UPLOAD_BYTES = 5 * 1024 * 1024;
const IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/webp'];

/** Checks a chosen image before upload; the server sniffs the content again. */
export function checkImageFile(f: { size: number; type: string }): 'file_too_large' | 'file_type_invalid' | null {
  if (f.type && !IMAGE_TYPES.includes(f.type)) return 'file_type_invalid';
  if (f.size > MAX_UPLOAD_BYTES) return 'file_too_large';
  return null;
}
