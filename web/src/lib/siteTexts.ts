import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api, type DataOf } from './api/client';

export type SiteText = DataOf<'/api/vue/common/texts', 'get'>[number];
export type TextName = SiteText['name'];

/** The text ops wrote for name in lang, split into paragraphs; null when they wrote none (pure, tested). */
export function pickText(list: readonly SiteText[] | undefined, name: TextName, lang: 'tw' | 'en'): string[] | null {
  const text = list?.find((x) => x.name === name && x.lang === lang)?.text.trim();
  if (!text) return null;
  return text.split(/\n\s*\n/).map((p) => p.trim()).filter(Boolean);
}

/**
 * The paragraphs of a text members read (about us, agreement, privacy, fees) in the app's
 * language as ops wrote it in the console; null while loading or when ops wrote none (the page
 * then shows its own text). Texts are plain text, never HTML.
 */
export function useSiteText(name: TextName): string[] | null {
  const { i18n } = useTranslation();
  const q = useQuery({
    queryKey: ['siteTexts'] as const,
    queryFn: ({ signal }) => api.get('/api/vue/common/texts', { signal, silent: true }),
    staleTime: 5 * 60_000,
  });
  return pickText(q.data, name, i18n.language === 'en' ? 'en' : 'tw');
}
