import { lazyTexts, type Leaves, useScopedT } from '@/lib/i18n/lazy';
import lendingEN from './locales/en';
import lendingTW, { type LendingMessages } from './locales/zh-TW';

// Stock lending's texts, under lending., loaded with its screens (lib/i18n/lazy.ts).
export const ensureLendingTexts = lazyTexts('lending', lendingTW, lendingEN);

/** A key under lending., e.g. 'ops.title'. */
export type LendingKey = Leaves<LendingMessages>;

/** t for stock lending's texts: typed keys relative to lending. */
export function useLendingT(): (key: LendingKey, options?: Record<string, unknown>) => string {
  return useScopedT<LendingKey>('lending', ensureLendingTexts);
}
