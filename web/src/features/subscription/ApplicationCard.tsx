import { Row } from '@/domain/offering/Row';
import { money, taipeiTime } from '@/lib/filters';
import type { Application } from './api';
import { useSubT } from './texts';

/** One application: applied lots, subscribed amount, lottery result and allotment state. */
export function ApplicationCard({ a, title }: { a: Application; title?: boolean }) {
  const s = useSubT();
  return (
    <div className="card record" data-testid="sub-application" data-state={a.state} data-result={a.result} data-application={a.applicationNo}>
      {title ? (
        <div className="record-row">
          <span>
            <span data-testid="quote-name">{a.name}</span> <span className="muted num">{a.symbol}</span>
          </span>
          <span className={`badge badge-${a.state}`} data-testid="sub-allotment">
            {s(`allotment.${a.state}`)}
          </span>
        </div>
      ) : (
        <Row label={s('field.state')} testId="sub-allotment">
          {s(`allotment.${a.state}`)}
        </Row>
      )}
      <Row label={s('field.lotteryResult')} testId="sub-result">
        {s(`result.${a.result}`)}
      </Row>
      <Row label={s('field.appliedLots')}>{a.lots}</Row>
      <Row label={s('field.subscribedAmount')}>{money(a.amount)}</Row>
      <Row label={s('field.fee')}>{money(a.fee)}</Row>
      {a.postage !== '0.00' ? <Row label={s('field.postage')}>{money(a.postage)}</Row> : null}
      {a.refunded !== '0.00' ? (
        <Row label={s('field.refunded')} testId="sub-refunded">
          {money(a.refunded)}
        </Row>
      ) : null}
      {a.allotted > 0 ? (
        <Row label={s('field.allotted')} testId="sub-allotted">
          {s('shares', { n: a.allotted })}
        </Row>
      ) : null}
      <Row label={s('field.drawDate')}>{a.drawDate}</Row>
      <Row label={s('field.listingDate')}>{a.listingDate}</Row>
      <Row label={s('field.applicationNo')}>{a.applicationNo}</Row>
      <Row label={s('field.appliedAt')}>{taipeiTime(a.appliedAt)}</Row>
    </div>
  );
}
