import { useInfiniteQuery } from '@tanstack/react-query';
import { Button } from 'antd-mobile';
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { AppLink } from '@/components/AppLink';
import { ListEmpty, ListLoading, MoreOnScroll } from '@/components/ListState';
import { Page } from '@/components/Page';
import { PullRefresh } from '@/components/PullRefresh';
import { newsApi, newsKeys, useLocalTitle, type NewsKind, type NewsState } from '@/domain/news/api';
import { useNewsT } from '@/domain/news/texts';
import { taipeiTime } from '@/lib/filters';
import './news.css';

const KINDS = ['', 'article', 'notice'] as const;
const STATES = ['', 'draft', 'scheduled', 'published', 'withdrawn'] as const;

/** Ops' list of every article and notice, filtered by kind and state, newest first. */
export default function OpsNewsPage() {
  const t = useNewsT();
  const title = useLocalTitle();
  const navigate = useNavigate();
  const [kind, setKind] = useState<(typeof KINDS)[number]>('');
  const [state, setState] = useState<(typeof STATES)[number]>('');
  const q = useInfiniteQuery({
    queryKey: newsKeys.opsList(kind, state),
    initialPageParam: 1,
    queryFn: ({ pageParam, signal }) =>
      newsApi.opsList({ kind: (kind || undefined) as NewsKind | undefined, state: (state || undefined) as NewsState | undefined, page: pageParam }, signal),
    getNextPageParam: (last) => (last.hasMore ? last.page + 1 : undefined),
  });
  const items = q.data?.pages.flatMap((p) => p.items) ?? [];
  return (
    <Page
      title={t('ops.title')}
      testId="ops-news-page"
      right={
        <Button size="mini" color="primary" data-testid="ops-news-create" onClick={() => void navigate('/ops/newsEdit')}>
          {t('ops.create')}
        </Button>
      }
    >
      <div className="news-filter">
        <Filter label={t('ops.kind')} testId="ops-news-kind" values={KINDS} value={kind} onChange={setKind} text={(k) => t(`ops.kinds.${k}`)} />
        <Filter label={t('ops.states.published')} testId="ops-news-state" values={STATES} value={state} onChange={setState} text={(s) => t(`ops.states.${s}`)} />
      </div>
      <PullRefresh onRefresh={() => q.refetch()}>
        <div className="news-list" data-testid="ops-news-list">
          {q.isPending ? (
            <ListLoading />
          ) : items.length === 0 ? (
            <ListEmpty text={t('empty')} />
          ) : (
            <>
              {items.map((it) => (
                <AppLink key={it.id} to={`/ops/newsEdit?id=${encodeURIComponent(it.id)}`} className="news-row" data-testid={`ops-news-row-${it.id}`}>
                  <div className="news-row-title">
                    <span className={`news-state news-state-${it.state}`} data-testid="ops-news-state-badge">
                      {t(`ops.states.${it.state}`)}
                    </span>
                    <span>
                      {t(`ops.kinds.${it.kind}`)} · {title(it)}
                    </span>
                  </div>
                  <div className="muted news-row-time">
                    {it.at ? `${t('ops.at')} ${taipeiTime(it.at)} · ` : ''}
                    {t('ops.updated', { who: it.updatedBy, time: taipeiTime(it.updatedAt) })}
                  </div>
                </AppLink>
              ))}
              <MoreOnScroll q={q} />
            </>
          )}
        </div>
      </PullRefresh>
    </Page>
  );
}

/** One filter of the list: all ('') or the items of one value. */
function Filter<V extends string>(p: { label: string; testId: string; values: readonly V[]; value: V; onChange: (v: V) => void; text: (v: Exclude<V, ''>) => string }) {
  const t = useNewsT();
  return (
    <select aria-label={p.label} data-testid={p.testId} value={p.value} onChange={(e) => p.onChange(e.target.value as V)}>
      {p.values.map((v) => (
        <option key={v} value={v}>
          {v ? p.text(v as Exclude<V, ''>) : t('ops.all')}
        </option>
      ))}
    </select>
  );
}
