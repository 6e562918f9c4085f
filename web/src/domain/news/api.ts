import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api } from '@/lib/api/client';
import type { components } from '@/lib/api/schema';
import { useSession } from '@/lib/session';
import { useRole } from '@/lib/user';
import './texts';

// News and notices' calls (issue 13.2), typed by the schema generated from api/openapi.yaml.

type S = components['schemas'];
export type NewsKind = S['NewsKind'];
export type NewsState = S['NewsState'];
export type NewsSummary = S['NewsSummary'];
export type NewsItem = S['NewsItem'];
export type NewsUnread = S['NewsUnread'];
export type OpsNewsSummary = S['OpsNewsSummary'];
export type OpsNewsDetail = S['OpsNewsDetail'];
export type NewsText = S['NewsTextRequest'];

export const NEWS_PAGE_SIZE = 20;

export const newsApi = {
  items(kind: NewsKind, page: number, signal?: AbortSignal) {
    return api.get('/api/vue/news/items', { query: { kind, page, size: NEWS_PAGE_SIZE }, signal });
  },
  item(id: string, signal?: AbortSignal) {
    return api.get('/api/vue/news/items/{id}', { params: { id }, signal });
  },
  read(id: string, idempotencyKey: string) {
    return api.post('/api/vue/news/items/{id}/read', {}, { params: { id }, idempotencyKey, silent: true });
  },
  unread(signal?: AbortSignal) {
    return api.get('/api/vue/news/unread', { signal, silent: true });
  },
  opsList(p: { kind?: NewsKind; state?: NewsState; page: number }, signal?: AbortSignal) {
    return api.get('/api/vue/ops/news', { query: { kind: p.kind, state: p.state, page: p.page, size: NEWS_PAGE_SIZE }, signal });
  },
  opsItem(id: string, signal?: AbortSignal) {
    return api.get('/api/vue/ops/news/{id}', { params: { id }, signal });
  },
  draft(body: NewsText & { kind: NewsKind }, idempotencyKey: string) {
    return api.post('/api/vue/ops/news', body, { idempotencyKey });
  },
  edit(id: string, body: NewsText, idempotencyKey: string) {
    return api.post('/api/vue/ops/news/{id}/edit', body, { params: { id }, idempotencyKey });
  },
  schedule(id: string, at: string, idempotencyKey: string) {
    return api.post('/api/vue/ops/news/{id}/schedule', { at }, { params: { id }, idempotencyKey });
  },
  publish(id: string, idempotencyKey: string) {
    return api.post('/api/vue/ops/news/{id}/publish', {}, { params: { id }, idempotencyKey });
  },
  withdraw(id: string, reason: string, idempotencyKey: string) {
    return api.post('/api/vue/ops/news/{id}/withdraw', reason ? { reason } : {}, { params: { id }, idempotencyKey });
  },
};

/** Every news query lives under ['news']: a read or an ops write refreshes them all. */
export const newsKeys = {
  all: ['news'] as const,
  list: (kind: NewsKind) => ['news', 'list', kind] as const,
  item: (id: string) => ['news', 'item', id] as const,
  unread: ['news', 'unread'] as const,
  opsList: (kind: string, state: string) => ['news', 'ops', 'list', kind, state] as const,
  opsItem: (id: string) => ['news', 'ops', 'item', id] as const,
};

/** How often the unread counts are asked again while the app is open. */
const UNREAD_REFRESH_MS = 60_000;

/** The member's unread articles and notices (staff record no reads, so they see no counts). */
export function useNewsUnread() {
  const session = useSession();
  const role = useRole();
  return useQuery({
    queryKey: newsKeys.unread,
    queryFn: ({ signal }) => newsApi.unread(signal),
    enabled: !!session.token && role === 'member',
    refetchInterval: UNREAD_REFRESH_MS,
  });
}

/** The latest published notice, for home. */
export function useLatestNotice() {
  const session = useSession();
  return useQuery({
    queryKey: [...newsKeys.list('notice'), 'latest'],
    queryFn: async ({ signal }) => (await newsApi.items('notice', 1, signal)).items[0] ?? null,
    enabled: !!session.token,
  });
}

/** An item's title in the current language. */
export function useLocalTitle(): <T extends { titleTw: string; titleEn: string }>(it: T) => string {
  const { i18n } = useTranslation();
  return (it) => (i18n.language === 'en' ? it.titleEn : it.titleTw);
}
