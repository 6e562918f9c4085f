import { lazyTexts, type Leaves, useScopedT } from '@/lib/i18n/lazy';
import chipgrabEN from './locales/en';
import chipgrabTW, { type ChipGrabMessages } from './locales/zh-TW';

// Chip grabbing's texts, under chipgrab., loaded with its screens (lib/i18n/lazy.ts).
export const ensureChipGrabTexts = lazyTexts('chipgrab', chipgrabTW, chipgrabEN);

/** A key under chipgrab., e.g. 'ops.title'. */
export type ChipGrabKey = Leaves<ChipGrabMessages>;

/** t for chip grabbing's texts: typed keys relative to chipgrab. */
export function useChipGrabT(): (key: ChipGrabKey, options?: Record<string, unknown>) => string {
  return useScopedT<ChipGrabKey>('chipgrab', ensureChipGrabTexts);
}
