import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ListEmpty, ListLoading } from '@/components/ListState';
import { QuoteHead, QuoteRow } from '@/components/market/QuoteRow';
import { LiveNotice } from '@/components/market/LiveNotice';
import { Page } from '@/components/Page';
import { PullRefresh } from '@/components/PullRefresh';
import { useHot } from '@/domain/market/api';
import { useLiveQuotes } from '@/domain/market/live';
import type { MarketKind } from '@/domain/market/types';
import { MarketSwitch } from './MarketSwitch';
import './market-pages.css';

/** Hot stocks: the top 20 by turnover, listed or OTC. */
export default function HotListPage() {
  const { t } = useTranslation();
  const [market, setMarket] = useState<MarketKind>('listed');
  const q = useHot(market);
  const items = q.data ?? [];
  useLiveQuotes(items.map((i) => i.symbol));
  return (
    <Page title={t('market.hotTitle')} testId="hot-page" right={<MarketSwitch value={market} onChange={setMarket} testPrefix="hot" />} className="flush-page">
      <LiveNotice />
      <PullRefresh onRefresh={() => q.refetch()}>
        <div className="quote-list" data-testid="hot-list" data-market={market}>
          <QuoteHead />
          {q.isPending ? (
            <ListLoading />
          ) : items.length === 0 ? (
            <ListEmpty />
          ) : (
            items.map((s, i) => (
              <QuoteRow key={s.symbol} q={s} rank={i + 1} extra="turnover" />
            ))
          )}
        </div>
      </PullRefresh>
    </Page>
  );
}
