import { lazyTexts, type Leaves, useScopedT } from '@/lib/i18n/lazy';
import newsEN from './locales/en';
import newsTW, { type NewsMessages } from './locales/zh-TW';

// News and notices' texts, under news., loaded with the screens that show them (lib/i18n/lazy.ts).
export const ensureNewsTexts = lazyTexts('news', newsTW, newsEN);

/** A key under news., e.g. 'ops.save'. */
export type NewsKey = Leaves<NewsMessages>;

/** t for the news texts: typed keys relative to news. */
export function useNewsT(): (key: NewsKey, options?: Record<string, unknown>) => string {
  return useScopedT<NewsKey>('news', ensureNewsTexts);
}
