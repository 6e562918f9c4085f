import type { FieldError } from '@/lib/validation';

/** Rejecting a deposit needs a remark the member will see. */
export function validateReject(remark: string): FieldError<'remark'> | null {
  return remark.trim() ? null : { field: 'remark', key: 'remark_required' };
}
