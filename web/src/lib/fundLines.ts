import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * The name of a kind of fund record line (the server's journal line type, e.g. 'fee') in both
 * languages. A feature declares the lines its events write, in its routes.ts (loaded with the app),
 * so that fund records name every capability's lines without being edited for each one.
 */
export type FundLineLabel = { tw: string; en: string };

const labels = new Map<string, FundLineLabel>();

/** Declares the labels of a feature's line types. */
export function declareFundLines(decl: Record<string, FundLineLabel>): void {
  for (const [type, label] of Object.entries(decl)) labels.set(type, label);
}

/** The label of a line type in lang, or undefined for a type nobody declared (shown unlabelled). */
export function fundLineLabel(type: string, lang: 'tw' | 'en'): string | undefined {
  return labels.get(type)?.[lang];
}

/** fundLineLabel in the current language. */
export function useFundLineLabel(): (type: string) => string | undefined {
  const { i18n } = useTranslation();
  const lang = i18n.language === 'en' ? 'en' : 'tw';
  return useCallback((type: string) => fundLineLabel(type, lang), [lang]);
}

/** Whether a line's asset is a security (counted in shares, e.g. 'TW:2330') rather than a currency. */
export function isSecurityAsset(asset: string): boolean {
  return asset.includes(':');
}
