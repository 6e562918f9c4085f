import { lazyTexts, type Leaves, useScopedT } from '@/lib/i18n/lazy';
import hubEN from './en';
import hubTW, { type HubMessages } from './zh-TW';

// The trading hub's texts, under hub., loaded with its screen (lib/i18n/lazy.ts).
export const ensureHubTexts = lazyTexts('hub', hubTW, hubEN);

/** A key under hub., e.g. 'todayOrders'. */
export type HubKey = Leaves<HubMessages>;

/** t for the hub's texts: typed keys relative to hub. */
export function useHubT(): (key: HubKey, options?: Record<string, unknown>) => string {
  return useScopedT<HubKey>('hub', ensureHubTexts);
}
