import { lazyTexts, type Leaves, useScopedT } from '@/lib/i18n/lazy';
import watchlistEN from './locales/en';
import watchlistTW, { type WatchlistMessages } from './locales/zh-TW';

// Watchlist groups' texts, under watchlist., loaded with their screen (lib/i18n/lazy.ts).
export const ensureWatchlistTexts = lazyTexts('watchlist', watchlistTW, watchlistEN);

export type WatchlistKey = Leaves<WatchlistMessages>;

/** t for the watchlist's texts: typed keys relative to watchlist. */
export function useWatchlistT(): (key: WatchlistKey, options?: Record<string, unknown>) => string {
  return useScopedT<WatchlistKey>('watchlist', ensureWatchlistTexts);
}
