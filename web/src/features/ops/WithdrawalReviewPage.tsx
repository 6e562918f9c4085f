import { useTranslation } from 'react-i18next';
import { api, type DataOf } from '@/lib/api/client';
import { money, taipeiTime } from '@/lib/filters';
import { useWalletT } from '@/domain/wallet/texts';
import { bankName } from '@/domain/wallet/banks';
import { ReviewActions } from '@/components/review/ReviewActions';
import { Field, ReviewPage } from '@/components/review/ReviewQueue';
import { OpsNav } from './OpsNav';

type Withdrawal = DataOf<'/api/vue/ops/withdrawals', 'get'>['items'][number];

function WithdrawalItem({ d, onDone }: { d: Withdrawal; onDone: () => void }) {
  const { t, i18n } = useTranslation();
  const w = useWalletT();
  const amount = `${d.currency} ${money(d.amount)}`;
  const params = { orderNo: d.orderNo };
  return (
    <div className="record" data-testid="ops-withdrawal" data-order-no={d.orderNo} data-account={d.account} data-status={d.status}>
      <div className="record-row">
        <span className="record-amount num" data-testid="ops-withdrawal-amount">
          {amount}
        </span>
        <span className={`badge badge-${d.status}`}>{t(`funds.status.${d.status}`)}</span>
      </div>
      <Field label={t('ops.account')}>{d.account}</Field>
      <Field label={w('ops.holder')}>{d.holderName}</Field>
      <Field label={w('ops.bank')}>{`${d.bankCode} ${bankName(d.bankCode, i18n.language) ?? d.bankName} ${d.branch}`}</Field>
      <Field label={w('ops.bankCode')}>
        <span className="num">{d.bankCode}</span>
      </Field>
      <Field label={w('ops.card')}>
        <span className="num" data-testid="ops-withdrawal-card">
          {d.cardNumberMasked}
        </span>
      </Field>
      <Field label={t('ops.time')}>
        <span className="num">{taipeiTime(d.createdAt)}</span>
      </Field>
      <Field label={t('funds.orderNo')}>
        <span className="num">{d.orderNo}</span>
      </Field>
      {d.reviewedBy ? <Field label={w('ops.reviewedBy')}>{d.reviewedBy}</Field> : null}
      {d.remark ? <Field label={t('ops.remark')}>{d.remark}</Field> : null}
      {d.status === 'pending' ? (
        <ReviewActions
          prefix="ops-withdrawal"
          confirmText={w('ops.approveWithdrawal', { amount })}
          approve={(k) => api.post('/api/vue/ops/withdrawals/{orderNo}/approve', {}, { params, idempotencyKey: k })}
          reject={(remark, k) => api.post('/api/vue/ops/withdrawals/{orderNo}/reject', { remark }, { params, idempotencyKey: k })}
          onDone={onDone}
        />
      ) : null}
    </div>
  );
}

/** Ops: the withdrawal queue with the card to pay out to; approve once paid, or reject with a remark. */
export default function WithdrawalReviewPage() {
  const { t } = useTranslation();
  const w = useWalletT();
  return (
    <ReviewPage
      nav={<OpsNav />}
      title={w('ops.withdrawalsTitle')}
      testId="ops-withdrawals-page"
      statuses={['pending', 'approved', 'rejected'] as const}
      statusLabel={(s) => t(`funds.status.${s}`)}
      tabTestId="ops-withdrawal-tab"
      queueTestId="ops-withdrawal-queue"
      queryName="withdrawals"
      fetchPage={(status, page, signal) => api.get('/api/vue/ops/withdrawals', { query: { status, page }, signal })}
      itemKey={(d) => d.orderNo}
      renderItem={(d, onDone) => <WithdrawalItem d={d} onDone={onDone} />}
    />
  );
}
