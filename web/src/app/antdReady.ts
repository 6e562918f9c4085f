import { i18n } from '@/lib/i18n';

// antd-mobile's locale follows the app's language; screens wait for it so that the kit never
// shows its built-in Simplified Chinese. Loaded beside the first kit screen, not in the entry.
let antdLocale: Promise<void> | undefined;
/** The kit locale's chunk (also preloaded by index.html for a kit screen, app/router.tsx). */
export const loadAntdLocale = () => import('@/lib/antdLocale');
export function antdReady(): Promise<void> {
  antdLocale ??= loadAntdLocale().then((m) => m.syncAntdLocale(i18n));
  return antdLocale;
}
