import { AppLink } from '@/components/AppLink';
import { Row } from '@/domain/offering/Row';
import { money } from '@/lib/filters';
import type { Follow, Mentor } from './api';
import { useCopyT } from './texts';
import './copytrade.css';

/** A fraction as a percentage with two decimals ("0.0125" -> "1.25%"). */
export function pct(fraction: string): string {
  return `${(Math.round(Number(fraction) * 10000) / 100).toFixed(2)}%`;
}

/** A holding time in minutes, hours or days. */
export function useHolding(): (minutes: number) => string {
  const ct = useCopyT();
  return (m) => (m < 60 ? ct('minutes', { n: m }) : m < 1440 ? ct('hours', { n: Math.round(m / 6) / 10 }) : ct('days', { n: Math.round(m / 144) / 10 }));
}

export function LevelBadge({ level }: { level: Mentor['level'] }) {
  const ct = useCopyT();
  return (
    <span className={`badge copy-level copy-level-${level}`} data-testid="copy-level" data-level={level}>
      {ct(`level.${level}`)}
    </span>
  );
}

export function StateBadge({ state }: { state: Follow['state'] }) {
  const ct = useCopyT();
  return (
    <span className={`badge copy-state-${state}`} data-testid="copy-follow-state" data-state={state}>
      {ct(`state.${state}`)}
    </span>
  );
}

/** A mentor on a list: name, level, the headline figures; opens its detail and follow form. */
export function MentorCard({ m }: { m: Mentor }) {
  const ct = useCopyT();
  return (
    <AppLink to={`/gdindex/dsFllow?id=${encodeURIComponent(m.mentorId)}`} className="card copy-mentor" data-testid="copy-mentor" data-mentor-id={m.mentorId}>
      <div className="record-row">
        <span className="copy-mentor-name" data-text="data" data-testid="copy-mentor-name">
          {m.displayName}
        </span>
        <LevelBadge level={m.level} />
      </div>
      <div className="copy-figures">
        <div>
          <div className="muted">{ct('stats.profit')}</div>
          <div className="num">{money(m.profit)}</div>
        </div>
        <div>
          <div className="muted">{ct('stats.winRate')}</div>
          <div className="num">{pct(m.winRate)}</div>
        </div>
        <div>
          <div className="muted">{ct('stats.copyAmount')}</div>
          <div className="num">{money(m.copyAmount)}</div>
        </div>
      </div>
    </AppLink>
  );
}

/** Every published figure of a mentor. */
export function MentorStats({ m }: { m: Mentor }) {
  const ct = useCopyT();
  const holding = useHolding();
  return (
    <div className="card" data-testid="copy-mentor-stats">
      <div className="record-row">
        <span className="copy-mentor-name" data-text="data" data-testid="copy-mentor-name">
          {m.displayName}
        </span>
        <LevelBadge level={m.level} />
      </div>
      <Row label={ct('stats.equity')} testId="copy-equity">
        {money(m.equity)}
      </Row>
      <Row label={ct('stats.profit')} testId="copy-profit">
        {money(m.profit)}
      </Row>
      <Row label={ct('stats.winRate')}>{pct(m.winRate)}</Row>
      <Row label={ct('stats.roundTrips')}>{m.roundTrips}</Row>
      <Row label={ct('stats.holding')}>{holding(m.avgHoldMinutes)}</Row>
      <Row label={ct('stats.dailyReturn')}>{pct(m.dailyReturn)}</Row>
      <Row label={ct('stats.copyAmount')} testId="copy-copy-amount">
        {money(m.copyAmount)}
      </Row>
      <Row label={ct('stats.followers')}>{m.followers}</Row>
      <Row label={ct('stats.minAmount')} testId="copy-min-amount">
        {money(m.minAmount)}
      </Row>
      <Row label={ct('stats.window')}>{ct('days', { n: m.windowDays })}</Row>
      <Row label={ct('stats.profitShare')}>{`${m.profitShare}%`}</Row>
      <p className="muted copy-note">{ct('statsNote')}</p>
    </div>
  );
}

/** A follow's profit: while in progress its current one (realised plus unrealised at the market's
 * last price, valued by the server on every read), labelled so; once stopped the settled one. */
export function FollowProfit({ f }: { f: Follow }) {
  const ct = useCopyT();
  return f.current ? (
    <Row label={ct('profitCurrent')} testId="copy-follow-profit">
      <span data-current="true">{money(f.current.profit)}</span>
    </Row>
  ) : (
    <Row label={ct('profitTotal')} testId="copy-follow-profit">
      {money(f.profit)}
    </Row>
  );
}

/** A follow on a list: mentor, state, amounts; opens its detail. */
export function FollowCard({ f }: { f: Follow }) {
  const ct = useCopyT();
  return (
    <AppLink to={`/gdindex/dsFllowInfo?id=${encodeURIComponent(f.followId)}`} className="record copy-follow" data-testid="copy-follow" data-follow-id={f.followId}>
      <div className="record-row">
        <span data-text="data">{f.mentorName}</span>
        <StateBadge state={f.state} />
      </div>
      <Row label={ct('committed')}>{money(f.amount)}</Row>
      <Row label={ct('spentTotal')}>{money(f.spent)}</Row>
      <FollowProfit f={f} />
    </AppLink>
  );
}
