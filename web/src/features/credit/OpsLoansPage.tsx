import { ReviewActions } from '@/components/review/ReviewActions';
import { Field, ReviewPage } from '@/components/review/ReviewQueue';
import { api } from '@/lib/api/client';
import { money, taipeiTime } from '@/lib/filters';
import { type LoanRecord, creditApi } from './api';
import { CreditOpsNav } from './OpsNav';
import { useCreditT } from './texts';
import '@/domain/wallet/wallet.css';

function LoanItem({ l, onDone }: { l: LoanRecord; onDone: () => void }) {
  const ct = useCreditT();
  return (
    <div className="record" data-testid="ops-credit-loan" data-order-no={l.orderNo} data-account={l.account} data-status={l.status}>
      <div className="record-row">
        <span className="record-amount num">{money(l.amount)}</span>
        <span className={`badge badge-credit-${l.status}`}>{ct(`status.${l.status}`)}</span>
      </div>
      <Field label={ct('ops.account')}>{l.account ?? ''}</Field>
      <Field label={ct('annualRate')}>
        <span className="num">{`${Math.round(Number(l.annualRate) * 10000) / 100}%`}</span>
      </Field>
      {l.status !== 'pending' && l.status !== 'rejected' ? (
        <Field label={ct('outstanding')}>
          <span className="num">{money(l.debt)}</span>
        </Field>
      ) : null}
      <Field label={ct('time')}>
        <span className="num">{taipeiTime(l.createdAt)}</span>
      </Field>
      <Field label={ct('orderNo')}>
        <span className="num">{l.orderNo}</span>
      </Field>
      {l.reviewedBy ? <Field label={ct('ops.reviewedBy')}>{l.reviewedBy}</Field> : null}
      {l.remark ? <Field label={ct('remark')}>{l.remark}</Field> : null}
      {l.status === 'pending' ? (
        <ReviewActions
          prefix="ops-credit"
          confirmText={ct('ops.approveConfirm', { amount: money(l.amount) })}
          approve={(k) => creditApi.approveLoan(l.orderNo, k)}
          reject={(remark, k) => creditApi.rejectLoan(l.orderNo, remark, k)}
          onDone={onDone}
        />
      ) : null}
    </div>
  );
}

/** Ops: loans by status; approving one disburses it into the member's cash. */
export default function OpsLoansPage() {
  const ct = useCreditT();
  return (
    <ReviewPage
      title={ct('ops.loans')}
      nav={<CreditOpsNav />}
      testId="ops-credit-loans-page"
      statuses={['pending', 'outstanding', 'repaid', 'rejected'] as const}
      statusLabel={(s) => ct(`status.${s}` as 'status.pending')}
      tabTestId="ops-credit-tab"
      queueTestId="ops-credit-queue"
      queryName="credit-loans"
      fetchPage={(status, page, signal) => api.get('/api/vue/ops/credit/loans', { query: { status, page }, signal })}
      itemKey={(l) => l.orderNo}
      renderItem={(l, onDone) => <LoanItem l={l} onDone={onDone} />}
    />
  );
}
