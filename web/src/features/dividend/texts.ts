import { lazyTexts, type Leaves, useScopedT } from '@/lib/i18n/lazy';
import dividendEN from './locales/en';
import dividendTW, { type DividendMessages } from './locales/zh-TW';

// The dividend screens' texts, under dividend., loaded with its screens (lib/i18n/lazy.ts).
export const ensureDividendTexts = lazyTexts('dividend', dividendTW, dividendEN);

export type DividendKey = Leaves<DividendMessages>;

export function useDividendT(): (key: DividendKey, options?: Record<string, unknown>) => string {
  return useScopedT<DividendKey>('dividend', ensureDividendTexts);
}
