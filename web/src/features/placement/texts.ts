import { lazyTexts, type Leaves, useScopedT } from '@/lib/i18n/lazy';
import placementEN from './locales/en';
import placementTW, { type PlacementMessages } from './locales/zh-TW';

// The placement screens' texts, under placement., loaded with those screens.
export const ensurePlacementTexts = lazyTexts('placement', placementTW, placementEN);

export type PlacementKey = Leaves<PlacementMessages>;

export function usePlacementT(): (key: PlacementKey, options?: Record<string, unknown>) => string {
  return useScopedT<PlacementKey>('placement', ensurePlacementTexts);
}
