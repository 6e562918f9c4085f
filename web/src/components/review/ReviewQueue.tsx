import { useInfiniteQuery, useQueryClient } from '@tanstack/react-query';
import { Tabs } from 'antd-mobile';
import { Fragment, useState, type ReactNode } from 'react';
import { ListEmpty, ListLoading, MoreOnScroll } from '@/components/ListState';
import { Page } from '@/components/Page';
import { PullRefresh } from '@/components/PullRefresh';

/** A labelled row of a review card. */
export function Field({ label, children, testId }: { label: string; children: ReactNode; testId?: string }) {
  return (
    <div className="record-row">
      <span className="muted">{label}</span>
      <span data-testid={testId}>{children}</span>
    </div>
  );
}

type ReviewPageProps<S extends string, T> = {
  title: string;
  /** The links between the review screens, above the tabs. */
  nav: ReactNode;
  testId: string;
  /** The status tabs, the first one open at start. */
  statuses: readonly [S, ...S[]];
  statusLabel: (status: S) => string;
  /** Tab test ids are `${tabTestId}-${status}`, the list's `${queueTestId}-${status}`. */
  tabTestId: string;
  queueTestId: string;
  /** Query keys are ['ops', queryName, status]; a review refreshes every status. */
  queryName: string;
  fetchPage: (status: S, page: number, signal: AbortSignal) => Promise<{ items: T[]; page: number; hasMore: boolean }>;
  itemKey: (item: T) => string;
  /** onDone refreshes the queues after an approve or reject. */
  renderItem: (item: T, onDone: () => void) => ReactNode;
};

function Queue<S extends string, T>({ p, status }: { p: ReviewPageProps<S, T>; status: S }) {
  const qc = useQueryClient();
  const q = useInfiniteQuery({
    queryKey: ['ops', p.queryName, status],
    initialPageParam: 1,
    queryFn: ({ pageParam, signal }) => p.fetchPage(status, pageParam, signal),
    getNextPageParam: (last) => (last.hasMore ? last.page + 1 : undefined),
  });
  const items = q.data?.pages.flatMap((pg) => pg.items) ?? [];
  const refreshAll = () => void qc.invalidateQueries({ queryKey: ['ops', p.queryName] });
  return (
    <PullRefresh onRefresh={() => q.refetch()}>
      <div className="record-list" data-testid={`${p.queueTestId}-${status}`}>
        {q.isPending ? (
          <ListLoading />
        ) : items.length === 0 ? (
          <ListEmpty />
        ) : (
          <>
            {items.map((it) => (
              <Fragment key={p.itemKey(it)}>{p.renderItem(it, refreshAll)}</Fragment>
            ))}
            <MoreOnScroll q={q} />
          </>
        )}
      </div>
    </PullRefresh>
  );
}

/** An ops review screen: status tabs over a queue with pull-to-refresh and infinite scroll. */
export function ReviewPage<S extends string, T>(p: ReviewPageProps<S, T>) {
  const [status, setStatus] = useState<S>(p.statuses[0]);
  return (
    <Page title={p.title} testId={p.testId}>
      {p.nav}
      <Tabs activeKey={status} onChange={(k) => setStatus(k as S)} className="record-tabs">
        {p.statuses.map((s) => (
          <Tabs.Tab key={s} title={<span data-testid={`${p.tabTestId}-${s}`}>{p.statusLabel(s)}</span>} />
        ))}
      </Tabs>
      <Queue key={status} p={p} status={status} />
    </Page>
  );
}
