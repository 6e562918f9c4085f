import { memo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { AppLink } from '@/components/AppLink';
import { currentLang } from '@/lib/i18n';
import { atLimit, displayName, formatBig, formatLots, formatPercent, formatPrice, parseUnits, priceTrend } from '@/domain/market/format';
import type { Quote } from '@/domain/market/types';
import './market.css';

export function detailPath(symbol: string): string {
  return `/market/marketDetail?symbol=${encodeURIComponent(symbol)}`;
}

// The cells of a row take the row's t: one translation hook per row, not one per cell (each hook
// subscribes to i18next and checks its namespaces: on a list's first render that added up).
type T = ReturnType<typeof useTranslation>['t'];

/** The market badge shown beside a code (上市 / 上櫃 in short). */
function marketBadge(t: T, market: Quote['market']) {
  return <span className={`mkt-badge mkt-badge-${market}`}>{t(`market.short.${market}`)}</span>;
}

/** 漲停 / 跌停 beside the code of a stock at its limit. */
function limitTag(t: T, q: Quote) {
  const at = atLimit(q);
  if (!at) return null;
  return (
    <span className={`limit-tag pill-${at}`} data-testid="quote-limit" data-limit={at}>
      {t(at === 'up' ? 'market.atLimitUp' : 'market.atLimitDown')}
    </span>
  );
}

interface StatusProps {
  q: Pick<Quote, 'tradingStatus'>;
  className?: string;
  testId?: string;
}

function statusTag(t: T, { q, className = 'status-tag', testId = 'quote-status' }: StatusProps) {
  if (q.tradingStatus === 'normal') return null;
  return (
    <span className={`${className} status-${q.tradingStatus}`} data-testid={testId} data-status={q.tradingStatus} title={t(`market.statusHint.${q.tradingStatus}`)}>
      {t(`market.status.${q.tradingStatus}`)}
    </span>
  );
}

/**
 * 注意 / 處置 beside the code of a stock the exchange's rule flags today (market/status on the
 * server); its title says what the status means.
 */
export function StatusTag(props: StatusProps) {
  const { t } = useTranslation();
  return statusTag(t, props);
}

/** An extra figure beside the code: the day's volume (lots) or turnover. */
export type RowExtra = 'volume' | 'turnover';

function extra(t: T, q: Quote, kind: RowExtra) {
  if (kind === 'volume') {
    return (
      <span className="qrow-note" data-testid="quote-volume">
        {t('market.lotsValue', { lots: formatLots(q.volume) })}
      </span>
    );
  }
  return (
    <span className="qrow-note" data-testid="quote-turnover">
      {t('market.turnoverValue', { value: formatBig(q.turnover, parseUnits(t('market.units'))) })}
    </span>
  );
}

interface RowProps {
  q: Quote;
  rank?: number;
  extra?: RowExtra;
  link?: boolean;
  onOpen?: () => void;
  testId?: string;
  action?: ReactNode;
}

/**
 * One instrument: name, code, price and change percent in Taiwan colours (red up, green down).
 * Memoised: a live update re-renders only the rows whose quote object changed.
 */
export const QuoteRow = memo(function QuoteRow(props: RowProps) {
  const { t } = useTranslation();
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
          {marketBadge(t, q.market)}
          <span data-testid="quote-code">{q.symbol}</span>
          {limitTag(t, q)}
          {statusTag(t, { q })}
          {props.extra ? extra(t, q, props.extra) : null}
        </span>
      </span>
      <span className={`qrow-price num ${trend}`} data-testid="quote-price">
        {formatPrice(q.price)}
      </span>
      <span className={`qrow-pct num pill-${trend || 'flat'}`} data-testid="quote-percent">
        {formatPercent(q.changePercent)}
      </span>
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
});

/** The column heads above a quote list. */
export function QuoteHead() {
  const { t } = useTranslation();
  return (
    <div className="qhead">
      <span className="qrow-name">{t('market.col.name')}</span>
      <span className="qrow-price">{t('market.col.price')}</span>
      <span className="qrow-pct-head">{t('market.col.change')}</span>
    </div>
  );
}
