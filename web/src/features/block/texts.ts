import { lazyTexts, type Leaves, useScopedT } from '@/lib/i18n/lazy';
import blockEN from './locales/en';
import blockTW, { type BlockMessages } from './locales/zh-TW';

// Block trading's texts, under block., loaded with its screens (lib/i18n/lazy.ts).
export const ensureBlockTexts = lazyTexts('block', blockTW, blockEN);

/** A key under block., e.g. 'ops.title'. */
export type BlockKey = Leaves<BlockMessages>;

/** t for block trading's texts: typed keys relative to block. */
export function useBlockT(): (key: BlockKey, options?: Record<string, unknown>) => string {
  return useScopedT<BlockKey>('block', ensureBlockTexts);
}
