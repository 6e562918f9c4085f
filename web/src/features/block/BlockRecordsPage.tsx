import { RecordScreen } from '@/components/RecordScreen';
import { useTranslation } from 'react-i18next';
import { money, taipeiTime } from '@/lib/filters';
import { type BlockApplication, useMyApplications } from './api';
import { useBlockT } from './texts';
import './block.css';

function Line({ label, children, testId }: { label: string; children: React.ReactNode; testId?: string }) {
  return (
    <div className="record-row muted">
      <span>{label}</span>
      <span className="num" data-testid={testId}>
        {children}
      </span>
    </div>
  );
}

function ApplicationItem({ a }: { a: BlockApplication }) {
  const { t } = useTranslation();
  const bt = useBlockT();
  return (
    <div className="record" data-testid="block-application" data-order-no={a.orderNo} data-status={a.status}>
      <div className="record-row">
        <span className="record-amount">
          <span data-testid="quote-name">{a.name}</span> <span className="num">{a.symbol}</span>
        </span>
        <span className={`badge badge-${a.status}`} data-testid="block-application-status">
          {t(`funds.status.${a.status}`)}
        </span>
      </div>
      <Line label={bt('price')}>{money(a.price)}</Line>
      <Line label={bt('bid')}>{money(a.bid)}</Line>
      <Line label={bt('appliedLots')} testId="block-application-lots">
        {bt('lotsUnit', { n: a.lots })}
      </Line>
      <Line label={bt('filledLots')} testId="block-application-filled">
        {bt('lotsUnit', { n: a.filledLots })}
      </Line>
      <Line label={bt('amount')}>{money(a.amount)}</Line>
      <Line label={bt('orderNo')}>{a.orderNo}</Line>
      <Line label={bt('time')}>{taipeiTime(a.createdAt)}</Line>
      {a.remark ? <Line label={bt('remark')}>{a.remark}</Line> : null}
    </div>
  );
}

/** The member's block applications: applied and filled lots, what was frozen, the review's state. */
export default function BlockRecordsPage() {
  const bt = useBlockT();
  const q = useMyApplications();
  return (
    <RecordScreen
      title={bt('records')}
      testId="block-records-page"
      listTestId="block-records"
      pending={q.isPending}
      items={q.data?.pages.flatMap((p) => p.items) ?? []}
      emptyText={bt('recordsEmpty')}
      onRefresh={() => q.refetch()}
      itemKey={(a) => a.orderNo}
      render={(a) => <ApplicationItem a={a} />}
      pages={q}
    />
  );
}
