import { lazyTexts, type Leaves, useScopedT } from '@/lib/i18n/lazy';
import couponsEN from './locales/en';
import couponsTW, { type CouponsMessages } from './locales/zh-TW';

// Check-in's and coupons' texts, under coupons., loaded with its screens (lib/i18n/lazy.ts).
export const ensureCouponsTexts = lazyTexts('coupons', couponsTW, couponsEN);

/** A key under coupons., e.g. 'ops.title'. */
export type CouponsKey = Leaves<CouponsMessages>;

/** t for check-in's and coupons' texts: typed keys relative to coupons. */
export function useCouponsT(): (key: CouponsKey, options?: Record<string, unknown>) => string {
  return useScopedT<CouponsKey>('coupons', ensureCouponsTexts);
}
