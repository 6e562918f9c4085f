import { Button } from 'antd-mobile';
import { StarFill, StarOutline } from 'antd-mobile-icons';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { ListEmpty, ListLoading } from '@/components/ListState';
import { LiveNotice } from '@/components/market/LiveNotice';
import { StatusTag } from '@/components/market/QuoteRow';
import { Page } from '@/components/Page';
import { currentLang } from '@/lib/i18n';
import { useCanFavorite, useQuote } from '@/domain/market/api';
import { atLimit, displayName, formatBig, formatChange, formatLots, formatPercent, formatPrice, formatShares, parseUnits, priceTrend } from '@/domain/market/format';
import { useLiveQuotes } from '@/domain/market/live';
import { type Interval, K_INTERVALS, type Level, type QuoteDetail } from '@/domain/market/types';
import { taipeiTime } from '@/lib/filters';
import { revealIfCut } from '@/lib/reveal';
import { rememberReturn, useSession } from '@/lib/session';
import { bookTotal, outerPercent } from './chartMath';
import { TapePanel } from './TapePanel';
import { useFavorite } from './useFavorite';
import './market-pages.css';

// lightweight-charts travels in these chunks only, fetched when a detail screen opens.
const CandleChart = lazy(() => import('./CandleChart'));
const IntradayChart = lazy(() => import('./IntradayChart'));

type View = 'intraday' | Interval;

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
  const limit = atLimit(q);
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
        {limit ? (
          <span className={`limit-badge pill-${limit}`} data-testid="detail-at-limit" data-limit={limit}>
            {t(limit === 'up' ? 'market.atLimitUp' : 'market.atLimitDown')}
          </span>
        ) : null}
        <StatusTag q={q} className="status-badge" testId="detail-status" />
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

/** 五檔 with the bid and ask totals and their ratio bar. */
function BestFive({ q }: { q: QuoteDetail }) {
  const { t } = useTranslation();
  const bids = bookTotal(q.bids);
  const asks = bookTotal(q.asks);
  const pct = outerPercent({ outer: bids, inner: asks, neutral: 0 });
  return (
    <div className="card">
      <div className="section-title">{t('market.bestFive')}</div>
      <div className="book" data-testid="best-five">
        <BookSide side="bid" levels={q.bids ?? []} prevClose={q.prevClose} />
        <BookSide side="ask" levels={q.asks ?? []} prevClose={q.prevClose} />
      </div>
      <div className="io-row num book-totals">
        <span className="up">
          {t('market.screen.bidTotal')} <b data-testid="bid-total">{formatLots(bids)}</b>
        </span>
        <span className="down">
          {t('market.screen.askTotal')} <b data-testid="ask-total">{formatLots(asks)}</b>
        </span>
      </div>
      <div className="ratio-bar" aria-hidden="true">
        <span className="ratio-up" style={{ width: `${pct}%` }} />
        <span className="ratio-down" style={{ width: `${100 - pct}%` }} />
      </div>
    </div>
  );
}

/** The chart card: 分時 and the K lines at every interval, the chart library's notice below. */
function Charts({ q }: { q: QuoteDetail }) {
  const { t } = useTranslation();
  const [view, setView] = useState<View>('intraday');
  const views: View[] = ['intraday', ...K_INTERVALS];
  return (
    <div className="card chart-card">
      <div className="interval-bar" role="tablist">
        {views.map((v) => (
          <button
            key={v}
            type="button"
            role="tab"
            aria-selected={v === view}
            className={v === view ? 'interval active' : 'interval'}
            data-testid={`interval-${v}`}
            onClick={() => setView(v)}
          >
            {v === 'intraday' ? t('market.screen.intraday') : t(`market.screen.k.${v}` as 'market.screen.k.1m')}
          </button>
        ))}
      </div>
      <Suspense fallback={<div className="chart-box" data-testid="chart-loading" />}>
        {view === 'intraday' ? (
          <IntradayChart key={q.symbol} symbol={q.symbol} prevClose={q.prevClose} demo={!!q.session?.demo} />
        ) : (
          <CandleChart key={`${q.symbol}/${view}`} symbol={q.symbol} interval={view} />
        )}
      </Suspense>
      {/* The licence's notice and link, below the plot where it hides no data. */}
      <div className="chart-attribution muted" data-testid="chart-attribution">
        {t('market.chartBy')}{' '}
        <a href="https://www.tradingview.com/" target="_blank" rel="noopener noreferrer">
          TradingView
        </a>
      </div>
    </div>
  );
}

/** A stock's (or index's) detail: quote, day's figures, 分時 and K lines, 五檔, 內外盤, 成交明細, and the buy / sell bar. */
export default function DetailPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const symbol = (params.get('symbol') ?? '').trim().toUpperCase();
  const q = useQuote(symbol);
  useLiveQuotes(symbol ? [symbol] : []);
  const fav = useFavorite(symbol);
  const canFavorite = useCanFavorite();
  const { token } = useSession();
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
  // Visitors see the bar too: an account action asks them to log in, then comes back.
  const tradable = !!d && d.type !== 'index' && (!token || canFavorite);
  const here = `/market/marketDetail?symbol=${encodeURIComponent(symbol)}`;
  const onFavorite = () => {
    if (!token) {
      rememberReturn(here);
      void navigate('/login/login');
      return;
    }
    if (fav.known && !fav.pending) fav.toggle();
  };
  return (
    <Page title={title} testId="detail-page" className={tradable ? 'detail-page with-trade-bar' : 'detail-page'}>
      <LiveNotice />
      {q.isPending && symbol ? (
        <ListLoading />
      ) : !d ? (
        <ListEmpty text={t('market.notFound')} />
      ) : (
        <>
          <Head q={d} />
          <Charts q={d} />
          {d.type !== 'index' ? (
            <>
              <BestFive q={d} />
              <TapePanel q={d} />
            </>
          ) : null}
          {tradable ? (
            <div className="trade-bar" data-testid="trade-bar">
              <span
                role="button"
                className={fav.on ? 'fav-toggle on' : 'fav-toggle'}
                aria-label={t(!token ? 'market.screen.loginToFavorite' : fav.on ? 'market.removeFavorite' : 'market.addFavorite')}
                aria-pressed={fav.on}
                aria-busy={fav.pending}
                data-testid="favorite-toggle"
                data-on={fav.on ? 'true' : 'false'}
                data-ready={!token || (fav.known && !fav.pending) ? 'true' : 'false'}
                onClick={onFavorite}
              >
                {fav.on ? <StarFill /> : <StarOutline />}
              </span>
              <Button color="danger" onClick={() => void navigate(`/market/marketBuy?symbol=${d.symbol}&side=buy`)} data-testid="detail-buy">
                {t('market.screen.buy')}
              </Button>
              <Button color="success" onClick={() => void navigate(`/market/marketBuy?symbol=${d.symbol}&side=sell`)} data-testid="detail-sell">
                {t('market.screen.sell')}
              </Button>
            </div>
          ) : null}
        </>
      )}
    </Page>
  );
}
