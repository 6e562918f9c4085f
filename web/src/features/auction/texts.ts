import { lazyTexts, type Leaves, useScopedT } from '@/lib/i18n/lazy';
import auctionEN from './locales/en';
import auctionTW, { type AuctionMessages } from './locales/zh-TW';

// The auction screens' texts, under auction., loaded with those screens.
export const ensureAuctionTexts = lazyTexts('auction', auctionTW, auctionEN);

export type AuctionKey = Leaves<AuctionMessages>;

export function useAuctionT(): (key: AuctionKey, options?: Record<string, unknown>) => string {
  return useScopedT<AuctionKey>('auction', ensureAuctionTexts);
}
