import { PagedRecordScreen, RecordLine } from '@/components/RecordScreen';
import { money, taipeiTime } from '@/lib/filters';
import { type LoanRecord, useMyLoans } from './api';
import { useCreditT } from './texts';
import './credit.css';

function LoanItem({ l }: { l: LoanRecord }) {
  const ct = useCreditT();
  return (
    <div className="record" data-testid="credit-loan" data-order-no={l.orderNo} data-status={l.status}>
      <div className="record-row">
        <span className="record-amount num" data-testid="credit-loan-amount">
          {money(l.amount)}
        </span>
        <span className={`badge badge-credit-${l.status}`} data-testid="credit-loan-status">
          {ct(`status.${l.status}`)}
        </span>
      </div>
      {l.status === 'outstanding' || l.status === 'repaid' ? (
        <>
          <RecordLine label={ct('outstanding')} testId="credit-loan-debt">
            {money(l.debt)}
          </RecordLine>
          <RecordLine label={ct('repaid')}>{money(l.repaid)}</RecordLine>
          <RecordLine label={ct('interestTotal')}>{money(l.interestTotal)}</RecordLine>
          {l.disbursedDay ? <RecordLine label={ct('disbursedDay')}>{l.disbursedDay}</RecordLine> : null}
        </>
      ) : null}
      <RecordLine label={ct('orderNo')}>{l.orderNo}</RecordLine>
      <RecordLine label={ct('time')}>{taipeiTime(l.createdAt)}</RecordLine>
      {l.remark ? <RecordLine label={ct('remark')}>{l.remark}</RecordLine> : null}
    </div>
  );
}

/** Loan records (/user/jkjl): every loan with its amount, time, order number and status. */
export default function LoanRecordsPage() {
  const ct = useCreditT();
  const q = useMyLoans();
  return (
    <PagedRecordScreen
      title={ct('records')}
      testId="credit-records-page"
      listTestId="credit-records"
      query={q}
      emptyText={ct('recordsEmpty')}
      itemKey={(l) => l.orderNo}
      render={(l) => <LoanItem l={l} />}
    />
  );
}
