import { useTranslation } from 'react-i18next';
import { ReviewActions } from '@/components/review/ReviewActions';
import { Field, ReviewPage } from '@/components/review/ReviewQueue';
import { api } from '@/lib/api/client';
import { money, taipeiTime } from '@/lib/filters';
import { type BlockApplication, blockApi } from './api';
import { BlockOpsNav } from './OpsNav';
import { useBlockT } from './texts';
import '@/domain/wallet/wallet.css';

function ApplicationItem({ a, onDone }: { a: BlockApplication; onDone: () => void }) {
  const { t } = useTranslation();
  const bt = useBlockT();
  return (
    <div className="record" data-testid="ops-block-application" data-order-no={a.orderNo} data-account={a.account} data-status={a.status}>
      <div className="record-row">
        <span className="record-amount">
          <span data-testid="quote-name">{a.name}</span> <span className="num">{a.symbol}</span>
        </span>
        <span className={`badge badge-${a.status}`}>{t(`funds.status.${a.status}`)}</span>
      </div>
      <Field label={bt('ops.account')}>
        <span className="num" data-testid="ops-block-account">
          {a.account ?? ''}
        </span>
      </Field>
      <Field label={bt('ops.memberName')}>
        <span data-testid="ops-block-member-name" data-text="data">{a.memberName || bt('ops.notVerified')}</span>
      </Field>
      <Field label={bt('appliedLots')}>{bt('lotsUnit', { n: a.lots })}</Field>
      <Field label={bt('price')}>
        <span className="num">{money(a.price)}</span>
      </Field>
      <Field label={bt('bid')}>
        <span className="num">{money(a.bid)}</span>
      </Field>
      <Field label={bt('amount')}>
        <span className="num">{money(a.amount)}</span>
      </Field>
      <Field label={bt('time')}>
        <span className="num">{taipeiTime(a.createdAt)}</span>
      </Field>
      <Field label={bt('orderNo')}>
        <span className="num">{a.orderNo}</span>
      </Field>
      {a.reviewedBy ? <Field label={bt('ops.reviewedBy')}>{a.reviewedBy}</Field> : null}
      {a.remark ? <Field label={bt('remark')}>{a.remark}</Field> : null}
      {a.status === 'pending' ? (
        <ReviewActions
          prefix="ops-block"
          confirmText={bt('ops.approveConfirm', { lots: a.lots, price: money(a.price) })}
          approve={(k) => blockApi.approve(a.orderNo, k)}
          reject={(remark, k) => blockApi.reject(a.orderNo, remark, k)}
          onDone={onDone}
        />
      ) : null}
    </div>
  );
}

/** Ops: block applications by status; approving fills one at the block's price into a holding. */
export default function OpsBlockApplicationsPage() {
  const { t } = useTranslation();
  const bt = useBlockT();
  return (
    <ReviewPage
      title={bt('ops.queue')}
      nav={<BlockOpsNav />}
      testId="ops-block-applications-page"
      statuses={['pending', 'approved', 'rejected'] as const}
      statusLabel={(s) => t(`funds.status.${s}`)}
      tabTestId="ops-block-tab"
      queueTestId="ops-block-queue"
      queryName="block"
      fetchPage={(status, page, signal) => api.get('/api/vue/ops/block/applications', { query: { status, page }, signal })}
      itemKey={(a) => a.orderNo}
      renderItem={(a, onDone) => <ApplicationItem a={a} onDone={onDone} />}
    />
  );
}
