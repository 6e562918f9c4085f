import { useTranslation } from 'react-i18next';
import { Row } from '@/domain/offering/Row';
import { money } from '@/lib/filters';
import type { QuantProduct } from './api';
import { useQuantT } from './texts';
import { percent } from './validation';

/** The product's name, description and rule in the app's language. */
export function useLocalized() {
  const { i18n } = useTranslation();
  const en = i18n.language === 'en';
  return (p: QuantProduct) => ({
    name: en ? p.nameEn : p.nameTw,
    description: en ? p.descriptionEn : p.descriptionTw,
    rule: en ? p.ruleEn : p.ruleTw,
  });
}

/** The backtest's figures: period, cumulative return, max drawdown, trades and win rate. */
export function BacktestFigures({ p }: { p: QuantProduct }) {
  const qt = useQuantT();
  const b = p.backtest;
  return (
    <div data-testid="quant-backtest">
      <Row label={qt('return')} testId="quant-return">
        {percent(b.return)}
      </Row>
      <Row label={qt('drawdown')} testId="quant-drawdown">
        {percent(b.maxDrawdown)}
      </Row>
      <Row label={qt('trades')} testId="quant-trades">
        {b.trades}
      </Row>
      <Row label={qt('winRate')} testId="quant-winrate">
        {percent(b.winRate)}
      </Row>
      <Row label={qt('minAmount')}>{money(p.minAmount)}</Row>
      <div className="muted quant-note" data-text="data">
        {qt('period', { from: b.from, to: b.to })}
      </div>
    </div>
  );
}

/** The equity curve of the replay, as a line scaled to its own range. */
export function EquityCurve({ points }: { points: { day: string; equity: string }[] }) {
  const qt = useQuantT();
  if (points.length < 2) return null;
  const ys = points.map((p) => Number(p.equity));
  const lo = Math.min(...ys);
  const hi = Math.max(...ys);
  const span = hi - lo || 1;
  const w = 300;
  const h = 120;
  const d = ys.map((y, i) => `${((i / (ys.length - 1)) * w).toFixed(1)},${(h - ((y - lo) / span) * h).toFixed(1)}`).join(' ');
  const up = (ys[ys.length - 1] ?? 0) >= (ys[0] ?? 0);
  return (
    <figure className="quant-curve" data-testid="quant-curve" aria-label={qt('curve')}>
      <svg viewBox={`0 0 ${w} ${h}`} preserveAspectRatio="none" role="img">
        <polyline points={d} fill="none" stroke={up ? 'var(--up, #e53935)' : 'var(--down, #2e7d32)'} strokeWidth="1.5" vectorEffect="non-scaling-stroke" />
      </svg>
      <figcaption className="muted quant-curve-range num" data-text="data">
        <span>{money(lo)}</span>
        <span>{money(hi)}</span>
      </figcaption>
    </figure>
  );
}
