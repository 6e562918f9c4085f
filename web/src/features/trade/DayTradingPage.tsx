import { Button } from 'antd-mobile';
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { ListEmpty, ListLoading } from '@/components/ListState';
import { Page } from '@/components/Page';
import { money } from '@/lib/filters';
import { formatPrice } from '@/domain/market/format';
import { useDayTrading, type TradeOrder, type TradePosition } from './api';
import { useTradeT } from '@/domain/trade/texts';
import { trendClass } from '@/lib/trend';
import { Kv, QtyKv, SecurityName } from './Kv';
import './trade.css';

type Tab = 'transactions' | 'details' | 'applied';
const TABS: Tab[] = ['transactions', 'details', 'applied'];

function OrderRow({ o }: { o: TradeOrder }) {
  const t = useTradeT();
  return (
    <div className="card pos-card" data-testid="day-order" data-order-no={o.orderNo} data-status={o.status}>
      <div className="pos-head">
        <SecurityName name={o.name} symbol={o.symbol} />
        <span className={o.side === 'buy' ? 'up' : 'down'}>{t(o.side)}</span>
      </div>
      <QtyKv shares={o.filled || o.shares} />
      <Kv label={t('price')} value={formatPrice(o.avgPrice)} />
      <Kv label={t('pos.orderNo')} value={o.orderNo} />
      <Kv label={t('pos.type')} value={t(`status.${o.status}`)} />
    </div>
  );
}

function PositionRow({ p }: { p: TradePosition }) {
  const t = useTradeT();
  const open = p.status === 'holding' || p.status === 'closing' || p.status === 'pending';
  const pl = open ? p.unrealisedProfit : p.profit;
  return (
    <div className="card pos-card" data-testid="day-position" data-id={p.id} data-status={p.status}>
      <div className="pos-head">
        <SecurityName name={p.name} symbol={p.symbol} />
        <span className="muted">{t(`status.${p.status}`)}</span>
      </div>
      <QtyKv shares={p.shares} />
      <Kv label={t('pos.entry')} value={formatPrice(p.entryPrice)} />
      <Kv label={open ? t('pos.now') : t('pos.exit')} value={formatPrice(open ? p.price : p.exitPrice)} />
      <Kv label={t('pos.profit')} value={money(pl)} cls={trendClass(pl)} />
    </div>
  );
}

/** Today's day trades: a shortcut to a day-trade order, the summary, transactions, details, applied. */
export default function DayTradingPage() {
  const t = useTradeT();
  const navigate = useNavigate();
  const q = useDayTrading();
  const [symbol, setSymbol] = useState('2330');
  const [tab, setTab] = useState<Tab>('transactions');
  const d = q.data;
  const open = (d?.positions ?? []).filter((p) => p.status === 'holding' || p.status === 'closing' || p.status === 'pending');
  const done = (d?.positions ?? []).filter((p) => p.status === 'closed');
  const rows = tab === 'transactions' ? (d?.orders ?? []).map((o) => <OrderRow key={o.orderNo} o={o} />) : (tab === 'details' ? open : done).map((p) => <PositionRow key={p.id} p={p} />);
  return (
    <Page title={t('day.title')} testId="day-trading-page">
      <div className="card">
        <div className="field-row">
          <label htmlFor="day-symbol">{t('day.symbol')}</label>
          <input id="day-symbol" data-testid="day-symbol" value={symbol} onChange={(e) => setSymbol(e.target.value.trim().toUpperCase())} />
          <Button size="small" color="primary" data-testid="day-submit" disabled={!symbol} onClick={() => navigate(`/market/marketBuy?symbol=${encodeURIComponent(symbol)}&dayTrade=1`)}>
            {t('day.submit')}
          </Button>
        </div>
      </div>
      <div className="card">
        <Kv label={t('day.holding')} value={d ? String(d.holdingShares) : '--'} testId="day-holding" />
        <Kv label={t('day.valuation')} value={d ? money(d.valuation) : '--'} testId="day-valuation" />
        <Kv label={t('day.returnRate')} value={d ? `${d.returnRate} %` : '--'} cls={trendClass(d?.returnRate)} testId="day-return" />
        <Kv label={t('day.profit')} value={d ? money(d.profit) : '--'} cls={trendClass(d?.profit)} testId="day-profit" />
        <Kv label={t('day.committed')} value={d ? money(d.committed) : '--'} testId="day-committed" />
      </div>
      <div className="seg" role="tablist">
        {TABS.map((k) => (
          <button key={k} type="button" role="tab" aria-pressed={tab === k} aria-selected={tab === k} data-testid={`day-tab-${k}`} onClick={() => setTab(k)}>
            {t(`day.${k}`)}
          </button>
        ))}
      </div>
      {q.isPending ? <ListLoading /> : rows.length === 0 ? <ListEmpty text={t('pos.empty')} /> : rows}
    </Page>
  );
}
