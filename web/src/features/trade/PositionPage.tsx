import { Button, Dialog, Tag } from 'antd-mobile';
import { Suspense, useRef, useState } from 'react';
import { AppLink } from '@/components/AppLink';
import { ListEmpty, ListLoading } from '@/components/ListState';
import { Page } from '@/components/Page';
import { useAction } from '@/lib/action';
import { money } from '@/lib/filters';
import { formatPrice } from '@/domain/market/format';
import { usePositionTabs } from '@/lib/positionTabs';
import { toast } from '@/lib/toast';
import { tradeApi, useOrders, usePositions, useTradeChanged, type CloseRequest, type TradeOrder, type TradePosition } from './api';
import { useTradeT } from '@/domain/trade/texts';
import { trendClass } from '@/lib/trend';
import { HoldingsSummary } from './HoldingsSummary';
import { Kv, QtyKv, SecurityName } from './Kv';
import { sizeOf } from './ticket';
import './trade.css';

/** Trade's own tabs and where they sit among those other features declare (lib/positionTabs.ts). */
type Own = 'etf' | 'holdings' | 'terminated' | 'orders';
const OWN: { key: Own; order: number }[] = [
  { key: 'etf', order: 30 },
  { key: 'holdings', order: 40 },
  { key: 'terminated', order: 50 },
  { key: 'orders', order: 70 },
];
const isOwn = (k: string): k is Own => OWN.some((o) => o.key === k);

function Holding({ p, onClose }: { p: TradePosition; onClose: (p: TradePosition) => void }) {
  const t = useTradeT();
  return (
    <div className="card pos-card" data-testid="position" data-id={p.id} data-symbol={p.symbol} data-status={p.status}>
      <AppLink to={`/position/positionDetail?id=${encodeURIComponent(p.id)}`} className="pos-head" style={{ color: 'inherit' }}>
        <SecurityName name={p.name} symbol={p.symbol} />
        <span className={p.direction === 'long' ? 'up' : 'down'}>{t(p.direction)}</span>
      </AppLink>
      <div className="pos-grid">
        <QtyKv shares={p.shares} />
        <Kv label={t('leverage')} value={`${p.leverage}×`} />
        <Kv label={t('pos.entry')} value={formatPrice(p.entryPrice)} />
        <Kv label={t('pos.now')} value={formatPrice(p.price)} testId="position-price" />
        <Kv label={t('pos.marketValue')} value={money(p.marketValue)} />
        <Kv label={t('pos.unrealised')} value={money(p.unrealisedProfit)} cls={trendClass(p.unrealisedProfit)} testId="position-profit" />
      </div>
      <div className="pos-actions">
        <span className="muted">{t(`status.${p.status}`)}</span>
        {p.status === 'holding' ? (
          <Button size="small" color="primary" data-testid="position-close" onClick={() => onClose(p)}>
            {t('pos.close')}
          </Button>
        ) : null}
      </div>
    </div>
  );
}

function Terminated({ p }: { p: TradePosition }) {
  const t = useTradeT();
  return (
    <AppLink to={`/position/positionDetail?id=${encodeURIComponent(p.id)}`} className="card pos-card" data-testid="closed-position" data-id={p.id} data-symbol={p.symbol} data-status={p.status}>
      <div className="pos-head">
        <SecurityName name={p.name} symbol={p.symbol} />
        <span className="muted">{t(`status.${p.status}`)}</span>
      </div>
      <div className="pos-grid">
        <QtyKv shares={p.shares} />
        <Kv label={t(p.direction)} value={`${p.leverage}×`} />
        <Kv label={t('pos.entry')} value={formatPrice(p.entryPrice)} />
        <Kv label={t('pos.exit')} value={formatPrice(p.exitPrice)} />
        <Kv label={t('pos.fee')} value={money(p.fee)} />
        <Kv label={t('pos.tax')} value={money(p.tax)} />
        <Kv label={t('pos.profit')} value={money(p.profit)} cls={trendClass(p.profit)} testId="closed-profit" />
      </div>
    </AppLink>
  );
}

function Order({ o, onCancel }: { o: TradeOrder; onCancel: (o: TradeOrder) => void }) {
  const t = useTradeT();
  const working = o.status === 'pending' || o.status === 'partial';
  return (
    <div className="card pos-card" data-testid="order" data-order-no={o.orderNo} data-status={o.status}>
      <div className="pos-head">
        <SecurityName name={o.name} symbol={o.symbol} />
        <span className={o.side === 'buy' ? 'up' : 'down'}>{t(o.side)}</span>
      </div>
      {o.origin ? (
        <Tag color="primary" fill="outline" className="order-origin" data-testid="order-origin" data-origin={o.origin}>
          {t('pos.copiedFrom')} <span data-text="data">{o.originName}</span>
        </Tag>
      ) : null}
      <div className="muted order-ticket" data-testid="order-ticket" data-condition={o.condition} data-session={o.session} data-tif={o.timeInForce}>
        {`${t(`tk.cond.${o.condition}`)} · ${t(`tk.sess.${o.session}`)} · ${o.timeInForce}`}
      </div>
      <div className="pos-grid">
        <QtyKv shares={o.shares} />
        <Kv label={t(o.type)} value={formatPrice(o.price)} />
        <Kv label={t('pos.orderNo')} value={o.orderNo} />
        <Kv label={t('status.filled')} value={String(o.filled)} />
      </div>
      <div className="pos-actions">
        <span className="muted" data-testid="order-status">
          {t(`status.${o.status}`)}
        </span>
        {working && o.intent === 'open' ? (
          <Button size="small" data-testid="order-cancel" onClick={() => onCancel(o)}>
            {t('pos.cancel')}
          </Button>
        ) : null}
      </div>
    </div>
  );
}

/** A tab another feature declared: its list, loaded with it. */
function DeclaredTab({ tab, tabs }: { tab: string; tabs: ReturnType<typeof usePositionTabs> }) {
  const found = tabs.find((d) => d.key === tab);
  if (!found) return null;
  const { Component } = found;
  return (
    <Suspense fallback={<ListLoading />}>
      <Component />
    </Suspense>
  );
}

/**
 * Positions: the spec's tabs in its order — chip bidding, auction (declared by their features),
 * ETF (holdings that are ETFs), holdings (live profit), terminated, placement (declared), orders.
 */
export default function PositionPage() {
  const t = useTradeT();
  const declared = usePositionTabs();
  const tabs = [...OWN.map((o) => ({ ...o, text: t(`pos.${o.key}`) })), ...declared].sort((a, b) => a.order - b.order);
  const [tab, setTab] = useState<string>('holdings');
  // Holdings are shares held; an order that has not filled yet is listed under orders only.
  const holdings = usePositions('holding', tab === 'holdings' || tab === 'etf');
  const orders = useOrders('working');
  const closed = usePositions('closed');
  const changed = useTradeChanged();
  const qtyRef = useRef<HTMLInputElement | null>(null);

  const cancel = useAction((orderNo: string, key: string) => tradeApi.cancel(orderNo, key), {
    onSuccess: () => {
      changed();
      toast.show(t('status.cancelled'));
    },
  });
  const close = useAction((v: { id: string; body: CloseRequest }, key: string) => tradeApi.close(v.id, v.body, key), {
    onSuccess: (r) => {
      changed();
      toast.show(t('placed', { status: t(`status.${r.status}`) }));
    },
  });

  const askCancel = (o: TradeOrder) =>
    void Dialog.confirm({ content: t('pos.cancelConfirm', { orderNo: o.orderNo }), confirmText: t('pos.cancel'), onConfirm: () => cancel.run(o.orderNo) });
  const askClose = (p: TradePosition) => {
    const size = sizeOf(p.shares - p.closingShares);
    void Dialog.confirm({
      title: t('pos.closeTitle', { name: p.name }),
      content: (
        <div className="field-row">
          <label htmlFor="close-qty">{`${t('pos.closeQty')} (${t(size.unit)})`}</label>
          <input id="close-qty" data-testid="close-qty" ref={qtyRef} inputMode="numeric" defaultValue={String(size.n)} />
        </div>
      ),
      confirmText: t('pos.close'),
      onConfirm: () => {
        const n = Number(qtyRef.current?.value ?? size.n);
        const body: CloseRequest = { type: 'market' };
        // Everything left: neither lots nor shares closes it all.
        if (Number.isInteger(n) && n > 0 && n < size.n) body[size.unit] = n;
        close.run({ id: p.id, body });
      },
    });
  };

  const list = (loading: boolean, rows: React.ReactNode[]) => (loading ? <ListLoading /> : rows.length === 0 ? <ListEmpty text={t('pos.empty')} /> : rows);
  const own = (k: Own) => {
    switch (k) {
      case 'holdings':
        return (
          <>
            <HoldingsSummary />
            {list(holdings.isPending, (holdings.data?.items ?? []).map((p) => <Holding key={p.id} p={p} onClose={askClose} />))}
          </>
        );
      case 'etf':
        return list(
          holdings.isPending,
          (holdings.data?.items ?? []).filter((p) => p.instrumentType !== 'stock').map((p) => <Holding key={p.id} p={p} onClose={askClose} />),
        );
      case 'orders':
        return list(orders.isPending, (orders.data?.items ?? []).map((o) => <Order key={o.orderNo} o={o} onCancel={askCancel} />));
      case 'terminated':
        return list(closed.isPending, (closed.data?.items ?? []).map((p) => <Terminated key={p.id} p={p} />));
    }
  };
  return (
    <Page
      title={t('pos.title')}
      back={false}
      testId="position-page"
      right={
        <span className="pos-links">
          <AppLink to="/common/dayTrading" data-testid="to-day-trading">
            {t('day.title')}
          </AppLink>{' '}
          <AppLink to="/trade/notices" data-testid="to-notices">
            {t('notice.title')}
          </AppLink>
        </span>
      }
    >
      <div className="seg pos-tabs" role="tablist">
        {tabs.map(({ key, text }) => (
          <button key={key} type="button" role="tab" aria-pressed={tab === key} aria-selected={tab === key} data-testid={`pos-tab-${key}`} onClick={() => setTab(key)}>
            {text}
          </button>
        ))}
      </div>
      <div data-testid={`pos-list-${tab}`}>{isOwn(tab) ? own(tab) : <DeclaredTab tab={tab} tabs={declared} />}</div>
    </Page>
  );
}
