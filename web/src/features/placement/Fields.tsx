import { Row } from '@/domain/offering/Row';
import { money, taipeiTime } from '@/lib/filters';
import type { Application, Placement } from './api';
import { usePlacementT } from './texts';

/** The placement's name, code and state. */
export function PlacementHead({ p }: { p: Placement }) {
  const s = usePlacementT();
  return (
    <div className="record-row">
      <span>
        <span data-testid="quote-name">{p.name}</span> <span className="muted num">{p.symbol}</span>
      </span>
      <span className={`badge badge-${p.state}`} data-testid="placement-state" data-state={p.state}>
        {s(`state.${p.state}`)}
      </span>
    </div>
  );
}

/** A placement's published terms and calendar. */
export function PlacementFields({ p }: { p: Placement }) {
  const s = usePlacementT();
  return (
    <>
      <Row label={s('field.price')} testId="placement-price">
        {money(p.price)}
      </Row>
      <Row label={s('field.lots')}>{p.lots}</Row>
      <Row label={s('field.maxLots')}>{p.maxLotsPerMember}</Row>
      <Row label={s('field.opensAt')}>{taipeiTime(p.opensAt)}</Row>
      <Row label={s('field.closesAt')}>{taipeiTime(p.closesAt)}</Row>
      <Row label={s('field.listingDate')}>{p.listingDate}</Row>
      <Row label={s('field.applications')}>{p.applications}</Row>
      {p.allotted ? <Row label={s('field.allottedShares')}>{s('shares', { n: p.allottedShares })}</Row> : null}
    </>
  );
}

/** One application and what it was allotted. */
export function ApplicationCard({ a }: { a: Application }) {
  const s = usePlacementT();
  return (
    <div className="card record" data-testid="placement-application" data-state={a.state}>
      <div className="record-row">
        <span>
          <span data-testid="quote-name">{a.name}</span> <span className="muted num">{a.symbol}</span>
        </span>
        <span className={`badge badge-${a.state}`} data-testid="placement-app-state">
          {s(`appState.${a.state}`)}
        </span>
      </div>
      <Row label={s('field.appLots')}>{a.lots}</Row>
      <Row label={s('field.amount')}>{money(a.amount)}</Row>
      {a.state !== 'applied' ? (
        <>
          <Row label={s('field.allotted')} testId="placement-app-allotted">
            {s('shares', { n: a.allotted })}
          </Row>
          <Row label={s('field.cost')}>{money(a.cost)}</Row>
          <Row label={s('field.refunded')} testId="placement-app-refunded">
            {money(a.refunded)}
          </Row>
        </>
      ) : null}
      <Row label={s('field.applicationNo')}>{a.applicationNo}</Row>
      <Row label={s('field.appliedAt')}>{taipeiTime(a.appliedAt)}</Row>
    </div>
  );
}
