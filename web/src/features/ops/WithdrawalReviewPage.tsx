import { useInfiniteQuery, useQueryClient } from '@tanstack/react-query';
import { InfiniteScroll, Tabs } from 'antd-mobile';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ListEmpty, ListLoading } from '@/components/ListState';
import { Page } from '@/components/Page';
import { PullRefresh } from '@/components/PullRefresh';
import { useAction } from '@/lib/action';
import { api, type DataOf } from '@/lib/api/client';
import { money, taipeiTime } from '@/lib/filters';
import { toast } from '@/lib/toast';
import { useWalletT } from '@/lib/wallet/i18n';
import { OpsNav } from './OpsNav';
import { ReviewActions } from './ReviewActions';

type Status = 'pending' | 'approved' | 'rejected';
type Withdrawal = DataOf<'/api/vue/ops/withdrawals', 'get'>['items'][number];
const key = (status: Status) => ['ops', 'withdrawals', status] as const;

function Field({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="record-row">
      <span className="muted">{label}</span>
      <span>{children}</span>
    </div>
  );
}

function WithdrawalItem({ d, onDone }: { d: Withdrawal; onDone: () => void }) {
  const { t } = useTranslation();
  const w = useWalletT();
  const amount = `${d.currency} ${money(d.amount)}`;
  const params = { orderNo: d.orderNo };
  const approve = useAction((_: void, k) => api.post('/api/vue/ops/withdrawals/{orderNo}/approve', {}, { params, idempotencyKey: k }), {
    onSuccess: () => {
      toast.show(t('ops.approved'));
      onDone();
    },
  });
  const reject = useAction((remark: string, k) => api.post('/api/vue/ops/withdrawals/{orderNo}/reject', { remark }, { params, idempotencyKey: k }), {
    onSuccess: () => {
      toast.show(t('ops.rejected'));
      onDone();
    },
  });
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
      <Field label={w('ops.bank')}>{`${d.bankName} ${d.branch}`}</Field>
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
          approving={approve.pending}
          rejecting={reject.pending}
          onApprove={() => approve.run()}
          onReject={(r) => reject.run(r)}
        />
      ) : null}
    </div>
  );
}

function Queue({ status }: { status: Status }) {
  const qc = useQueryClient();
  const q = useInfiniteQuery({
    queryKey: key(status),
    initialPageParam: 1,
    queryFn: ({ pageParam, signal }) => api.get('/api/vue/ops/withdrawals', { query: { status, page: pageParam }, signal }),
    getNextPageParam: (last) => (last.hasMore ? last.page + 1 : undefined),
  });
  const items = q.data?.pages.flatMap((p) => p.items) ?? [];
  const refreshAll = () => void qc.invalidateQueries({ queryKey: ['ops', 'withdrawals'] });
  return (
    <PullRefresh onRefresh={() => q.refetch()}>
      <div className="record-list" data-testid={`ops-withdrawal-queue-${status}`}>
        {q.isPending ? (
          <ListLoading />
        ) : items.length === 0 ? (
          <ListEmpty />
        ) : (
          <>
            {items.map((d) => (
              <WithdrawalItem key={d.orderNo} d={d} onDone={refreshAll} />
            ))}
            <InfiniteScroll hasMore={q.hasNextPage} loadMore={async () => void (await q.fetchNextPage({ throwOnError: true }))} />
          </>
        )}
      </div>
    </PullRefresh>
  );
}

/** Ops: the withdrawal queue with the card to pay out to; approve once paid, or reject with a remark. */
export default function WithdrawalReviewPage() {
  const { t } = useTranslation();
  const w = useWalletT();
  const [status, setStatus] = useState<Status>('pending');
  return (
    <Page title={w('ops.withdrawalsTitle')} testId="ops-withdrawals-page">
      <OpsNav />
      <Tabs activeKey={status} onChange={(k) => setStatus(k as Status)} className="record-tabs">
        {(['pending', 'approved', 'rejected'] as const).map((s) => (
          <Tabs.Tab key={s} title={<span data-testid={`ops-withdrawal-tab-${s}`}>{t(`funds.status.${s}`)}</span>} />
        ))}
      </Tabs>
      <Queue key={status} status={status} />
    </Page>
  );
}
