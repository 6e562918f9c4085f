import { InfiniteScroll } from 'antd-mobile';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { ListEmpty, ListLoading } from '@/components/ListState';
import { QuoteHead, QuoteRow } from '@/components/market/QuoteRow';
import { PullRefresh } from '@/components/PullRefresh';
import { useMarketList } from '@/lib/market/api';
import { useLiveQuotes } from '@/lib/market/live';
import { useVisibleSymbols } from '@/lib/market/visible';
import type { ListTab, MarketKind } from '@/lib/market/types';

/** A market list page by page (infinite scroll), pull to refresh, the rows on screen live. */
export function QuoteList({ tab, market, type }: { tab: ListTab; market: MarketKind; type: 'stock' | 'etf' }) {
  const { t } = useTranslation();
  const q = useMarketList(tab, market, type);
  const items = q.data?.pages.flatMap((p) => p.items) ?? [];
  const box = useRef<HTMLDivElement>(null);
  // Only the rows on screen are live: a list scrolled through many pages stays cheap.
  useLiveQuotes(useVisibleSymbols(box, `${items.length}/${items[0]?.symbol ?? ''}`));
  return (
    <PullRefresh onRefresh={() => q.refetch()}>
      <div ref={box} className="quote-list" data-testid={`quote-list-${tab}`} data-market={market}>
        <QuoteHead />
        {q.isPending ? (
          <ListLoading />
        ) : items.length === 0 ? (
          <ListEmpty />
        ) : (
          <>
            {items.map((s) => (
              <QuoteRow key={s.symbol} q={s} extra={tab === 'volume' ? 'volume' : undefined} />
            ))}
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
          </>
        )}
      </div>
    </PullRefresh>
  );
}
