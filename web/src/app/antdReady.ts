import { i18n } from '@/lib/i18n';

// antd-mobile's locale follows the app's language; screens wait for it so that the kit never
// shows its built-in Simplified Chinese. Loaded beside the first kit screen, not in the entry.
let antdLocale: Promise<void> | undefined;
export function antdReady(): Promise<void> {
  antdLocale ??= import('@/lib/antdLocale').then((m) => m.syncAntdLocale(i18n));
  return antdLocale;
}
