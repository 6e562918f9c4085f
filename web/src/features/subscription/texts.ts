import { lazyTexts, type Leaves, useScopedT } from '@/lib/i18n/lazy';
import subEN from './locales/en';
import subTW, { type SubscriptionMessages } from './locales/zh-TW';

// The subscription screens' texts, under subscription., loaded with those screens.
export const ensureSubscriptionTexts = lazyTexts('subscription', subTW, subEN);

export type SubscriptionKey = Leaves<SubscriptionMessages>;

export function useSubT(): (key: SubscriptionKey, options?: Record<string, unknown>) => string {
  return useScopedT<SubscriptionKey>('subscription', ensureSubscriptionTexts);
}
