import type { FieldError } from '@/lib/validation';

/** What the borrow and repay forms hold. */
export interface AmountValues {
  amount: string;
  fundPassword: string;
}

const WHOLE = /^\d{1,10}$/;

/**
 * The first failing field of a borrow form, with the server's message keys: a whole NT$ amount
 * not below the minimum and within what may still be borrowed, then the fund password. The
 * server checks all of it again.
 */
export function validateBorrow(v: AmountValues, loanable: string, minLoan: string): FieldError<keyof AmountValues> | null {
  if (v.amount === '') return { field: 'amount', key: 'amount_required' };
  if (!WHOLE.test(v.amount) || Number(v.amount) <= 0) return { field: 'amount', key: 'amount_invalid' };
  if (Number(v.amount) < Number(minLoan)) return { field: 'amount', key: 'loan_below_minimum' };
  if (Number(v.amount) > Number(loanable)) return { field: 'amount', key: 'loan_quota_insufficient' };
  if (v.fundPassword === '') return { field: 'fundPassword', key: 'fund_password_required' };
  return null;
}

/** The first failing field of a repayment: a whole NT$ amount not above what the loan owes. */
export function validateRepay(v: AmountValues, debt: string): FieldError<keyof AmountValues> | null {
  if (v.amount === '') return { field: 'amount', key: 'amount_required' };
  if (!WHOLE.test(v.amount) || Number(v.amount) <= 0) return { field: 'amount', key: 'amount_invalid' };
  if (Number(v.amount) > Number(debt)) return { field: 'amount', key: 'repayment_exceeds_loan' };
  if (v.fundPassword === '') return { field: 'fundPassword', key: 'fund_password_required' };
  return null;
}
