import { useTranslation } from 'react-i18next';
import { ReviewActions } from '@/components/review/ReviewActions';
import { Field, ReviewPage } from '@/components/review/ReviewQueue';
import { api } from '@/lib/api/client';
import { taipeiTime } from '@/lib/filters';
import { type SeatApplication, creditApi } from './api';
import { CreditOpsNav } from './OpsNav';
import { useCreditT } from './texts';
import '@/domain/wallet/wallet.css';

function SeatItem({ s, onDone }: { s: SeatApplication; onDone: () => void }) {
  const { t } = useTranslation();
  const ct = useCreditT();
  return (
    <div className="record" data-testid="ops-credit-seat" data-order-no={s.orderNo} data-account={s.account} data-status={s.status}>
      <div className="record-row">
        <span className="record-amount">{s.account}</span>
        <span className={`badge badge-${s.status}`}>{t(`funds.status.${s.status}`)}</span>
      </div>
      <Field label={ct('time')}>
        <span className="num">{taipeiTime(s.createdAt)}</span>
      </Field>
      <Field label={ct('orderNo')}>
        <span className="num">{s.orderNo}</span>
      </Field>
      {s.reviewedBy ? <Field label={ct('ops.reviewedBy')}>{s.reviewedBy}</Field> : null}
      {s.remark ? <Field label={ct('remark')}>{s.remark}</Field> : null}
      {s.status === 'pending' ? (
        <ReviewActions
          prefix="ops-seat"
          confirmText={ct('ops.seatConfirm')}
          approve={(k) => creditApi.approveSeat(s.orderNo, k)}
          reject={(remark, k) => creditApi.rejectSeat(s.orderNo, remark, k)}
          onDone={onDone}
        />
      ) : null}
    </div>
  );
}

/** Ops: seat account applications by status. */
export default function OpsSeatsPage() {
  const { t } = useTranslation();
  const ct = useCreditT();
  return (
    <ReviewPage
      title={ct('ops.seats')}
      nav={<CreditOpsNav />}
      testId="ops-credit-seats-page"
      statuses={['pending', 'approved', 'rejected'] as const}
      statusLabel={(s) => t(`funds.status.${s}`)}
      tabTestId="ops-seat-tab"
      queueTestId="ops-seat-queue"
      queryName="credit-seats"
      fetchPage={(status, page, signal) => api.get('/api/vue/ops/credit/seats', { query: { status, page }, signal })}
      itemKey={(s) => s.orderNo}
      renderItem={(s, onDone) => <SeatItem s={s} onDone={onDone} />}
    />
  );
}
