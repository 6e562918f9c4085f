import { Fragment, type ReactNode } from 'react';
import { ListEmpty, ListLoading, MoreOnScroll, type Pages } from './ListState';
import { Page } from './Page';
import { PullRefresh } from './PullRefresh';

/**
 * A screen that is one refreshable list of record cards: the top bar (with an optional link on the
 * right), the loading and empty states, and, given the query's pages, loading more on scroll.
 */
export function RecordScreen<T>(p: {
  title: string;
  testId: string;
  listTestId: string;
  right?: ReactNode;
  pending: boolean;
  items: readonly T[];
  emptyText: string;
  onRefresh: () => Promise<unknown>;
  itemKey: (item: T) => string;
  render: (item: T) => ReactNode;
  pages?: Pages;
}) {
  return (
    <Page title={p.title} testId={p.testId} right={p.right}>
      <PullRefresh onRefresh={p.onRefresh}>
        <div className="record-list" data-testid={p.listTestId}>
          {p.pending ? (
            <ListLoading />
          ) : p.items.length === 0 ? (
            <ListEmpty text={p.emptyText} />
          ) : (
            <>
              {p.items.map((it) => (
                <Fragment key={p.itemKey(it)}>{p.render(it)}</Fragment>
              ))}
              {p.pages ? <MoreOnScroll q={p.pages} /> : null}
            </>
          )}
        </div>
      </PullRefresh>
    </Page>
  );
}

/** An infinite query of a list's pages, each with its items, as PagedRecordScreen reads it. */
export interface PagedQuery<T> extends Pages {
  isPending: boolean;
  data?: { pages: readonly { items: readonly T[] }[] };
  refetch: () => Promise<unknown>;
}

/** A RecordScreen over a paged query: its items page after page, refreshed and loaded on scroll. */
export function PagedRecordScreen<T>(p: {
  title: string;
  testId: string;
  listTestId: string;
  right?: ReactNode;
  query: PagedQuery<T>;
  emptyText: string;
  itemKey: (item: T) => string;
  render: (item: T) => ReactNode;
}) {
  const { query: q, ...rest } = p;
  return (
    <RecordScreen
      {...rest}
      pending={q.isPending}
      items={q.data?.pages.flatMap((page) => page.items) ?? []}
      onRefresh={() => q.refetch()}
      pages={q}
    />
  );
}

/** One labelled figure of a record card; testId marks the figure. */
export function RecordLine({ label, children, testId }: { label: string; children: ReactNode; testId?: string }) {
  return (
    <div className="record-row muted">
      <span>{label}</span>
      <span className="num" data-testid={testId}>
        {children}
      </span>
    </div>
  );
}
