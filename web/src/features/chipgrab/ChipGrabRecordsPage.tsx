import { useTranslation } from 'react-i18next';
import { ListEmpty, ListLoading, MoreOnScroll } from '@/components/ListState';
import { Page } from '@/components/Page';
import { PullRefresh } from '@/components/PullRefresh';
import { money, taipeiTime } from '@/lib/filters';
import { messageKey } from '@/lib/validation';
import { type Claim, useMyClaims } from './api';
import { useChipGrabT } from './texts';
import './chipgrab.css';

function ClaimItem({ c }: { c: Claim }) {
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
  const items = q.data?.pages.flatMap((p) => p.items) ?? [];
  return (
    <Page title={ct('records')} testId="chipgrab-records-page">
      <PullRefresh onRefresh={() => q.refetch()}>
        <div className="record-list" data-testid="chipgrab-records">
          {q.isPending ? (
            <ListLoading />
          ) : items.length === 0 ? (
            <ListEmpty text={ct('recordsEmpty')} />
          ) : (
            <>
              {items.map((c) => (
                <ClaimItem key={c.orderNo} c={c} />
              ))}
              <MoreOnScroll q={q} />
            </>
          )}
        </div>
      </PullRefresh>
    </Page>
  );
}
