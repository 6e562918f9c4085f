import { i18n } from '@/lib/i18n';
import marketEN from './locales/en';
import marketTW from './locales/zh-TW';

// The market texts live under `market.` in the one translation namespace but ship with the market
// screens (and home), not in the entry: the first route is near its size budget. They are added to
// both languages once i18next is up; English loaded later merges around them.
let added = false;
export function ensureMarketTexts(): void {
  if (added) return;
  if (!i18n.isInitialized) {
    i18n.on('initialized', ensureMarketTexts);
    return;
  }
  i18n.addResourceBundle('zh-TW', 'translation', { market: marketTW }, true, true);
  i18n.addResourceBundle('en', 'translation', { market: marketEN }, true, true);
  added = true;
}
ensureMarketTexts();
