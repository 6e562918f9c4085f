import { useQuery } from '@tanstack/react-query';
import {
  CandlestickSeries,
  createChart,
  HistogramSeries,
  LineSeries,
  type CandlestickData,
  type HistogramData,
  type IChartApi,
  type ISeriesApi,
  type LogicalRange,
  type UTCTimestamp,
} from 'lightweight-charts';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { currentLang } from '@/lib/i18n';
import { CANDLE_PAGE, marketApi, marketKeys } from '@/domain/market/api';
import { chartTime } from '@/domain/market/format';
import { useLive } from '@/domain/market/live';
import type { Candle, Interval } from '@/domain/market/types';
import { movingAverage } from './chartMath';

// The moving averages Taiwan apps draw on K lines, with their usual colours.
export const MAS = [
  { n: 5, color: '#d97706' },
  { n: 10, color: '#2563eb' },
  { n: 20, color: '#9333ea' },
] as const;

// Taiwan colours: red candles rise, green candles fall.
const UP = '#e02424';
const DOWN = '#059669';
const UP_VOL = 'rgba(224, 36, 36, 0.45)';
const DOWN_VOL = 'rgba(5, 150, 105, 0.45)';

interface Bar {
  iso: string;
  candle: CandlestickData<UTCTimestamp>;
  volume: HistogramData<UTCTimestamp>;
}

function toBar(c: Candle): Bar {
  const time = chartTime(c.time) as UTCTimestamp;
  const open = Number(c.open);
  const close = Number(c.close);
  return {
    iso: c.time,
    candle: { time, open, high: Number(c.high), low: Number(c.low), close },
    volume: { time, value: Number(c.volume) || 0, color: close >= open ? UP_VOL : DOWN_VOL },
  };
}

/** Merges bars by time (later arrivals win), oldest first. */
function mergeBars(a: readonly Bar[], b: readonly Bar[]): Bar[] {
  const byTime = new Map<number, Bar>();
  for (const bar of [...a, ...b]) byTime.set(bar.candle.time, bar);
  return [...byTime.values()].sort((x, y) => x.candle.time - y.candle.time);
}

const intraday = (iv: Interval) => iv.endsWith('m');

interface Chart {
  chart: IChartApi;
  candles: ISeriesApi<'Candlestick'>;
  volume: ISeriesApi<'Histogram'>;
  mas: ISeriesApi<'Line'>[];
}

/** Sets every series from the bars; returns the newest value of each moving average. */
function fill(c: Chart, bars: readonly Bar[]): (number | null)[] {
  c.candles.setData(bars.map((b) => b.candle));
  c.volume.setData(bars.map((b) => b.volume));
  const closes = bars.map((b) => ({ time: b.candle.time, close: b.candle.close }));
  return MAS.map((m, i) => {
    const pts = movingAverage(closes, m.n);
    c.mas[i]?.setData(pts.map((p) => ({ time: p.time as UTCTimestamp, value: p.value })));
    return pts.length ? pts[pts.length - 1]!.value : null;
  });
}

/**
 * Candles and volume bars of one symbol at one interval. The chart is driven imperatively:
 * history through setData, live candles from the socket through series.update, outside React.
 * Scrolling to the left edge loads older candles.
 */
export default function CandleChart({ symbol, interval }: { symbol: string; interval: Interval }) {
  const { t } = useTranslation();
  const box = useRef<HTMLDivElement>(null);
  const chartRef = useRef<Chart | null>(null);
  const bars = useRef<Bar[]>([]);
  // Live bars and older pages wait for the history: a live snapshot first would look like the
  // whole history and page backwards from today.
  const older = useRef({ ready: false, hasMore: true, loading: false });
  const [empty, setEmpty] = useState(false);
  const [maNow, setMaNow] = useState<(number | null)[]>([]);
  const live = useLive();
  const q = useQuery({
    queryKey: marketKeys.candles(symbol, interval),
    queryFn: ({ signal }) => marketApi.candles(symbol, interval, { limit: CANDLE_PAGE }, signal),
  });

  // The chart itself: made once per mount, removed on unmount.
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const chart = createChart(el, {
      autoSize: true,
      layout: { background: { color: '#ffffff' }, textColor: '#6b7280', fontSize: 10, attributionLogo: false },
      grid: { vertLines: { color: '#f3f4f6' }, horzLines: { color: '#f3f4f6' } },
      rightPriceScale: { borderVisible: false },
      timeScale: { borderVisible: false, timeVisible: intraday(interval), secondsVisible: false },
      localization: { locale: currentLang() === 'en' ? 'en-US' : 'zh-TW', dateFormat: 'yyyy-MM-dd' },
      handleScale: { axisPressedMouseMove: false },
    });
    const candles = chart.addSeries(CandlestickSeries, {
      upColor: UP,
      downColor: DOWN,
      borderUpColor: UP,
      borderDownColor: DOWN,
      wickUpColor: UP,
      wickDownColor: DOWN,
    });
    candles.priceScale().applyOptions({ scaleMargins: { top: 0.08, bottom: 0.28 } });
    const mas = MAS.map((m) =>
      chart.addSeries(LineSeries, { color: m.color, lineWidth: 1, priceLineVisible: false, lastValueVisible: false, crosshairMarkerVisible: false }),
    );
    const volume = chart.addSeries(HistogramSeries, { priceFormat: { type: 'volume' }, priceScaleId: '', lastValueVisible: false, priceLineVisible: false });
    volume.priceScale().applyOptions({ scaleMargins: { top: 0.78, bottom: 0 } });
    chartRef.current = { chart, candles, volume, mas };

    const loadOlder = async (range: LogicalRange | null) => {
      const st = older.current;
      const first = bars.current[0];
      if (!range || range.from > 10 || !st.ready || !st.hasMore || st.loading || !first) return;
      st.loading = true;
      try {
        const page = await marketApi.candles(symbol, interval, { before: first.iso, limit: CANDLE_PAGE });
        if (chartRef.current?.chart !== chart) return;
        st.hasMore = page.hasMore;
        const before = bars.current.length;
        bars.current = mergeBars(page.items.map(toBar), bars.current);
        const added = bars.current.length - before;
        if (added > 0 && chartRef.current) {
          const visible = chart.timeScale().getVisibleLogicalRange();
          fill(chartRef.current, bars.current);
          if (visible) chart.timeScale().setVisibleLogicalRange({ from: visible.from + added, to: visible.to + added });
        }
      } catch {
        st.hasMore = false; // the client already told the user; stop asking on every scroll
      } finally {
        st.loading = false;
      }
    };
    const onRange = (r: LogicalRange | null) => void loadOlder(r);
    chart.timeScale().subscribeVisibleLogicalRangeChange(onRange);
    return () => {
      chart.timeScale().unsubscribeVisibleLogicalRangeChange(onRange);
      chartRef.current = null;
      chart.remove();
    };
  }, [symbol, interval]);

  // History (first load, and refetches after a reconnect): the newest page replaces its span.
  useEffect(() => {
    const c = chartRef.current;
    if (!c || !q.data) return;
    const first = !older.current.ready;
    bars.current = mergeBars(bars.current, q.data.items.map(toBar));
    if (first) Object.assign(older.current, { ready: true, hasMore: q.data.hasMore });
    setMaNow(fill(c, bars.current));
    if (first) c.chart.timeScale().scrollToRealTime();
    setEmpty(bars.current.length === 0);
  }, [q.data]);

  // Live candles: straight into the series, no React render per tick.
  useEffect(() => {
    const unsubscribe = live.socket.subscribe([symbol], [`candles:${interval}`]);
    const off = live.onCandle((m) => {
      const c = chartRef.current;
      if (!c || !older.current.ready || m.symbol !== symbol || m.interval !== interval) return;
      const bar = toBar(m.data as unknown as Candle);
      const last = bars.current[bars.current.length - 1];
      if (last && bar.candle.time < last.candle.time) return; // stale frame
      if (last && bar.candle.time === last.candle.time) bars.current[bars.current.length - 1] = bar;
      else bars.current.push(bar);
      c.candles.update(bar.candle);
      c.volume.update(bar.volume);
      // The averages move with the live close: the newest point of each, from the last n closes.
      const closes = bars.current.map((b) => ({ time: b.candle.time, close: b.candle.close }));
      setMaNow(
        MAS.map((ma, i) => {
          const pts = movingAverage(closes.slice(-ma.n), ma.n);
          const p = pts[pts.length - 1];
          if (p) c.mas[i]?.update({ time: p.time as UTCTimestamp, value: p.value });
          return p ? p.value : null;
        }),
      );
      setEmpty(false);
    });
    return () => {
      off();
      unsubscribe();
    };
  }, [live, symbol, interval]);

  return (
    <>
      <div className="ma-legend num" data-testid="ma-legend">
        {MAS.map((m, i) => (
          <span key={m.n} style={{ color: m.color }} data-testid={`ma-${m.n}`}>
            MA{m.n} {maNow[i] == null ? '--' : (maNow[i] as number).toFixed(2)}
          </span>
        ))}
      </div>
      <div className="chart-box" data-testid="chart" data-interval={interval}>
        <div ref={box} className="chart-canvas" />
        {empty ? (
          <div className="chart-empty muted" data-testid="chart-empty">
            {t('market.chartEmpty')}
          </div>
        ) : null}
      </div>
    </>
  );
}
