import { lazyTexts, type Leaves, useScopedT } from '@/lib/i18n/lazy';
import walletEN from './locales/en';
import walletTW, { type WalletMessages } from './locales/zh-TW';

// The money screens' texts, under wallet., loaded with those screens (lib/i18n/lazy.ts).
export const ensureWalletTexts = lazyTexts('wallet', walletTW, walletEN);

/** A key under wallet., e.g. 'withdraw.title'. */
export type WalletKey = Leaves<WalletMessages>;

/** t for the wallet texts: typed keys relative to wallet. */
export function useWalletT(): (key: WalletKey, options?: Record<string, unknown>) => string {
  return useScopedT<WalletKey>('wallet', ensureWalletTexts);
}
