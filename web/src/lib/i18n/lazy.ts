import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { i18n } from './index';

// Texts of a domain (market., trade., wallet.) live under their own key in the one translation
// namespace but ship with the screens that use them, not the entry (the first route is near its
// size budget). Each domain declares them once in its texts.ts with lazyTexts.

/**
 * Adds the texts under `ns` to both languages as soon as i18next is up (now, or when it
 * initialises); English loaded later merges around them. Returns the idempotent ensure function.
 */
export function lazyTexts(ns: string, tw: object, en: object): () => void {
  let state: 'idle' | 'waiting' | 'added' = 'idle';
  const ensure = (): void => {
    if (state === 'added') return;
    if (!i18n.isInitialized) {
      if (state === 'idle') i18n.on('initialized', ensure);
      state = 'waiting';
      return;
    }
    i18n.addResourceBundle('zh-TW', 'translation', { [ns]: tw }, true, true);
    i18n.addResourceBundle('en', 'translation', { [ns]: en }, true, true);
    state = 'added';
  };
  ensure();
  return ensure;
}

/** The dotted paths of the leaves of a texts tree, e.g. 'withdraw.title'. */
export type Leaves<T, P extends string = ''> = {
  [K in keyof T & string]: T[K] extends string ? `${P}${K}` : Leaves<T[K], `${P}${K}.`>;
}[keyof T & string];

/** t for one domain's texts: keys relative to `ns`, typed by the domain's Key. */
export function useScopedT<Key extends string>(ns: string, ensure: () => void): (key: Key, options?: Record<string, unknown>) => string {
  ensure();
  const { t } = useTranslation();
  return useCallback((key, options) => (t as unknown as (k: string, o?: Record<string, unknown>) => string)(`${ns}.${key}`, options), [t, ns]);
}
