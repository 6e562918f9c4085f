import { money } from '@/lib/filters';
import { useTradeT } from '@/domain/trade/texts';
import { trendClass } from '@/lib/trend';
import { useHoldingsSummary } from './api';

const signed = (v: string) => (Number(v) > 0 ? `+${v}` : v);

/** The 庫存 summary above the holdings: market value, cost, today's and the total unrealised profit, red up and green down. */
export function HoldingsSummary() {
  const t = useTradeT();
  const q = useHoldingsSummary();
  const s = q.data;
  if (!s) return null;
  return (
    <div className="card pos-summary" data-testid="holdings-summary">
      <div className="pos-summary-title">{t('pos.summary.title')}</div>
      <div className="pos-summary-grid">
        <div>
          <div className="muted">{t('pos.summary.marketValue')}</div>
          <div className="num pos-summary-big" data-testid="summary-market-value">
            {money(s.marketValue)}
          </div>
        </div>
        <div>
          <div className="muted">{t('pos.summary.cost')}</div>
          <div className="num pos-summary-big" data-testid="summary-cost">
            {money(s.cost)}
          </div>
        </div>
        <div>
          <div className="muted">{t('pos.summary.today')}</div>
          <div className={`num pos-summary-big ${trendClass(s.todayProfit)}`} data-testid="summary-today">
            {signed(money(s.todayProfit))}
          </div>
          <div className={`num ${trendClass(s.todayPercent)}`} data-testid="summary-today-pct">
            {signed(s.todayPercent)}%
          </div>
        </div>
        <div>
          <div className="muted">{t('pos.summary.total')}</div>
          <div className={`num pos-summary-big ${trendClass(s.totalProfit)}`} data-testid="summary-total">
            {signed(money(s.totalProfit))}
          </div>
          <div className={`num ${trendClass(s.totalPercent)}`} data-testid="summary-total-pct">
            {signed(s.totalPercent)}%
          </div>
        </div>
      </div>
    </div>
  );
}
