import { useRef } from 'react';
import { ListEmpty, ListLoading, MoreOnScroll } from '@/components/ListState';
import { QuoteHead, QuoteRow } from '@/components/market/QuoteRow';
import { PullRefresh } from '@/components/PullRefresh';
import { useMarketList } from '@/lib/market/api';
import { useLiveQuotes } from '@/lib/market/live';
import { useVisibleSymbols } from '@/lib/market/visible';
import type { ListTab, MarketKind } from '@/lib/market/types';

/** A market list page by page (infinite scroll), pull to refresh, the rows on screen live. */
export function QuoteList({ tab, market, type }: { tab: ListTab; market: MarketKind; type: 'stock' | 'etf' }) {
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
            <MoreOnScroll q={q} />
          </>
        )}
      </div>
    </PullRefresh>
  );
}
