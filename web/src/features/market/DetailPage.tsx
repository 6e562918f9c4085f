import { Button } from 'antd-mobile';
import { StarFill, StarOutline } from 'antd-mobile-icons';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { ListEmpty, ListLoading } from '@/components/ListState';
import { LiveNotice } from '@/components/market/LiveNotice';
import { Page } from '@/components/Page';
import { currentLang } from '@/lib/i18n';
import { useCanFavorite, useQuote } from '@/domain/market/api';
import { displayName, formatBig, formatChange, formatLots, formatPercent, formatPrice, formatShares, parseUnits, priceTrend } from '@/domain/market/format';
import { useLiveQuotes } from '@/domain/market/live';
import { INTERVALS, type Interval, type Level, type QuoteDetail } from '@/domain/market/types';
import { compareDecimal, taipeiTime } from '@/lib/filters';
import { revealIfCut } from '@/lib/reveal';
import { useTradeT } from '@/domain/trade/texts';
import { useFavorite } from './useFavorite';
import './market-pages.css';

// lightweight-charts travels in this chunk only, fetched when a detail screen opens.
const CandleChart = lazy(() => import('./CandleChart'));

function Stat({ label, value, trend = '', testId }: { label: string; value: string; trend?: string; testId: string }) {
  return (
    <div className="stat">
      <span className="stat-label">{label}</span>
      <span className={`stat-value num ${trend}`} data-testid={testId}>
        {value}
      </span>
    </div>
  );
}

function BookSide({ side, levels, prevClose }: { side: 'bid' | 'ask'; levels: Level[]; prevClose: string }) {
  const { t } = useTranslation();
  const rows = Array.from({ length: 5 }, (_, i) => levels[i]);
  return (
    <div className={`book-side book-${side}`}>
      <div className="book-head">
        <span>{t(`market.book.${side}`)}</span>
        <span>{t('market.book.size')}</span>
      </div>
      {rows.map((l, i) => (
        <div key={i} className="book-row" data-testid={`book-${side}-${i + 1}`}>
          <span className={`num ${l ? priceTrend(l.price, prevClose) : ''}`}>{l ? formatPrice(l.price) : '--'}</span>
          <span className="num">{l ? formatLots(l.size) : '--'}</span>
        </div>
      ))}
    </div>
  );
}

function Head({ q }: { q: QuoteDetail }) {
  const { t } = useTranslation();
  const trend = priceTrend(q.price, q.prevClose);
  const isIndex = q.type === 'index';
  const atLimit = isIndex || formatPrice(q.open) === '--' ? '' : compareDecimal(q.price, q.limitUp) === 0 ? 'up' : compareDecimal(q.price, q.limitDown) === 0 ? 'down' : '';
  const units = parseUnits(t('market.units'));
  return (
    <div className="card detail-head">
      <div className="detail-price-row">
        <span className={`detail-price num ${trend}`} data-testid="detail-price" data-trend={trend || 'flat'}>
          {formatPrice(q.price)}
        </span>
        <span className={`detail-change num ${trend}`}>
          <span data-testid="detail-change">{formatChange(q.change)}</span>
          <span data-testid="detail-percent">{formatPercent(q.changePercent)}</span>
        </span>
        {atLimit ? (
          <span className={`limit-badge pill-${atLimit}`} data-testid="detail-at-limit">
            {t(atLimit === 'up' ? 'market.atLimitUp' : 'market.atLimitDown')}
          </span>
        ) : null}
      </div>
      <div className="detail-meta muted">
        {q.session ? (
          <span className="session-badge" data-testid="detail-session" data-phase={q.session.phase}>
            {t(`market.phase.${q.session.phase}` as 'market.phase.closed', { defaultValue: q.session.phase })}
            {q.session.demo ? ` · ${t('market.demo')}` : ''}
          </span>
        ) : null}
        <span className="num">{taipeiTime(q.time)}</span>
      </div>
      <div className="stats">
        <Stat label={t('market.stat.open')} value={formatPrice(q.open)} trend={priceTrend(q.open, q.prevClose)} testId="detail-open" />
        <Stat label={t('market.stat.prevClose')} value={formatPrice(q.prevClose)} testId="detail-prev-close" />
        <Stat label={t('market.stat.high')} value={formatPrice(q.high)} trend={priceTrend(q.high, q.prevClose)} testId="detail-high" />
        <Stat label={t('market.stat.low')} value={formatPrice(q.low)} trend={priceTrend(q.low, q.prevClose)} testId="detail-low" />
        {isIndex ? null : (
          <>
            <Stat label={t('market.stat.limitUp')} value={formatPrice(q.limitUp)} trend="up" testId="detail-limit-up" />
            <Stat label={t('market.stat.limitDown')} value={formatPrice(q.limitDown)} trend="down" testId="detail-limit-down" />
            <Stat label={t('market.stat.volumeLots')} value={t('market.lotsValue', { lots: formatLots(q.volume) })} testId="detail-volume-lots" />
            <Stat label={t('market.stat.volumeShares')} value={t('market.sharesValue', { shares: formatShares(q.volume) })} testId="detail-volume-shares" />
          </>
        )}
        <Stat label={t('market.stat.turnover')} value={formatBig(q.turnover, units)} testId="detail-turnover" />
      </div>
    </div>
  );
}

/** A stock's (or index's) detail: quote, day's figures, candles, best five, favourite. */
export default function DetailPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const symbol = (params.get('symbol') ?? '').trim().toUpperCase();
  const q = useQuote(symbol);
  useLiveQuotes(symbol ? [symbol] : []);
  const [interval, setIv] = useState<Interval>('1m');
  const fav = useFavorite(symbol);
  const canFavorite = useCanFavorite();
  const tt = useTradeT();
  const navigate = useNavigate();
  const d = q.data;
  const title = d ? (
    <span className="detail-title">
      {/* Cut with an ellipsis when long; a tap shows it whole. */}
      <span className="detail-title-name" data-testid="quote-name" onClick={revealIfCut(displayName(d, currentLang()))}>
        {displayName(d, currentLang())}
      </span>
      <span className="muted num">{d.symbol}</span>
    </span>
  ) : (
    symbol
  );
  const favButton =
    d && d.type !== 'index' && canFavorite ? (
      <span
        role="button"
        className={fav.on ? 'fav-toggle on' : 'fav-toggle'}
        aria-label={t(fav.on ? 'market.removeFavorite' : 'market.addFavorite')}
        aria-pressed={fav.on}
        data-testid="favorite-toggle"
        data-on={fav.on ? 'true' : 'false'}
        onClick={() => fav.known && !fav.pending && fav.toggle()}
      >
        {fav.on ? <StarFill /> : <StarOutline />}
      </span>
    ) : null;
  return (
    <Page title={title} testId="detail-page" right={favButton} className="detail-page">
      <LiveNotice />
      {q.isPending && symbol ? (
        <ListLoading />
      ) : !d ? (
        <ListEmpty text={t('market.notFound')} />
      ) : (
        <>
          <Head q={d} />
          <div className="card chart-card">
            <div className="interval-bar" role="tablist">
              {INTERVALS.map((iv) => (
                <button
                  key={iv}
                  type="button"
                  role="tab"
                  aria-selected={iv === interval}
                  className={iv === interval ? 'interval active' : 'interval'}
                  data-testid={`interval-${iv}`}
                  onClick={() => setIv(iv)}
                >
                  {t(`market.interval.${iv}`)}
                </button>
              ))}
            </div>
            <Suspense fallback={<div className="chart-box" data-testid="chart-loading" />}>
              <CandleChart key={`${d.symbol}/${interval}`} symbol={d.symbol} interval={interval} />
            </Suspense>
            <div className="chart-attribution muted" data-testid="chart-attribution">
              {t('market.chartBy')}{' '}
              <a href="https://www.tradingview.com/" target="_blank" rel="noopener noreferrer">
                TradingView
              </a>
            </div>
          </div>
          {d.type !== 'index' ? (
            <div className="card">
              <div className="section-title">{t('market.bestFive')}</div>
              <div className="book" data-testid="best-five">
                <BookSide side="bid" levels={d.bids ?? []} prevClose={d.prevClose} />
                <BookSide side="ask" levels={d.asks ?? []} prevClose={d.prevClose} />
              </div>
            </div>
          ) : null}
          {d.type !== 'index' && canFavorite ? (
            <div className="detail-actions" style={{ display: 'flex', gap: '0.1rem' }}>
              <Button block color="danger" onClick={() => navigate(`/market/marketBuy?symbol=${d.symbol}&side=buy`)} data-testid="detail-buy">
                {tt('buy')}
              </Button>
              <Button block color="success" onClick={() => navigate(`/market/marketBuy?symbol=${d.symbol}&side=sell`)} data-testid="detail-sell">
                {tt('sell')}
              </Button>
            </div>
          ) : null}
          {d.type !== 'index' && canFavorite ? (
            <div className="detail-actions">
              <Button block color={fav.on ? 'default' : 'primary'} loading={fav.pending} disabled={!fav.known} onClick={fav.toggle} data-testid="favorite-button">
                {t(fav.on ? 'market.removeFavorite' : 'market.addFavorite')}
              </Button>
            </div>
          ) : null}
        </>
      )}
    </Page>
  );
}
