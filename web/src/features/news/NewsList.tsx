import { useInfiniteQuery } from '@tanstack/react-query';
import { AppLink } from '@/components/AppLink';
import { ListEmpty, ListLoading, MoreOnScroll } from '@/components/ListState';
import { PullRefresh } from '@/components/PullRefresh';
import { newsApi, newsKeys, useLocalTitle, type NewsKind } from '@/domain/news/api';
import { useNewsT } from '@/domain/news/texts';
import { taipeiTime } from '@/lib/filters';
import { useRole } from '@/lib/user';
import './news.css';

/** The detail screen of each kind (the spec's routes). */
export const DETAIL_PATH: Record<NewsKind, string> = { article: '/home/DetailsPage', notice: '/home/noticeDetail' };

/** The published items of kind, newest first, a member's unread ones marked; pull to refresh, scroll for more. */
export function NewsList({ kind }: { kind: NewsKind }) {
  const t = useNewsT();
  const title = useLocalTitle();
  // Staff record no reads: their lists mark nothing unread.
  const member = useRole() === 'member';
  const q = useInfiniteQuery({
    queryKey: newsKeys.list(kind),
    initialPageParam: 1,
    queryFn: ({ pageParam, signal }) => newsApi.items(kind, pageParam, signal),
    getNextPageParam: (last) => (last.hasMore ? last.page + 1 : undefined),
  });
  const items = q.data?.pages.flatMap((p) => p.items) ?? [];
  return (
    <PullRefresh onRefresh={() => q.refetch()}>
      <div className="news-list" data-testid={`news-list-${kind}`}>
        {q.isPending ? (
          <ListLoading />
        ) : items.length === 0 ? (
          <ListEmpty text={t('empty')} />
        ) : (
          <>
            {items.map((it) => (
              <AppLink key={it.id} to={`${DETAIL_PATH[kind]}?id=${encodeURIComponent(it.id)}`} className="news-row" data-testid={`news-row-${it.id}`}>
                <div className="news-row-title">
                  {member && !it.read && <span className="news-dot" data-testid="news-unread-dot" aria-label={t('unread')} />}
                  <span>{title(it)}</span>
                </div>
                <div className="muted news-row-time">{taipeiTime(it.publishedAt)}</div>
              </AppLink>
            ))}
            <MoreOnScroll q={q} />
          </>
        )}
      </div>
    </PullRefresh>
  );
}
