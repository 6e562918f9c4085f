import { lazyTexts, type Leaves, useScopedT } from '@/lib/i18n/lazy';
import en from './locales/en';
import tw, { type WalletFeatureMessages } from './locales/zh-TW';

// The wallet and statement screens' texts, under walletx., loaded with them (lib/i18n/lazy.ts).
export const ensureWalletFeatureTexts = lazyTexts('walletx', tw, en);

/** A key under walletx., e.g. 'statement.title'. */
export type WalletFeatureKey = Leaves<WalletFeatureMessages>;

/** t for the wallet and statement texts: typed keys relative to walletx. */
export function useWalletFeatureT(): (key: WalletFeatureKey, options?: Record<string, unknown>) => string {
  return useScopedT<WalletFeatureKey>('walletx', ensureWalletFeatureTexts);
}
