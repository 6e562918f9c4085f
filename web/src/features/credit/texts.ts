import { lazyTexts, type Leaves, useScopedT } from '@/lib/i18n/lazy';
import creditEN from './locales/en';
import creditTW, { type CreditMessages } from './locales/zh-TW';

// Credit's texts, under credit., loaded with its screens (lib/i18n/lazy.ts).
export const ensureCreditTexts = lazyTexts('credit', creditTW, creditEN);

/** A key under credit., e.g. 'ops.title'. */
export type CreditKey = Leaves<CreditMessages>;

/** t for credit's texts: typed keys relative to credit. */
export function useCreditT(): (key: CreditKey, options?: Record<string, unknown>) => string {
  return useScopedT<CreditKey>('credit', ensureCreditTexts);
}
