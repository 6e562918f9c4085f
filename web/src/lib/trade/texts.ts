import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { i18n } from '@/lib/i18n';
import tradeEN from './locales/en';
import tradeTW, { type TradeMessages } from './locales/zh-TW';

// The trading screens' texts live under `trade.` in the one translation namespace but ship with
// those screens, not the entry (the first route is near its size budget).
let added = false;
export function ensureTradeTexts(): void {
  if (added) return;
  if (!i18n.isInitialized) {
    i18n.on('initialized', ensureTradeTexts);
    return;
  }
  i18n.addResourceBundle('zh-TW', 'translation', { trade: tradeTW }, true, true);
  i18n.addResourceBundle('en', 'translation', { trade: tradeEN }, true, true);
  added = true;
}
ensureTradeTexts();

type Leaves<T, P extends string = ''> = {
  [K in keyof T & string]: T[K] extends string ? `${P}${K}` : Leaves<T[K], `${P}${K}.`>;
}[keyof T & string];

/** A key under trade., e.g. 'pos.title'. */
export type TradeKey = Leaves<TradeMessages>;

/** t for the trading texts: typed keys relative to trade. */
export function useTradeT(): (key: TradeKey, options?: Record<string, unknown>) => string {
  ensureTradeTexts();
  const { t } = useTranslation();
  return useCallback((key, options) => (t as unknown as (k: string, o?: Record<string, unknown>) => string)(`trade.${key}`, options), [t]);
}
