import { Row } from '@/domain/offering/Row';
import { money, taipeiTime } from '@/lib/filters';
import type { Issue } from './api';
import { useSubT } from './texts';
import './subscription.css';

/** An issue's published figures and calendar, as the spec lists them. */
export function IssueFields({ is }: { is: Issue }) {
  const s = useSubT();
  return (
    <>
      <Row label={s('field.price')} testId="sub-price">
        {money(is.price)}
      </Row>
      <Row label={s('field.referencePrice')}>{money(is.referencePrice)}</Row>
      <Row label={s('field.lots')}>{is.lots}</Row>
      <Row label={s('field.unit')}>{s('field.unitLots', { lots: is.unitLots, shares: is.unitLots * is.lotShares })}</Row>
      <Row label={s('field.amount')} testId="sub-amount">
        {money(is.amount)}
      </Row>
      <Row label={s('field.opensAt')}>{taipeiTime(is.opensAt)}</Row>
      <Row label={s('field.closesAt')}>{taipeiTime(is.closesAt)}</Row>
      <Row label={s('field.drawDate')}>{is.drawDate}</Row>
      <Row label={s('field.deductionDate')}>{is.deductionDate}</Row>
      <Row label={s('field.refundDate')}>{is.refundDate}</Row>
      <Row label={s('field.listingDate')}>{is.listingDate}</Row>
      <Row label={s('field.pe')}>{is.pe}</Row>
      <Row label={s('field.industryPe')}>{is.industryPe}</Row>
    </>
  );
}

/** An issue's name, code and state badge: the heading of its card. */
export function IssueHeading({ is }: { is: Pick<Issue, 'name' | 'symbol' | 'state'> }) {
  return (
    <div className="record-row">
      <span>
        <span data-testid="quote-name">{is.name}</span> <span className="muted num">{is.symbol}</span>
      </span>
      <StateBadge state={is.state} />
    </div>
  );
}

/** The issue's state badge. */
function StateBadge({ state }: { state: Issue['state'] }) {
  const s = useSubT();
  return (
    <span className={`badge badge-${state}`} data-testid="sub-state" data-state={state}>
      {s(`state.${state}`)}
    </span>
  );
}
