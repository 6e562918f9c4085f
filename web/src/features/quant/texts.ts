import { lazyTexts, type Leaves, useScopedT } from '@/lib/i18n/lazy';
import quantEN from './locales/en';
import quantTW, { type QuantMessages } from './locales/zh-TW';

// AI quant's texts, under quant., loaded with its screens (lib/i18n/lazy.ts).
export const ensureQuantTexts = lazyTexts('quant', quantTW, quantEN);

/** A key under quant., e.g. 'list.title'. */
export type QuantKey = Leaves<QuantMessages>;

/** t for quant's texts: typed keys relative to quant. */
export function useQuantT(): (key: QuantKey, options?: Record<string, unknown>) => string {
  return useScopedT<QuantKey>('quant', ensureQuantTexts);
}
