import { useTranslation } from 'react-i18next';
import { RecordScreen } from '@/components/RecordScreen';
import { money, taipeiTime } from '@/lib/filters';
import { messageKey } from '@/lib/validation';
import { type Claim, useMyClaims } from './api';
import { useChipGrabT } from './texts';
import './chipgrab.css';

export function ClaimItem({ c }: { c: Claim }) {
  const { t } = useTranslation();
  const ct = useChipGrabT();
  const row = (label: string, value: string, testId?: string) => (
    <div className="record-row muted">
      <span>{label}</span>
      <span className="num" data-testid={testId}>
        {value}
      </span>
    </div>
  );
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
      {row(ct('price'), money(c.price))}
      {row(ct('lots'), ct('lotsUnit', { n: c.lots }), 'chipgrab-claim-lots')}
      {row(ct('amount'), money(c.amount))}
      {c.reason ? row(ct('reason'), t(messageKey(c.reason) as 'common.error')) : null}
      {row(ct('orderNo'), c.orderNo)}
      {row(ct('time'), taipeiTime(c.createdAt))}
    </div>
  );
}

/** The member's chip bids: lots taken, what was frozen, and whether they were allotted. */
export default function ChipGrabRecordsPage() {
  const ct = useChipGrabT();
  const q = useMyClaims();
  return (
    <RecordScreen
      title={ct('records')}
      testId="chipgrab-records-page"
      listTestId="chipgrab-records"
      pending={q.isPending}
      items={q.data?.pages.flatMap((p) => p.items) ?? []}
      emptyText={ct('recordsEmpty')}
      onRefresh={() => q.refetch()}
      itemKey={(c) => c.orderNo}
      render={(c) => <ClaimItem c={c} />}
      pages={q}
    />
  );
}
