import { PagedRecordScreen, RecordLine } from '@/components/RecordScreen';
import { useTranslation } from 'react-i18next';
import { money, taipeiTime } from '@/lib/filters';
import { type BlockApplication, useMyApplications } from './api';
import { useBlockT } from './texts';
import './block.css';

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
      <RecordLine label={bt('price')}>{money(a.price)}</RecordLine>
      <RecordLine label={bt('bid')}>{money(a.bid)}</RecordLine>
      <RecordLine label={bt('appliedLots')} testId="block-application-lots">
        {bt('lotsUnit', { n: a.lots })}
      </RecordLine>
      <RecordLine label={bt('filledLots')} testId="block-application-filled">
        {bt('lotsUnit', { n: a.filledLots })}
      </RecordLine>
      <RecordLine label={bt('amount')}>{money(a.amount)}</RecordLine>
      <RecordLine label={bt('orderNo')}>{a.orderNo}</RecordLine>
      <RecordLine label={bt('time')}>{taipeiTime(a.createdAt)}</RecordLine>
      {a.remark ? <RecordLine label={bt('remark')}>{a.remark}</RecordLine> : null}
    </div>
  );
}

/** The member's block applications: applied and filled lots, what was frozen, the review's state. */
export default function BlockRecordsPage() {
  const bt = useBlockT();
  const q = useMyApplications();
  return (
    <PagedRecordScreen
      title={bt('records')}
      testId="block-records-page"
      listTestId="block-records"
      query={q}
      emptyText={bt('recordsEmpty')}
      itemKey={(a) => a.orderNo}
      render={(a) => <ApplicationItem a={a} />}
    />
  );
}
