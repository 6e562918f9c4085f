import { useTranslation } from 'react-i18next';
import { AuthedImage } from '@/components/AuthedImage';
import { OrderNo } from '@/components/OrderNo';
import { api, type DataOf } from '@/lib/api/client';
import { channelName } from '@/domain/wallet/channels';
import { money, taipeiTime } from '@/lib/filters';
import { ReviewActions } from '@/components/review/ReviewActions';
import { Field, ReviewPage } from '@/components/review/ReviewQueue';
import { OpsNav } from './OpsNav';

type OpsDeposit = DataOf<'/api/vue/ops/deposits', 'get'>['items'][number];

function DepositItem({ d, onDone }: { d: OpsDeposit; onDone: () => void }) {
  const { t } = useTranslation();
  const amount = `${d.currency} ${money(d.amount)}`;
  const params = { orderNo: d.orderNo };
  return (
    <div className="record" data-testid="ops-deposit" data-order-no={d.orderNo} data-account={d.account}>
      <div className="record-row">
        <span className="record-amount num" data-testid="ops-deposit-amount">
          {amount}
        </span>
        <span className={`badge badge-${d.status}`}>{t(`funds.status.${d.status}`)}</span>
      </div>
      <div className="ops-body">
        <AuthedImage id={d.proofFileId} testId="ops-deposit-proof" width={88} height={88} />
        <div className="ops-fields">
          <Field label={t('ops.account')} testId="ops-deposit-account">
            {d.account}
          </Field>
          <Field label={t('ops.channel')} testId="ops-deposit-channel">
            {channelName(t, d.channelName)}
          </Field>
          <Field label={t('ops.time')}>
            <span className="num">{taipeiTime(d.createdAt)}</span>
          </Field>
          <div className="record-row">
            <span className="muted">{t('funds.orderNo')}</span>
            <OrderNo value={d.orderNo} testId="ops-deposit-order-no" />
          </div>
          {d.remark ? <Field label={t('ops.remark')}>{d.remark}</Field> : null}
        </div>
      </div>
      {d.status === 'pending' ? (
        <ReviewActions
          prefix="ops"
          confirmText={t('ops.approveConfirm', { amount })}
          approve={(k) => api.post('/api/vue/ops/deposits/{orderNo}/approve', {}, { params, idempotencyKey: k })}
          reject={(remark, k) => api.post('/api/vue/ops/deposits/{orderNo}/reject', { remark }, { params, idempotencyKey: k })}
          onDone={onDone}
        />
      ) : null}
    </div>
  );
}

/** Ops: the deposit review queue with the proof image, approve, reject with remark. */
export default function DepositReviewPage() {
  const { t } = useTranslation();
  return (
    <ReviewPage
      nav={<OpsNav />}
      title={t('ops.depositsTitle')}
      testId="ops-deposits-page"
      statuses={['pending', 'approved', 'rejected'] as const}
      statusLabel={(s) => t(`funds.status.${s}`)}
      tabTestId="ops-tab"
      queueTestId="ops-queue"
      queryName="deposits"
      fetchPage={(status, page, signal) => api.get('/api/vue/ops/deposits', { query: { status, page }, signal })}
      itemKey={(d) => d.orderNo}
      renderItem={(d, onDone) => <DepositItem d={d} onDone={onDone} />}
    />
  );
}
