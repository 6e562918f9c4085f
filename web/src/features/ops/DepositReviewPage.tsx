import { useInfiniteQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Dialog, InfiniteScroll, Tabs } from 'antd-mobile';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AuthedImage } from '@/components/AuthedImage';
import { FormError } from '@/components/FormError';
import { ListEmpty, ListLoading } from '@/components/ListState';
import { Page } from '@/components/Page';
import { OrderNo } from '@/components/OrderNo';
import { PullRefresh } from '@/components/PullRefresh';
import { useAction } from '@/lib/action';
import { api, type DataOf } from '@/lib/api/client';
import { channelName } from '@/lib/channels';
import { money, taipeiTime } from '@/lib/filters';
import { toast } from '@/lib/toast';
import { OpsNav } from './OpsNav';
import { validateReject } from './validation';

type Status = 'pending' | 'approved' | 'rejected';
type OpsDeposit = DataOf<'/api/vue/ops/deposits', 'get'>['items'][number];
const key = (status: Status) => ['ops', 'deposits', status] as const;

function DepositItem({ d, onDone }: { d: OpsDeposit; onDone: () => void }) {
  const { t } = useTranslation();
  const [rejecting, setRejecting] = useState(false);
  const [remark, setRemark] = useState('');
  const [err, setErr] = useState<string | null>(null);
  const amount = `${d.currency} ${money(d.amount)}`;

  const approve = useAction((_: void, k) => api.post('/api/vue/ops/deposits/{orderNo}/approve', {}, { params: { orderNo: d.orderNo }, idempotencyKey: k }), {
    onSuccess: () => {
      toast.show(t('ops.approved'));
      onDone();
    },
  });
  const reject = useAction((r: string, k) => api.post('/api/vue/ops/deposits/{orderNo}/reject', { remark: r }, { params: { orderNo: d.orderNo }, idempotencyKey: k }), {
    onSuccess: () => {
      toast.show(t('ops.rejected'));
      onDone();
    },
  });

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
          <div className="record-row">
            <span className="muted">{t('ops.account')}</span>
            <span data-testid="ops-deposit-account">{d.account}</span>
          </div>
          <div className="record-row">
            <span className="muted">{t('ops.channel')}</span>
            <span data-testid="ops-deposit-channel">{channelName(t, d.channelName)}</span>
          </div>
          <div className="record-row">
            <span className="muted">{t('ops.time')}</span>
            <span className="num">{taipeiTime(d.createdAt)}</span>
          </div>
          <div className="record-row">
            <span className="muted">{t('funds.orderNo')}</span>
            <OrderNo value={d.orderNo} testId="ops-deposit-order-no" />
          </div>
          {d.remark ? (
            <div className="record-row">
              <span className="muted">{t('ops.remark')}</span>
              <span>{d.remark}</span>
            </div>
          ) : null}
        </div>
      </div>
      {d.status === 'pending' ? (
        rejecting ? (
          <div className="ops-reject">
            <input
              className="ops-remark"
              data-testid="ops-reject-remark"
              value={remark}
              onChange={(e) => {
                setRemark(e.target.value);
                setErr(null);
              }}
              placeholder={t('ops.remarkPlaceholder')}
              maxLength={200}
            />
            <FormError errorKey={err} />
            <div className="ops-actions">
              <Button size="small" onClick={() => setRejecting(false)}>
                {t('common.cancel')}
              </Button>
              <Button
                size="small"
                color="danger"
                loading={reject.pending}
                data-testid="ops-reject-confirm"
                onClick={() => {
                  const fe = validateReject(remark);
                  setErr(fe?.key ?? null);
                  if (!fe) reject.run(remark.trim());
                }}
              >
                {t('ops.reject')}
              </Button>
            </div>
          </div>
        ) : (
          <div className="ops-actions">
            <Button size="small" data-testid="ops-reject" onClick={() => setRejecting(true)}>
              {t('ops.reject')}
            </Button>
            <Button
              size="small"
              color="primary"
              loading={approve.pending}
              data-testid="ops-approve"
              onClick={() =>
                void Dialog.confirm({
                  content: t('ops.approveConfirm', { amount }),
                  confirmText: t('ops.approve'),
                  cancelText: t('common.cancel'),
                  onConfirm: () => approve.run(),
                })
              }
            >
              {t('ops.approve')}
            </Button>
          </div>
        )
      ) : null}
    </div>
  );
}

function Queue({ status }: { status: Status }) {
  const qc = useQueryClient();
  const q = useInfiniteQuery({
    queryKey: key(status),
    initialPageParam: 1,
    queryFn: ({ pageParam, signal }) => api.get('/api/vue/ops/deposits', { query: { status, page: pageParam }, signal }),
    getNextPageParam: (last) => (last.hasMore ? last.page + 1 : undefined),
  });
  const items = q.data?.pages.flatMap((p) => p.items) ?? [];
  const refreshAll = () => void qc.invalidateQueries({ queryKey: ['ops', 'deposits'] });
  return (
    <PullRefresh onRefresh={() => q.refetch()}>
      <div className="record-list" data-testid={`ops-queue-${status}`}>
        {q.isPending ? (
          <ListLoading />
        ) : items.length === 0 ? (
          <ListEmpty />
        ) : (
          <>
            {items.map((d) => (
              <DepositItem key={d.orderNo} d={d} onDone={refreshAll} />
            ))}
            <InfiniteScroll hasMore={q.hasNextPage} loadMore={async () => void (await q.fetchNextPage({ throwOnError: true }))} />
          </>
        )}
      </div>
    </PullRefresh>
  );
}

/** Ops: the deposit review queue with the proof image, approve, reject with remark. */
export default function DepositReviewPage() {
  const { t } = useTranslation();
  const [status, setStatus] = useState<Status>('pending');
  return (
    <Page title={t('ops.depositsTitle')} testId="ops-deposits-page">
      <OpsNav />
      <Tabs activeKey={status} onChange={(k) => setStatus(k as Status)} className="record-tabs">
        {(['pending', 'approved', 'rejected'] as const).map((s) => (
          <Tabs.Tab key={s} title={<span data-testid={`ops-tab-${s}`}>{t(`funds.status.${s}`)}</span>} />
        ))}
      </Tabs>
      <Queue key={status} status={status} />
    </Page>
  );
}
