import { FireFill, SearchOutline, StarOutline } from 'antd-mobile-icons';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AppLink } from '@/components/AppLink';
import { LiveNotice } from '@/components/market/LiveNotice';
import type { ListTab, MarketKind } from '@/domain/market/types';
import { ListTabs } from './ListTabs';
import { MarketSwitch } from './MarketSwitch';
import { QuoteList } from './QuoteList';
import './market-pages.css';

/** The market tab: All, gainers, losers and volume, for listed or OTC. */
export default function MarketPage() {
  const { t } = useTranslation();
  const [market, setMarket] = useState<MarketKind>('listed');
  const [tab, setTab] = useState<ListTab>('all');
  return (
    <div className="page market-page" data-testid="market-page">
      <LiveNotice />
      <div className="market-top">
        <div className="market-bar">
          <span className="market-title">{t('market.title')}</span>
          <MarketSwitch value={market} onChange={setMarket} />
          <span className="market-actions">
            <AppLink to="/market/stockHot/stockList" aria-label={t('market.hotTitle')} data-testid="market-hot">
              <FireFill />
            </AppLink>
            <AppLink to="/market/favo" aria-label={t('market.favoTitle')} data-testid="market-favo">
              <StarOutline />
            </AppLink>
            <AppLink to="/home/searchIndex" aria-label={t('market.searchTitle')} data-testid="market-search">
              <SearchOutline />
            </AppLink>
          </span>
        </div>
        <ListTabs value={tab} onChange={setTab} testPrefix="market" />
      </div>
      <QuoteList key={`${tab}/${market}`} tab={tab} market={market} type="stock" />
    </div>
  );
}
