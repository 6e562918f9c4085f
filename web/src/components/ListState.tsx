import { ErrorBlock, InfiniteScroll } from 'antd-mobile';
import { useTranslation } from 'react-i18next';

/**
 * The loading and empty states every list shows, with fixed heights so nothing jumps. Loading is
 * a skeleton of rows (issue 14 item 6): the list's place is drawn while its data is on the way.
 */
export function ListLoading({ testId = 'list-loading' }: { testId?: string }) {
  const { t } = useTranslation();
  return (
    <div className="list-state list-skeleton" data-testid={testId} role="status">
      {[0, 1, 2, 3, 4].map((i) => (
        <i key={i} aria-hidden />
      ))}
      <span>{t('common.loading')}</span>
    </div>
  );
}

export function ListEmpty({ text, testId = 'list-empty' }: { text?: string; testId?: string }) {
  const { t } = useTranslation();
  return (
    <div className="list-state" data-testid={testId}>
      <ErrorBlock status="empty" title={text ?? t('common.empty')} description="" />
    </div>
  );
}

/** The paging part of an infinite query that MoreOnScroll drives. */
export interface Pages {
  hasNextPage: boolean;
  fetchNextPage: (o: { throwOnError: true }) => Promise<unknown>;
}

/** Loads the next page when the end of a list scrolls into view, with a translated footer. */
export function MoreOnScroll({ q }: { q: Pages }) {
  const { t } = useTranslation();
  return (
    <InfiniteScroll
      hasMore={q.hasNextPage}
      loadMore={async () => {
        await q.fetchNextPage({ throwOnError: true });
      }}
    >
      {(hasMore, failed, retry) =>
        failed ? (
          <span onClick={() => void retry()}>{t('common.retry')}</span>
        ) : hasMore ? (
          <span>{t('common.loading')}</span>
        ) : (
          <span>{t('common.noMore')}</span>
        )
      }
    </InfiniteScroll>
  );
}

/**
 * A list's rows, or its loading or empty state: what a tab of records shows (e.g. a feature's
 * tab on the positions screen).
 */
export function RecordRows<T>({ pending, items, empty, testId, row }: { pending: boolean; items: readonly T[]; empty: string; testId?: string; row: (item: T) => React.ReactNode }) {
  if (pending) return <ListLoading />;
  if (items.length === 0) return <ListEmpty text={empty} />;
  return <div data-testid={testId}>{items.map(row)}</div>;
}
