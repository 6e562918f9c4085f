import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { api, IMAGE_BASE } from './api/client';
import { queryKeys } from './query';

export interface AppConfig {
  entries: Record<string, string>;
  /** Logo URL, prefixed with the image base; '' when none. */
  logo: string;
  title: string;
  demo: boolean;
}

/** Turns the config call's name/value list into the app's config (pure, tested). */
export function toAppConfig(list: ReadonlyArray<{ name: string; value: string }>): AppConfig {
  const entries: Record<string, string> = {};
  for (const { name, value } of list) entries[name] = value;
  const logo = entries.logo ? joinImage(entries.logo) : '';
  return { entries, logo, title: entries.title ?? '', demo: entries.demo === 'true' };
}

function joinImage(path: string): string {
  if (/^(https?:)?\/\//.test(path) || path.startsWith('data:')) return path;
  return IMAGE_BASE + path.replace(/^\/+/, '').replace(/^api\//, '');
}

/** The site config; its failure is silent (the app works without it, with its own title). */
export function useAppConfig() {
  const q = useQuery({
    queryKey: queryKeys.config,
    queryFn: async ({ signal }) => toAppConfig(await api.query('/api/vue/common/config', { type: 'all' }, { signal, silent: true })),
    staleTime: 5 * 60_000,
  });
  const title = q.data?.title;
  useEffect(() => {
    if (title) document.title = title;
  }, [title]);
  return q;
}
