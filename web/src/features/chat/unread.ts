import { useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api/client';

/** The query key of the member's unread count (under chat's, so chat's invalidations reach it). */
export const unreadKey = ['chat', 'unread'] as const;

/** How often the badge looks again while a page with it is up. */
const UNREAD_EVERY_MS = 30_000;

/**
 * The member's unread answers from customer service, for the badges on chat's entries: the
 * conversation read past its last message (the count without any message), no socket and
 * nothing of the chat screen, so home and mine stay light.
 */
export function useChatUnread(): number | undefined {
  const q = useQuery({
    queryKey: unreadKey,
    queryFn: ({ signal }) => api.get('/api/vue/chat', { query: { after: Number.MAX_SAFE_INTEGER }, signal }),
    staleTime: 0,
    refetchInterval: UNREAD_EVERY_MS,
  });
  return q.data?.memberUnread;
}
