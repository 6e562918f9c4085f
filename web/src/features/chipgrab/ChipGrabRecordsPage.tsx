import { useTranslation } from 'react-i18next';
import { PagedRecordScreen, RecordLine } from '@/components/RecordScreen';
import { money, taipeiTime } from '@/lib/filters';
import { messageKey } from '@/lib/validation';
import { type Claim, useMyClaims } from './api';
import { useChipGrabT } from './texts';
import './chipgrab.css';

export function ClaimItem({ c }: { c: Claim }) {
  const { t } = useTranslation();
  const ct = useChipGrabT();
  return (
    <div className="record" data-testid="chipgrab-claim" data-order-no={c.orderNo} data-status={c.status}>
      <div className="record-row">
        <span className="record-amount">
          <span data-testid="quote-name">{c.name}</span> <span className="num">{c.symbol}</span>
        </span>
        <span className={`badge badge-chipgrab-${c.status}`} data-testid="chipgrab-claim-status">
          {ct(`claimStatus.${c.status}`)}
        </span>
      </div>
      <RecordLine label={ct('price')}>{money(c.price)}</RecordLine>
      <RecordLine label={ct('lots')} testId="chipgrab-claim-lots">
        {ct('lotsUnit', { n: c.lots })}
      </RecordLine>
      <RecordLine label={ct('amount')}>{money(c.amount)}</RecordLine>
      {c.reason ? (
        <RecordLine label={ct('reason')}>{t(messageKey(c.reason) as 'common.error')}</RecordLine>
      ) : null}
      <RecordLine label={ct('orderNo')}>{c.orderNo}</RecordLine>
      <RecordLine label={ct('time')}>{taipeiTime(c.createdAt)}</RecordLine>
    </div>
  );
}

/** The member's chip bids: lots taken, what was frozen, and whether they were allotted. */
export default function ChipGrabRecordsPage() {
  const ct = useChipGrabT();
  const q = useMyClaims();
  return (
    <PagedRecordScreen
      title={ct('records')}
      testId="chipgrab-records-page"
      listTestId="chipgrab-records"
      query={q}
      emptyText={ct('recordsEmpty')}
      itemKey={(c) => c.orderNo}
      render={(c) => <ClaimItem c={c} />}
    />
  );
}
