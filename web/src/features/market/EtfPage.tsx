import { Tabs } from 'antd-mobile';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LiveNotice } from '@/components/market/LiveNotice';
import { Page } from '@/components/Page';
import { LIST_TABS, type ListTab, type MarketKind } from '@/domain/market/types';
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
      <Tabs activeKey={tab} onChange={(k) => setTab(k as ListTab)} className="market-tabs">
        {LIST_TABS.map((k) => (
          <Tabs.Tab key={k} title={<span data-testid={`etf-tab-${k}`}>{t(`market.tabs.${k}`)}</span>} />
        ))}
      </Tabs>
      <QuoteList key={`${tab}/${market}`} tab={tab} market={market} type="etf" />
    </Page>
  );
}
