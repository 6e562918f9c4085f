import { Page } from '@/components/Page';
import { money } from '@/lib/filters';
import { type CopyTradeRules, useCopyRules } from './api';
import { useCopyT } from './texts';

/** The published rules: level thresholds, profit share cap, window and minimum bounds, mirroring. */
export function Rules({ r }: { r: CopyTradeRules }) {
  const ct = useCopyT();
  return (
    <div className="card" data-testid="copy-rules">
      <div className="copy-section-title">{ct('rulesText.levels')}</div>
      <ul className="copy-rules muted">
        {r.thresholds.map((x) => (
          <li key={x.level} data-testid="copy-threshold">
            {ct('rulesText.line', { level: ct(`level.${x.level}`), trips: x.roundTrips, rate: Math.round(Number(x.winRate) * 100), equity: money(x.equity) })}
          </li>
        ))}
      </ul>
      <ul className="copy-rules muted">
        <li>{ct('rulesText.shareCap', { max: r.maxProfitShare })}</li>
        <li>{ct('rulesText.window', { min: r.minWindowDays, max: r.maxWindowDays, floor: money(r.minFollowFloor) })}</li>
        <li>{ct('rulesText.mirror')}</li>
      </ul>
    </div>
  );
}

/** The rules page (/gdindex/rules). */
export default function RulesPage() {
  const ct = useCopyT();
  const q = useCopyRules();
  return (
    <Page title={ct('rules')} testId="copy-rules-page">
      {q.data ? <Rules r={q.data} /> : null}
    </Page>
  );
}
