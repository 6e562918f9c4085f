import { useTranslation } from 'react-i18next';
import { AppLink } from '@/components/AppLink';
import { currentLang } from '@/lib/i18n';
import { displayName, formatChange, formatPercent, formatPrice, priceTrend } from '@/domain/market/format';
import type { Quote } from '@/domain/market/types';
import { detailPath } from './QuoteRow';
import './market.css';

/** The two indices (TAIEX, TPEX), each a card linking to its detail. */
export function IndexCards({ items, loading }: { items: Quote[] | undefined; loading: boolean }) {
  useTranslation();
  const list = items ?? [];
  return (
    <div className="index-cards" data-testid="index-cards">
      {loading && list.length === 0
        ? [0, 1].map((i) => <div key={i} className="index-card index-card-empty" />)
        : list.map((q) => {
            const trend = priceTrend(q.price, q.prevClose);
            return (
              <AppLink key={q.symbol} to={detailPath(q.symbol)} className={`index-card ${trend}`} data-testid={`index-${q.symbol}`} data-trend={trend || 'flat'}>
                <div className="index-name" data-testid="quote-name">
                  {displayName(q, currentLang())}
                </div>
                <div className="index-value num" data-testid="index-value">
                  {formatPrice(q.price)}
                </div>
                <div className="index-change num">
                  <span>{formatChange(q.change)}</span>
                  <span>{formatPercent(q.changePercent)}</span>
                </div>
              </AppLink>
            );
          })}
    </div>
  );
}
