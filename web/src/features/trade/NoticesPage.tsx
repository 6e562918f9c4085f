import { ListEmpty, ListLoading } from '@/components/ListState';
import { Page } from '@/components/Page';
import { taipeiTime } from '@/lib/filters';
import { useNotices } from './api';
import { scaled, unscaled } from './rules';
import { useTradeT, type TradeKey } from '@/domain/trade/texts';
import './trade.css';

/** A ratio as a percent: 1.3 → 130.00 %. */
const pct = (v: string) => `${unscaled(scaled(v, 4) ?? 0n, 2)} %`;

/** Margin calls, calls met and forced closes, with the account's maintenance ratio now. */
export default function NoticesPage() {
  const t = useTradeT();
  const q = useNotices();
  const d = q.data;
  return (
    <Page title={t('notice.title')} testId="notices-page">
      <div className="card">
        <div className="kv">
          <span>{t('notice.ratio')}</span>
          <span className="num" data-testid="notice-ratio">
            {d?.ratio ? pct(d.ratio) : t('notice.none')}
          </span>
        </div>
      </div>
      {q.isPending ? (
        <ListLoading />
      ) : !d || d.items.length === 0 ? (
        <ListEmpty text={t('pos.empty')} />
      ) : (
        d.items.map((n) => (
          <div key={n.id} className="card pos-card" data-testid="notice" data-type={n.type}>
            <div className="pos-head">
              <span className={n.type === 'margin_call_met' ? 'down' : 'up'}>{t(`notice.${n.type}`)}</span>
              <span className="muted num">{taipeiTime(n.createdAt)}</span>
            </div>
            <div className="kv">
              <span>{t('notice.ratio')}</span>
              <span className="num">{pct(n.ratio)}</span>
            </div>
            {n.deadline ? (
              <div className="kv">
                <span>{t('notice.deadline')}</span>
                <span className="num">{n.deadline}</span>
              </div>
            ) : null}
            {n.reason ? <div className="muted">{t(`notice.reason.${n.reason}` as TradeKey)}</div> : null}
          </div>
        ))
      )}
    </Page>
  );
}
