import { setDefaultConfig } from 'antd-mobile/es/components/config-provider';
import enUS from 'antd-mobile/es/locales/en-US';
import zhTW from 'antd-mobile/es/locales/zh-TW';
import type { i18n as I18n } from 'i18next';

/**
 * Keeps antd-mobile's locale in step with the app's language. The default config (not a
 * provider) also reaches imperative toasts and dialogs, which render outside the React tree.
 */
export function syncAntdLocale(i18n: I18n): void {
  const apply = (lng: string) => setDefaultConfig({ locale: lng === 'en' ? enUS : zhTW });
  apply(i18n.language);
  i18n.on('languageChanged', apply);
}
