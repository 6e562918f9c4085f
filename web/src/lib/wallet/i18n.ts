import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { i18n } from '@/lib/i18n';
import walletEN from './locales/en';
import walletTW, { type WalletMessages } from './locales/zh-TW';

// The money screens' texts live under `wallet.` in the one translation namespace, but ship with
// those screens instead of the entry (the first route is near its size budget). They are added
// to both languages as soon as i18next is up; English loaded later merges around them.
let added = false;
export function ensureWalletTexts(): void {
  if (added || !i18n.isInitialized) return;
  i18n.addResourceBundle('zh-TW', 'translation', { wallet: walletTW }, true, true);
  i18n.addResourceBundle('en', 'translation', { wallet: walletEN }, true, true);
  added = true;
}
ensureWalletTexts();

type Leaves<T, P extends string = ''> = {
  [K in keyof T & string]: T[K] extends string ? `${P}${K}` : Leaves<T[K], `${P}${K}.`>;
}[keyof T & string];

/** A key under wallet., e.g. 'withdraw.title'. */
export type WalletKey = Leaves<WalletMessages>;

/** t for the wallet texts: typed keys relative to wallet. */
export function useWalletT(): (key: WalletKey, options?: Record<string, unknown>) => string {
  ensureWalletTexts();
  const { t } = useTranslation();
  return useCallback((key, options) => (t as unknown as (k: string, o?: Record<string, unknown>) => string)(`wallet.${key}`, options), [t]);
}
