import { useQuery } from '@tanstack/react-query';
import {
  createChart,
  HistogramSeries,
  LineSeries,
  LineStyle,
  type HistogramData,
  type IChartApi,
  type ISeriesApi,
  type LineData,
  type UTCTimestamp,
  type WhitespaceData,
} from 'lightweight-charts';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { currentLang } from '@/lib/i18n';
import { marketApi, marketKeys } from '@/domain/market/api';
import { chartTime, formatPrice } from '@/domain/market/format';
import { useLive } from '@/domain/market/live';
import type { Candle } from '@/domain/market/types';
import { thinLabels, vwap } from './chartMath';

// Taiwan colours: red above the previous close, green below; the average line in amber.
const UP = '#e02424';
const DOWN = '#059669';
const PRICE = '#2563eb';
const AVG = '#d97706';
const UP_VOL = 'rgba(224, 36, 36, 0.5)';
const DOWN_VOL = 'rgba(5, 150, 105, 0.5)';
const DAY_S = 86400;
// The regular session in chart time (Taipei wall clock as UTC seconds of the day).
const OPEN_S = 9 * 3600;
const CLOSE_S = 13 * 3600 + 30 * 60;
const AXIS_LABEL_PX = 34;

interface Min {
  time: number;
  close: number;
  volume: number;
  turnover: number;
}

function toMin(c: Candle): Min {
  return { time: chartTime(c.time), close: Number(c.close), volume: Number(c.volume) || 0, turnover: Number(c.turnover) || 0 };
}

/** The newest trading day's minutes, oldest first (chart time). */
export function lastDay(mins: readonly Min[]): Min[] {
  const last = mins[mins.length - 1];
  if (!last) return [];
  const day = Math.floor(last.time / DAY_S);
  return mins.filter((m) => Math.floor(m.time / DAY_S) === day);
}

const hhmm = (t: number) => {
  const s = ((t % DAY_S) + DAY_S) % DAY_S;
  return `${String(Math.floor(s / 3600)).padStart(2, '0')}:${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}`;
};

interface Chart {
  chart: IChartApi;
  price: ISeriesApi<'Line'>;
  avg: ISeriesApi<'Line'>;
  volume: ISeriesApi<'Histogram'>;
}

/**
 * 分時走勢: the day's one-minute closes, the average price (VWAP) so far, the previous close as
 * a dashed baseline and volume bars below, red above the previous close and green below. Regular
 * sessions span 09:00 to 13:30 from the start; live minutes arrive on the socket's 1m candles.
 * The time axis is drawn here, its labels thinned so that none overlaps.
 */
export default function IntradayChart({ symbol, prevClose, demo }: { symbol: string; prevClose: string; demo: boolean }) {
  const { t } = useTranslation();
  const box = useRef<HTMLDivElement>(null);
  const chartRef = useRef<Chart | null>(null);
  const mins = useRef<Min[]>([]);
  const [axis, setAxis] = useState<{ label: string; x: number }[]>([]);
  const [empty, setEmpty] = useState(false);
  const [avgNow, setAvgNow] = useState<number | null>(null);
  const [lastMin, setLastMin] = useState('');
  const live = useLive();
  const ref = Number(prevClose);
  const q = useQuery({
    queryKey: [...marketKeys.candles(symbol, '1m'), 'intraday'],
    queryFn: ({ signal }) => marketApi.candles(symbol, '1m', { limit: 500 }, signal),
  });

  const draw = () => {
    const c = chartRef.current;
    if (!c) return;
    const day = lastDay(mins.current);
    let priceData: (LineData<UTCTimestamp> | WhitespaceData<UTCTimestamp>)[] = day.map((m) => ({ time: m.time as UTCTimestamp, value: m.close }));
    const vol: HistogramData<UTCTimestamp>[] = day.map((m, i) => {
      const prev = i > 0 ? day[i - 1]!.close : ref;
      return { time: m.time as UTCTimestamp, value: m.volume, color: m.close >= prev ? UP_VOL : DOWN_VOL };
    });
    const first = day[0];
    const last = day[day.length - 1];
    // A regular session spans 09:00 to 13:30 from the start, one place per minute: minutes without
    // a trade, or still to come, are whitespace, so the time axis is linear.
    if (!demo && first && last) {
      const start = first.time - (first.time % DAY_S);
      const byTime = new Map(priceData.map((p) => [p.time as number, p]));
      priceData = [];
      for (let t0 = Math.min(first.time, start + OPEN_S); t0 <= Math.max(last.time, start + CLOSE_S); t0 += 60) {
        priceData.push(byTime.get(t0) ?? { time: t0 as UTCTimestamp });
      }
    }
    const avg = vwap(day);
    c.price.setData(priceData);
    c.avg.setData(avg.map((p) => ({ time: p.time as UTCTimestamp, value: p.value })));
    c.volume.setData(vol);
    c.price.applyOptions({ color: last && last.close < ref ? DOWN : last && last.close > ref ? UP : PRICE });
    c.chart.timeScale().fitContent();
    setEmpty(day.length === 0);
    setAvgNow(avg.length ? avg[avg.length - 1]!.value : null);
    setLastMin(last ? `${hhmm(last.time)} ${last.close} ${last.volume}` : '');
    layoutAxis();
  };

  // The time axis: every hour (and the close) that the day spans, thinned to the width.
  const layoutAxis = () => {
    const c = chartRef.current;
    const el = box.current;
    const day = lastDay(mins.current);
    if (!c || !el || day.length === 0) return setAxis([]);
    const start = day[0]!.time - (day[0]!.time % DAY_S);
    const from = demo ? day[0]!.time : start + OPEN_S;
    const to = demo ? day[day.length - 1]!.time : start + CLOSE_S;
    // The span's ends (the session's, or in the demo's round-the-clock day the first and last
    // minute) and every whole hour between.
    const marks: number[] = [from];
    for (let h = Math.ceil(from / 3600) * 3600; h <= to; h += 3600) if (h !== from) marks.push(h);
    if (marks[marks.length - 1] !== to) marks.push(to);
    const width = el.clientWidth - (c.chart.priceScale('right').width() || 0);
    const placed: { label: string; x: number }[] = [];
    for (const m of marks) {
      const x = c.chart.timeScale().timeToCoordinate(m as UTCTimestamp);
      if (x !== null && x >= 0 && x <= width) placed.push({ label: hhmm(m), x: Number(x) });
    }
    const keep = thinLabels(
      placed.map((p) => p.x),
      AXIS_LABEL_PX,
    );
    setAxis(keep.map((i) => placed[i]!));
  };

  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const chart = createChart(el, {
      autoSize: true,
      layout: { background: { color: '#ffffff' }, textColor: '#6b7280', fontSize: 10, attributionLogo: false },
      grid: { vertLines: { color: '#f3f4f6' }, horzLines: { color: '#f3f4f6' } },
      rightPriceScale: { borderVisible: false },
      timeScale: { visible: false, borderVisible: false, fixLeftEdge: true, fixRightEdge: true },
      localization: { locale: currentLang() === 'en' ? 'en-US' : 'zh-TW', timeFormatter: (t: number) => hhmm(t) },
      handleScroll: false,
      handleScale: false,
    });
    const price = chart.addSeries(LineSeries, { color: PRICE, lineWidth: 2, priceLineVisible: false, lastValueVisible: true });
    price.priceScale().applyOptions({ scaleMargins: { top: 0.08, bottom: 0.3 } });
    const avg = chart.addSeries(LineSeries, { color: AVG, lineWidth: 1, priceLineVisible: false, lastValueVisible: false, crosshairMarkerVisible: false });
    if (Number.isFinite(ref) && ref > 0) {
      price.createPriceLine({ price: ref, color: '#9ca3af', lineWidth: 1, lineStyle: LineStyle.Dashed, axisLabelVisible: true, title: '' });
    }
    const volume = chart.addSeries(HistogramSeries, { priceFormat: { type: 'volume' }, priceScaleId: '', lastValueVisible: false, priceLineVisible: false });
    volume.priceScale().applyOptions({ scaleMargins: { top: 0.76, bottom: 0 } });
    chartRef.current = { chart, price, avg, volume };
    const ro = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(() => layoutAxis());
    ro?.observe(el);
    return () => {
      ro?.disconnect();
      chartRef.current = null;
      chart.remove();
    };
    // The chart is made once per symbol; draw reads the latest minutes from refs.
  }, [symbol, prevClose, demo]);

  useEffect(() => {
    if (!q.data) return;
    const byTime = new Map<number, Min>();
    for (const m of [...mins.current, ...q.data.items.map(toMin)]) byTime.set(m.time, m);
    mins.current = [...byTime.values()].sort((a, b) => a.time - b.time);
    draw();
  }, [q.data]);

  // Live minutes from the socket's 1m candles; a new minute redraws the line and the average.
  useEffect(() => {
    const unsubscribe = live.socket.subscribe([symbol], ['candles:1m']);
    const off = live.onCandle((m) => {
      if (m.symbol !== symbol || m.interval !== '1m' || !q.data) return;
      const bar = toMin(m.data as unknown as Candle);
      const list = mins.current;
      const last = list[list.length - 1];
      if (last && bar.time < last.time) return;
      if (last && bar.time === last.time) list[list.length - 1] = bar;
      else list.push(bar);
      draw();
    });
    return () => {
      off();
      unsubscribe();
    };
  }, [live, symbol, q.data]);

  return (
    <div className="intraday" data-testid="intraday" data-last={lastMin}>
      <div className="intraday-legend num">
        <span className="legend-price">{t('market.screen.intraday')}</span>
        <span className="legend-avg" data-testid="intraday-avg">
          {t('market.screen.avgPrice')} {avgNow === null ? '--' : formatPrice(avgNow.toFixed(2))}
        </span>
        <span className="legend-ref">
          {t('market.screen.prevClose')} {formatPrice(prevClose)}
        </span>
      </div>
      <div className="chart-box" data-testid="chart" data-interval="intraday">
        <div ref={box} className="chart-canvas" />
        {empty ? (
          <div className="chart-empty muted" data-testid="chart-empty">
            {t('market.chartEmpty')}
          </div>
        ) : null}
      </div>
      <div className="time-axis num" data-testid="intraday-axis">
        {axis.map((a) => (
          <span key={a.label} className="time-axis-label" style={{ left: `${a.x}px` }}>
            {a.label}
          </span>
        ))}
      </div>
    </div>
  );
}
