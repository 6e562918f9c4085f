import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { AppLink } from '@/components/AppLink';
import { currentLang } from '@/lib/i18n';
import { displayName, formatPercent, formatPrice, priceTrend } from '@/lib/market/format';
import type { Quote } from '@/lib/market/types';
import './market.css';

export function detailPath(symbol: string): string {
  return `/market/marketDetail?symbol=${encodeURIComponent(symbol)}`;
}

/** The market badge shown beside a code: 市 / 櫃 style short labels. */
export function MarketBadge({ market }: { market: Quote['market'] }) {
  const { t } = useTranslation();
  return <span className={`mkt-badge mkt-badge-${market}`}>{t(`market.short.${market}`)}</span>;
}

/** One instrument: name, code, price and change percent in Taiwan colours (red up, green down). */
export function QuoteRow(props: { q: Quote; rank?: number; right?: ReactNode; note?: ReactNode; link?: boolean; onOpen?: () => void; testId?: string; action?: ReactNode }) {
  useTranslation(); // re-render on language change
  const { q } = props;
  const trend = priceTrend(q.price, q.prevClose);
  const body = (
    <>
      {props.rank !== undefined ? <span className="qrow-rank num">{props.rank}</span> : null}
      <span className="qrow-name">
        <span className="qrow-title" data-testid="quote-name">
          {displayName(q, currentLang())}
        </span>
        <span className="qrow-code num">
          <MarketBadge market={q.market} />
          <span data-testid="quote-code">{q.symbol}</span>
          {props.note}
        </span>
      </span>
      <span className={`qrow-price num ${trend}`} data-testid="quote-price">
        {formatPrice(q.price)}
      </span>
      {props.right ?? (
        <span className={`qrow-pct num pill-${trend || 'flat'}`} data-testid="quote-percent">
          {formatPercent(q.changePercent)}
        </span>
      )}
      {props.action}
    </>
  );
  const common = { className: 'qrow', 'data-testid': props.testId ?? 'quote-row', 'data-symbol': q.symbol, 'data-trend': trend || 'flat' };
  if (props.link === false) return <div {...common}>{body}</div>;
  return (
    <AppLink to={detailPath(q.symbol)} {...common} onClick={props.onOpen}>
      {body}
    </AppLink>
  );
}

/** The column heads above a quote list. */
export function QuoteHead({ right }: { right?: ReactNode }) {
  const { t } = useTranslation();
  return (
    <div className="qhead">
      <span className="qrow-name">{t('market.col.name')}</span>
      <span className="qrow-price">{t('market.col.price')}</span>
      <span className="qrow-pct-head">{right ?? t('market.col.change')}</span>
    </div>
  );
}
