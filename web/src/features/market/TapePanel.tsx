import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { marketApi, marketKeys } from '@/domain/market/api';
import { formatLots, formatPrice } from '@/domain/market/format';
import type { QuoteDetail, TradeTape } from '@/domain/market/types';
import { addTrade, classify, type InnerOuter, outerPercent, type Side, type Tick } from './chartMath';

const TAPE_ROWS = 30;

const clockFmt = new Intl.DateTimeFormat('en-GB', { timeZone: 'Asia/Taipei', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' });
/** A trade's time of day in Taipei, HH:mm:ss. */
function clock(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? '--' : clockFmt.format(d);
}

interface Row {
  id: string;
  time: string;
  price: string;
  size: number;
  tick: Tick;
  side: Side;
}

interface TapeState {
  base: TradeTape | undefined;
  rows: Row[];
  totals: InnerOuter;
  volume: number;
  seq: number;
}

function fromTape(base: TradeTape | undefined): TapeState {
  return {
    base,
    rows: (base?.items ?? []).map((it, i) => ({ id: `s${i}-${it.time}`, time: it.time, price: it.price, size: Number(it.size), tick: it.tick, side: it.side })),
    totals: { outer: Number(base?.outer ?? 0), inner: Number(base?.inner ?? 0), neutral: Number(base?.neutral ?? 0) },
    volume: Number(base?.volume ?? 0),
    seq: 0,
  };
}

/**
 * The day's time and sales from the server, then every pushed quote whose volume grew adds a row
 * (the shares traded since, at the pushed price) and its side to 內外盤 by the tick rule.
 */
function useLiveTape(q: QuoteDetail) {
  const tape = useQuery({ queryKey: marketKeys.trades(q.symbol), queryFn: ({ signal }) => marketApi.trades(q.symbol, TAPE_ROWS, signal) });
  const [st, setSt] = useState<TapeState>(() => fromTape(undefined));
  const volume = Number(q.volume) || 0;
  useEffect(() => {
    setSt((cur) => {
      let s = cur.base === tape.data ? cur : fromTape(tape.data);
      if (!tape.data || volume <= s.volume) return s;
      const prev = s.rows[0];
      const { tick, side } = classify(prev ? Number(prev.price) : Number(q.prevClose), prev?.side ?? 'none', Number(q.price));
      const size = volume - s.volume;
      const row: Row = { id: `l${s.seq}`, time: q.time, price: q.price, size, tick, side };
      s = { ...s, rows: [row, ...s.rows].slice(0, TAPE_ROWS), totals: addTrade(s.totals, side, size), volume, seq: s.seq + 1 };
      return s;
    });
  }, [tape.data, volume, q.price, q.time, q.prevClose]);
  return { ...st, loaded: tape.data !== undefined };
}

const ARROW: Record<Tick, string> = { up: '▲', down: '▼', flat: '–' };

/** 內外盤 with its ratio bar, and 成交明細 (time, price, lots, tick direction). */
export function TapePanel({ q }: { q: QuoteDetail }) {
  const { t } = useTranslation();
  const st = useLiveTape(q);
  const pct = outerPercent(st.totals);
  return (
    <>
      <div className="card" data-testid="inner-outer">
        <div className="section-title">{t('market.screen.innerOuter')}</div>
        <div className="io-row num">
          <span className="up">
            {t('market.screen.outer')} <b data-testid="outer-volume">{formatLots(st.totals.outer)}</b>
          </span>
          <span className="io-pct" data-testid="outer-ratio">
            {pct.toFixed(1)}% : {(100 - pct).toFixed(1)}%
          </span>
          <span className="down">
            {t('market.screen.inner')} <b data-testid="inner-volume">{formatLots(st.totals.inner)}</b>
          </span>
        </div>
        <div className="ratio-bar" aria-hidden="true">
          <span className="ratio-up" style={{ width: `${pct}%` }} />
          <span className="ratio-down" style={{ width: `${100 - pct}%` }} />
        </div>
      </div>
      <div className="card" data-testid="tape">
        <div className="section-title">{t('market.screen.tape')}</div>
        <div className="tape-row tape-head muted">
          <span>{t('market.screen.tapeTime')}</span>
          <span>{t('market.screen.tapePrice')}</span>
          <span>{t('market.screen.tapeSize')}</span>
          <span />
        </div>
        {st.loaded && st.rows.length === 0 ? <div className="muted tape-empty">{t('market.screen.tapeEmpty')}</div> : null}
        {st.rows.map((r) => {
          const trend = Number(r.price) > Number(q.prevClose) ? 'up' : Number(r.price) < Number(q.prevClose) ? 'down' : '';
          return (
            <div key={r.id} className="tape-row num" data-testid="tape-row" data-tick={r.tick} data-side={r.side}>
              <span>{clock(r.time)}</span>
              <span className={trend}>{formatPrice(r.price)}</span>
              <span className={r.side === 'outer' ? 'up' : r.side === 'inner' ? 'down' : ''}>{formatLots(r.size)}</span>
              <span className={r.tick === 'up' ? 'up' : r.tick === 'down' ? 'down' : 'muted'} title={t(`market.screen.tick.${r.tick}`)} aria-label={t(`market.screen.tick.${r.tick}`)}>
                {ARROW[r.tick]}
              </span>
            </div>
          );
        })}
      </div>
    </>
  );
}
