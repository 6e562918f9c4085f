import { Button, SearchBar } from 'antd-mobile';
import { useState } from 'react';
import { AppLink } from '@/components/AppLink';
import { ListEmpty, ListLoading } from '@/components/ListState';
import { Page } from '@/components/Page';
import { useSearch } from '@/domain/market/api';
import { displayName } from '@/domain/market/format';
import { money } from '@/lib/filters';
import { currentLang } from '@/lib/i18n';
import { useOrders, usePositions } from './api';
import { Kv } from './Kv';
import { holdingsSummary, taipeiDate, todays } from './hub/summary';
import { type HubKey, useHubT } from './hub/texts';
import './trade.css';
import './hub/hub.css';

const ticket = (symbol: string, side: 'buy' | 'sell') => `/market/marketBuy?symbol=${encodeURIComponent(symbol)}&side=${side}`;
const trend = (v: string) => (v.startsWith('-') ? 'down' : /^[0.]+$/.test(v) ? '' : 'up');

/** The trade tab: find a stock and open the order ticket, today's orders and fills, the holdings in sum. */
export default function TradingHubPage() {
  const t = useHubT();
  const [text, setText] = useState('');
  const term = text.trim();
  const results = useSearch(term);
  const orders = useOrders('all');
  const held = usePositions('holding', true);
  const day = todays(orders.data?.items ?? [], taipeiDate(new Date()));
  const sum = holdingsSummary(held.data?.items ?? []);
  const lang = currentLang();

  return (
    <Page title={t('title')} back={false} testId="trading-hub-page">
      <div className="card">
        <SearchBar placeholder={t('search')} value={text} onChange={setText} data-testid="hub-search" />
        {term !== '' && (
          <div data-testid="hub-results">
            {results.isPending ? (
              <ListLoading />
            ) : (results.data ?? []).length === 0 ? (
              <ListEmpty text={t('searchEmpty')} />
            ) : (
              (results.data ?? []).slice(0, 8).map((q) => (
                <div key={q.symbol} className="hub-result" data-testid="hub-result" data-symbol={q.symbol}>
                  <span className="hub-result-name">
                    <span data-testid="quote-name">{displayName(q, lang)}</span> <span className="muted num">{q.symbol}</span>
                  </span>
                  <AppLink to={ticket(q.symbol, 'buy')} data-testid="hub-buy">
                    <Button size="mini" color="danger">
                      {t('buy')}
                    </Button>
                  </AppLink>
                  <AppLink to={ticket(q.symbol, 'sell')} data-testid="hub-sell">
                    <Button size="mini" color="success">
                      {t('sell')}
                    </Button>
                  </AppLink>
                </div>
              ))
            )}
          </div>
        )}
      </div>

      <div className="card" data-testid="hub-holdings">
        <div className="pos-head">
          <strong>{t('holdings')}</strong>
          <AppLink to="/position/position" data-testid="hub-to-positions">
            {t('toPositions')} ›
          </AppLink>
        </div>
        <Kv label={t('holdingCount')} value={String(sum.count)} testId="hub-holding-count" />
        <Kv label={t('marketValue')} value={money(sum.marketValue)} testId="hub-market-value" />
        <Kv label={t('unrealised')} value={money(sum.unrealised)} cls={trend(sum.unrealised)} testId="hub-unrealised" />
      </div>

      <div className="card" data-testid="hub-orders">
        <strong>{t('todayOrders')}</strong>
        {orders.isPending ? (
          <ListLoading />
        ) : day.orders.length === 0 ? (
          <ListEmpty text={t('noOrders')} />
        ) : (
          day.orders.map((o) => (
            <div key={o.orderNo} className="kv" data-testid="hub-order" data-order-no={o.orderNo} data-status={o.status}>
              <span className="hub-order-name">
                <span data-testid="quote-name">{o.name || o.symbol}</span> {t('orderLine', { side: t(`side.${o.side}` as HubKey), shares: o.shares, price: o.type === 'market' ? '—' : o.price })}
              </span>
              <span>{t(`status.${o.status}` as HubKey)}</span>
            </div>
          ))
        )}
      </div>

      <div className="card" data-testid="hub-fills">
        <strong>{t('todayFills')}</strong>
        {orders.isPending ? (
          <ListLoading />
        ) : day.fills.length === 0 ? (
          <ListEmpty text={t('noFills')} />
        ) : (
          day.fills.map((o) => (
            <div key={o.orderNo} className="hub-fill" data-testid="hub-fill" data-order-no={o.orderNo}>
              <div className="pos-head">
                <span>
                  <span data-testid="quote-name">{o.name || o.symbol}</span> · {t(`side.${o.side}` as HubKey)}
                </span>
                <span className="muted">{t('filledAt', { shares: o.filled, price: o.avgPrice })}</span>
              </div>
              <Kv label={t('amount')} value={money(o.amount)} testId="hub-fill-amount" />
              <Kv label={t('fee')} value={money(o.commission)} testId="hub-fill-fee" />
              <Kv label={t('tax')} value={money(o.tax)} testId="hub-fill-tax" />
            </div>
          ))
        )}
      </div>
    </Page>
  );
}
