import { lazyTexts, type Leaves, useScopedT } from '@/lib/i18n/lazy';
import alertsEN from './locales/en';
import alertsTW, { type AlertsMessages } from './locales/zh-TW';

// Price alerts' texts, under alerts., loaded with their screens (lib/i18n/lazy.ts).
export const ensureAlertsTexts = lazyTexts('alerts', alertsTW, alertsEN);

export type AlertsKey = Leaves<AlertsMessages>;

/** t for the alerts' texts: typed keys relative to alerts. */
export function useAlertsT(): (key: AlertsKey, options?: Record<string, unknown>) => string {
  return useScopedT<AlertsKey>('alerts', ensureAlertsTexts);
}
