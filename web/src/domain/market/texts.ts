import { lazyTexts } from '@/lib/i18n/lazy';
import marketEN from './locales/en';
import marketTW, { type MarketMessages } from './locales/zh-TW';

// The market texts, under market., loaded with the market screens and home (lib/i18n/lazy.ts).
// Screens read them with the app's typed t ('market.tabs.gainers'), so their type joins the app's.
declare module '@/lib/i18n' {
  interface LazyMessages {
    market: MarketMessages;
  }
}

export const ensureMarketTexts = lazyTexts('market', marketTW, marketEN);
