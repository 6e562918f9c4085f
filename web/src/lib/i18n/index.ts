import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import zhTW, { type Messages } from './locales/zh-TW';

/**
 * Texts that ship with their screens (lazy.ts) but are read with the app's typed t: a domain adds
 * its part here by declaration merging (see domain/market/texts.ts), so lib names no domain.
 */
export interface LazyMessages {}

declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: { translation: Messages & LazyMessages };
  }
}

/** The spec's language codes; tw is shown with i18next's zh-TW. */
export type AppLang = 'tw' | 'en';
export const LANG_KEY = 'lang';
export const DEFAULT_LANG: AppLang = 'tw';

export function toI18nCode(lang: AppLang): 'zh-TW' | 'en' {
  return lang === 'en' ? 'en' : 'zh-TW';
}

function asLang(v: string | null | undefined): AppLang | null {
  if (v === 'en' || v === 'tw') return v;
  if (v === 'zh-TW') return 'tw';
  return null;
}

/**
 * Picks the language: ?lang= in the query or inside the hash (#/path?lang=en) overrides the
 * stored choice; the default is tw. fromQuery tells the caller to store the override.
 */
export function detectLanguage(
  loc: { search: string; hash: string },
  stored: string | null,
): { lang: AppLang; fromQuery: boolean } {
  const hashQuery = loc.hash.includes('?') ? loc.hash.slice(loc.hash.indexOf('?')) : '';
  for (const q of [loc.search, hashQuery]) {
    const v = asLang(new URLSearchParams(q).get('lang'));
    if (v) return { lang: v, fromQuery: true };
  }
  return { lang: asLang(stored) ?? DEFAULT_LANG, fromQuery: false };
}

function readStored(): string | null {
  try {
    return localStorage.getItem(LANG_KEY);
  } catch {
    return null;
  }
}

function store(lang: AppLang): void {
  try {
    localStorage.setItem(LANG_KEY, lang);
  } catch {
    // no storage: the choice lasts for this visit
  }
}

export function currentLang(): AppLang {
  return i18n.language === 'en' ? 'en' : 'tw';
}

// English is fetched when first needed; tw, the default, ships in the entry.
let enLoaded: Promise<void> | undefined;
function loadLanguage(lang: AppLang): Promise<void> {
  if (lang !== 'en') return Promise.resolve();
  enLoaded ??= import('./locales/en').then((m) => {
    i18n.addResourceBundle('en', 'translation', m.default, true, true);
  });
  return enLoaded;
}

export async function setLanguage(lang: AppLang): Promise<void> {
  store(lang);
  await loadLanguage(lang);
  document.documentElement.lang = toI18nCode(lang);
  await i18n.changeLanguage(toI18nCode(lang));
}

/** Initialises i18next in the detected language (resolves once its texts are loaded). */
export async function initI18n(loc: { search: string; hash: string } = window.location): Promise<typeof i18n> {
  const { lang, fromQuery } = detectLanguage(loc, readStored());
  if (fromQuery) store(lang);
  document.documentElement.lang = toI18nCode(lang);
  if (!i18n.isInitialized) {
    void i18n.use(initReactI18next).init({
      resources: { 'zh-TW': { translation: zhTW } },
      lng: 'zh-TW',
      fallbackLng: false,
      supportedLngs: ['zh-TW', 'en'],
      initAsync: false,
      interpolation: { escapeValue: false },
      returnNull: false,
    });
  }
  await loadLanguage(lang);
  if (i18n.language !== toI18nCode(lang)) await i18n.changeLanguage(toI18nCode(lang));
  return i18n;
}

/** Translates a message key from the server; unknown keys show Error / 錯誤. */
export function translateMessage(key: string | undefined | null): string {
  if (key && i18n.exists(`msg.${key}`)) return i18n.t(`msg.${key}` as 'msg.ok');
  return i18n.t('common.error');
}

export { i18n };
