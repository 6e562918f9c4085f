import { RecordScreen } from '@/components/RecordScreen';
import { money, taipeiTime } from '@/lib/filters';
import { type LoanRecord, useMyLoans } from './api';
import { useCreditT } from './texts';
import './credit.css';

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
          <Line label={ct('outstanding')} testId="credit-loan-debt">
            {money(l.debt)}
          </Line>
          <Line label={ct('repaid')}>{money(l.repaid)}</Line>
          <Line label={ct('interestTotal')}>{money(l.interestTotal)}</Line>
          {l.disbursedDay ? <Line label={ct('disbursedDay')}>{l.disbursedDay}</Line> : null}
        </>
      ) : null}
      <Line label={ct('orderNo')}>{l.orderNo}</Line>
      <Line label={ct('time')}>{taipeiTime(l.createdAt)}</Line>
      {l.remark ? <Line label={ct('remark')}>{l.remark}</Line> : null}
    </div>
  );
}

/** Loan records (/user/jkjl): every loan with its amount, time, order number and status. */
export default function LoanRecordsPage() {
  const ct = useCreditT();
  const q = useMyLoans();
  return (
    <RecordScreen
      title={ct('records')}
      testId="credit-records-page"
      listTestId="credit-records"
      pending={q.isPending}
      items={q.data?.pages.flatMap((p) => p.items) ?? []}
      emptyText={ct('recordsEmpty')}
      onRefresh={() => q.refetch()}
      itemKey={(l) => l.orderNo}
      render={(l) => <LoanItem l={l} />}
      pages={q}
    />
  );
}
