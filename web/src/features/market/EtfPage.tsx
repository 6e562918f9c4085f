import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LiveNotice } from '@/components/market/LiveNotice';
import { Page } from '@/components/Page';
import type { ListTab, MarketKind } from '@/domain/market/types';
import { ListTabs } from './ListTabs';
import { MarketSwitch } from './MarketSwitch';
import { QuoteList } from './QuoteList';
import './market-pages.css';

/** ETFs (type=etf), listed or OTC, with the market list's tabs. */
export default function EtfPage() {
  const { t } = useTranslation();
  const [market, setMarket] = useState<MarketKind>('listed');
  const [tab, setTab] = useState<ListTab>('all');
  return (
    <Page title={t('market.etfTitle')} testId="etf-page" right={<MarketSwitch value={market} onChange={setMarket} testPrefix="etf" />} className="flush-page">
      <LiveNotice />
      <ListTabs value={tab} onChange={setTab} testPrefix="etf" />
      <QuoteList key={`${tab}/${market}`} tab={tab} market={market} type="etf" />
    </Page>
  );
}
