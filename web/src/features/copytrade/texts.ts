import { lazyTexts, type Leaves, useScopedT } from '@/lib/i18n/lazy';
import copyEN from './locales/en';
import copyTW, { type CopyMessages } from './locales/zh-TW';

// Copy trading's texts, under copytrade., loaded with its screens (lib/i18n/lazy.ts).
export const ensureCopyTexts = lazyTexts('copytrade', copyTW, copyEN);

export type CopyKey = Leaves<CopyMessages>;

/** t for copy trading's texts: typed keys relative to copytrade. */
export function useCopyT(): (key: CopyKey, options?: Record<string, unknown>) => string {
  return useScopedT<CopyKey>('copytrade', ensureCopyTexts);
}
