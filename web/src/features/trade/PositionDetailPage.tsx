import { Button } from 'antd-mobile';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { ListEmpty, ListLoading } from '@/components/ListState';
import { Page } from '@/components/Page';
import { money, taipeiTime } from '@/lib/filters';
import { formatPrice } from '@/domain/market/format';
import { useNotices, usePosition } from './api';
import { useTradeT } from '@/domain/trade/texts';
import { trendClass } from '@/lib/trend';
import { Kv } from './Kv';
import { sizeOf } from './ticket';
import './trade.css';

/** One position: /position/positionDetail?id= */
export default function PositionDetailPage() {
  const t = useTradeT();
  const [params] = useSearchParams();
  const id = params.get('id') ?? '';
  const q = usePosition(id);
  const notices = useNotices();
  const navigate = useNavigate();
  const p = q.data?.position;
  if (!p) {
    return (
      <Page title={t('pos.detail')} testId="position-detail-page">
        {q.isPending && id ? <ListLoading /> : <ListEmpty text={t('pos.empty')} />}
      </Page>
    );
  }
  const size = sizeOf(p.shares);
  const open = p.status === 'holding' || p.status === 'closing' || p.status === 'pending';
  const pl = open ? p.unrealisedProfit : p.profit;
  // A margin position (financed long or short) holding shares may take additional credit margin;
  // under a margin call the way there is the screen's first action.
  const margined = p.shares > 0 && (p.direction === 'short' || Number(p.loan) > 0);
  const called = notices.data?.items[0]?.type === 'margin_call';
  return (
    <Page title={t('pos.detail')} testId="position-detail-page">
      <div className="card" data-status={p.status}>
        <div className="pos-head">
          <span>
            <span data-testid="quote-name">{p.name}</span> <span className="muted num">{p.symbol}</span>
          </span>
          <span data-testid="pd-status">{t(`status.${p.status}`)}</span>
        </div>
        <Kv label={t('pos.orderNo')} value={p.orderNo} testId="pd-order-no" />
        <Kv label={t('pos.type')} value={`${t(p.direction)}${p.dayTrade ? ` · ${t('dayTrade')}` : ''}`} testId="pd-type" />
        <Kv label={t('pos.qty')} value={`${size.n} ${t(size.unit)}`} testId="pd-qty" />
        <Kv label={t('leverage')} value={`${p.leverage}×`} testId="pd-leverage" />
        <Kv label={t('pos.entry')} value={formatPrice(p.entryPrice)} testId="pd-entry" />
        <Kv label={t('pos.openedAt')} value={taipeiTime(p.openedAt)} testId="pd-opened" />
        <Kv label={t('pos.exit')} value={formatPrice(p.exitPrice)} testId="pd-exit" />
        <Kv label={t('pos.closedAt')} value={taipeiTime(p.closedAt)} testId="pd-closed" />
        <Kv label={t('pos.now')} value={formatPrice(p.price)} testId="pd-price" />
        <Kv label={t('pos.marketValue')} value={money(p.marketValue)} testId="pd-market-value" />
        <Kv label={t('pos.fee')} value={money(p.fee)} testId="pd-fee" />
        <Kv label={t('pos.tax')} value={money(p.tax)} testId="pd-tax" />
        <Kv label={t('pos.margin')} value={money(p.margin)} testId="pd-margin" />
        {p.loan !== '0' && p.loan !== '0.00' ? <Kv label={t('est.loan')} value={money(p.loan)} testId="pd-loan" /> : null}
        <Kv label={t(open ? 'pos.unrealised' : 'pos.profit')} value={money(pl)} cls={trendClass(pl)} testId="pd-profit" />
      </div>
      {(q.data?.orders ?? []).map((o) => (
        <div className="card" key={o.orderNo} data-testid="pd-order" data-order-no={o.orderNo} data-status={o.status}>
          <Kv label={t(o.side)} value={`${t(`tk.cond.${o.condition}`)} · ${t(`tk.sess.${o.session}`)} · ${o.timeInForce}`} testId="pd-order-ticket" />
          <Kv label={t(`status.${o.status}`)} value={`${o.filled} / ${o.shares}`} testId="pd-order-filled" />
        </div>
      ))}
      {margined ? (
        <div className="card" data-testid="pd-margin-call" data-called={called ? '1' : '0'}>
          {called ? <div className="up">{t('notice.margin_call')}</div> : null}
          <Button
            block
            shape="rounded"
            color={called ? 'danger' : 'default'}
            onClick={() => void navigate(`/trade/topUp?id=${encodeURIComponent(id)}`)}
            data-testid="pd-top-up"
          >
            {t('topUp.open')}
          </Button>
        </div>
      ) : null}
    </Page>
  );
}
