// Validation of the identity and bank card forms: the server's rules (commands/rules/identity,
// commands/rules/bank, commands/handlers_identity.go), checked before sending.
import { type FieldError, isTaiwanId } from '@/lib/validation';
import { isTaiwanBank } from '@/domain/wallet/banks';

/** Trims and collapses runs of white space, as the server stores a name. */
export function normalizeName(s: string): string {
  return s.trim().split(/\s+/u).filter(Boolean).join(' ');
}

const NAME_CHAR = /^[\p{L}\p{Mn} .·'-]$/u;

/**
 * A person's name (normalised): 2 to 50 characters, letters of any script with spaces, '.',
 * '·', '-' or an apostrophe between them, starting with a letter.
 */
export function isValidName(s: string): boolean {
  const chars = [...s];
  if (chars.length < 2 || chars.length > 50) return false;
  return /^\p{L}$/u.test(chars[0]!) && chars.every((c) => NAME_CHAR.test(c));
}

/** The same person's name as typed: equal after normalising, Latin case ignored. */
export function sameName(a: string, b: string): boolean {
  return normalizeName(a).toLowerCase() === normalizeName(b).toLowerCase();
}

export interface RealNameValues {
  name: string;
  idNumber: string;
  frontFileId: string;
  backFileId: string;
}

/** Identity: name, Taiwan ID number with its check digit, both photos (two different ones). */
export function validateRealName(v: RealNameValues): FieldError<keyof RealNameValues> | null {
  const name = normalizeName(v.name);
  const id = v.idNumber.trim().toUpperCase();
  if (!name) return { field: 'name', key: 'name_required' };
  if (!isValidName(name)) return { field: 'name', key: 'name_invalid' };
  if (!id) return { field: 'idNumber', key: 'id_number_required' };
  if (!isTaiwanId(id)) return { field: 'idNumber', key: 'id_number_invalid' };
  if (!v.frontFileId) return { field: 'frontFileId', key: 'id_photos_required' };
  if (!v.backFileId) return { field: 'backFileId', key: 'id_photos_required' };
  if (v.frontFileId === v.backFileId) return { field: 'backFileId', key: 'wallet.err.same_photo' };
  return null;
}

export interface CardValues {
  holderName: string;
  /** The bank's 3-digit code, chosen from the list of Taiwan's banks (the card takes its name). */
  bankCode: string;
  /** The branch's 4-digit code. */
  branch: string;
  cardNumber: string;
  ifsc: string;
  upi: string;
}

/** The card fields beyond Taiwan's that ops may enable per withdrawal channel. */
export type ExtraCardField = 'ifsc' | 'upi';

/**
 * The extra card fields any withdrawal channel enables: the site config entries
 * withdrawal.<channel>.cardFields ("ifsc,upi"); none when there is no such entry.
 */
export function enabledCardFields(entries: Record<string, string> | undefined): Set<ExtraCardField> {
  const out = new Set<ExtraCardField>();
  for (const [name, value] of Object.entries(entries ?? {})) {
    if (!/^withdrawal\..+\.cardFields$/.test(name)) continue;
    for (const f of value.split(',')) {
      const k = f.trim().toLowerCase();
      if (k === 'ifsc' || k === 'upi') out.add(k);
    }
  }
  return out;
}

/** The longest free text the server takes in a card field (characters). */
export const CARD_FIELD_MAX = 64;

/** Removes the spaces and hyphens people type inside account numbers. */
export function normalizeCardNumber(s: string): string {
  return s.replace(/[ -]/g, '');
}

const IFSC = /^[A-Z]{4}0[A-Z0-9]{6}$/;
const UPI = /^[A-Za-z0-9][A-Za-z0-9._-]{1,255}@[A-Za-z][A-Za-z0-9]{1,63}$/;

/**
 * A bank card in Taiwan's terms: holder, bank, branch and number required; the bank from the
 * list of Taiwan's banks; the branch code 4 digits; the number 10 to 16 digits (no Luhn check:
 * Taiwan account numbers carry none); IFSC and UPI checked only when enabled (else not sent);
 * the holder must be the verified name (when it is known).
 */
export function validateCard(v: CardValues, verifiedName?: string, extra: ReadonlySet<ExtraCardField> = new Set()): FieldError<keyof CardValues> | null {
  const holder = normalizeName(v.holderName);
  const number = normalizeCardNumber(v.cardNumber);
  const required: Array<[keyof CardValues, string]> = [
    ['holderName', holder],
    ['bankCode', v.bankCode.trim()],
    ['branch', v.branch.trim()],
    ['cardNumber', number],
  ];
  const empty = required.find(([, s]) => s === '');
  if (empty) return { field: empty[0], key: 'card_fields_required' };
  if ([...holder].length > CARD_FIELD_MAX) return { field: 'holderName', key: 'invalid_request' };
  if (!isTaiwanBank(v.bankCode.trim())) return { field: 'bankCode', key: 'bank_code_invalid' };
  if (!/^\d{4}$/.test(v.branch.trim())) return { field: 'branch', key: 'branch_code_invalid' };
  if (!/^\d{10,16}$/.test(number)) return { field: 'cardNumber', key: 'card_number_invalid' };
  const ifsc = v.ifsc.trim().toUpperCase();
  if (extra.has('ifsc') && ifsc && !IFSC.test(ifsc)) return { field: 'ifsc', key: 'ifsc_invalid' };
  const upi = v.upi.trim();
  if (extra.has('upi') && upi && !UPI.test(upi)) return { field: 'upi', key: 'upi_invalid' };
  if (verifiedName && !sameName(holder, verifiedName)) return { field: 'holderName', key: 'card_not_own' };
  return null;
}

/** The body the server takes: trimmed, the number without separators, IFSC and UPI only when enabled. */
export function cardBody(v: CardValues, extra: ReadonlySet<ExtraCardField> = new Set()) {
  const ifsc = v.ifsc.trim().toUpperCase();
  const upi = v.upi.trim();
  return {
    holderName: normalizeName(v.holderName),
    bankCode: v.bankCode.trim(),
    branch: v.branch.trim(),
    cardNumber: normalizeCardNumber(v.cardNumber),
    ...(extra.has('ifsc') && ifsc ? { ifsc } : {}),
    ...(extra.has('upi') && upi ? { upi } : {}),
  };
}
