import { lazyTexts, type Leaves, useScopedT } from '@/lib/i18n/lazy';
import tradeEN from './locales/en';
import tradeTW, { type TradeMessages } from './locales/zh-TW';

// The trading screens' texts, under trade., loaded with those screens (lib/i18n/lazy.ts).
export const ensureTradeTexts = lazyTexts('trade', tradeTW, tradeEN);

/** A key under trade., e.g. 'pos.title'. */
export type TradeKey = Leaves<TradeMessages>;

/** t for the trading texts: typed keys relative to trade. */
export function useTradeT(): (key: TradeKey, options?: Record<string, unknown>) => string {
  return useScopedT<TradeKey>('trade', ensureTradeTexts);
}
