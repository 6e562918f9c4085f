import { useInfiniteQuery, useQueryClient } from '@tanstack/react-query';
import { InfiniteScroll, Tabs } from 'antd-mobile';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AuthedImage } from '@/components/AuthedImage';
import { ListEmpty, ListLoading } from '@/components/ListState';
import { Page } from '@/components/Page';
import { PullRefresh } from '@/components/PullRefresh';
import { useAction } from '@/lib/action';
import { api, type DataOf } from '@/lib/api/client';
import { taipeiTime } from '@/lib/filters';
import { toast } from '@/lib/toast';
import { useWalletT } from '@/lib/wallet/i18n';
import { OpsNav } from './OpsNav';
import { ReviewActions } from './ReviewActions';

type Status = 'pending' | 'verified' | 'rejected';
type Submission = DataOf<'/api/vue/ops/realname', 'get'>['items'][number];
const key = (status: Status) => ['ops', 'realname', status] as const;

function Field({ label, children, testId }: { label: string; children: React.ReactNode; testId?: string }) {
  return (
    <div className="record-row">
      <span className="muted">{label}</span>
      <span data-testid={testId}>{children}</span>
    </div>
  );
}

function SubmissionItem({ s, onDone }: { s: Submission; onDone: () => void }) {
  const { t } = useTranslation();
  const w = useWalletT();
  const params = { account: s.account };
  const approve = useAction((_: void, k) => api.post('/api/vue/ops/realname/{account}/approve', {}, { params, idempotencyKey: k }), {
    onSuccess: () => {
      toast.show(t('ops.approved'));
      onDone();
    },
  });
  const reject = useAction((remark: string, k) => api.post('/api/vue/ops/realname/{account}/reject', { remark }, { params, idempotencyKey: k }), {
    onSuccess: () => {
      toast.show(t('ops.rejected'));
      onDone();
    },
  });
  return (
    <div className="record" data-testid="ops-realname" data-account={s.account} data-status={s.status}>
      <div className="record-row">
        <strong data-testid="ops-realname-name">{s.name}</strong>
        <span className={`badge badge-${s.status}`}>{w(`ops.status.${s.status}`)}</span>
      </div>
      <div className="id-photos">
        <figure>
          <AuthedImage id={s.frontFileId} testId="ops-realname-front" width={140} height={92} />
          <figcaption className="muted">{w('ops.front')}</figcaption>
        </figure>
        <figure>
          <AuthedImage id={s.backFileId} testId="ops-realname-back" width={140} height={92} />
          <figcaption className="muted">{w('ops.back')}</figcaption>
        </figure>
      </div>
      <Field label={t('ops.account')} testId="ops-realname-account">
        {s.account}
      </Field>
      <Field label={w('ops.idNumber')} testId="ops-realname-id">
        <span className="num">{s.idNumber}</span>
      </Field>
      <Field label={w('ops.submittedAt')}>
        <span className="num">{taipeiTime(s.submittedAt)}</span>
      </Field>
      {s.reviewedBy ? <Field label={w('ops.reviewedBy')}>{s.reviewedBy}</Field> : null}
      {s.remark ? <Field label={t('ops.remark')}>{s.remark}</Field> : null}
      {s.status === 'pending' ? (
        <ReviewActions
          prefix="ops-realname"
          confirmText={w('ops.approveRealName', { name: s.name })}
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
    queryFn: ({ pageParam, signal }) => api.get('/api/vue/ops/realname', { query: { status, page: pageParam }, signal }),
    getNextPageParam: (last) => (last.hasMore ? last.page + 1 : undefined),
  });
  const items = q.data?.pages.flatMap((p) => p.items) ?? [];
  const refreshAll = () => void qc.invalidateQueries({ queryKey: ['ops', 'realname'] });
  return (
    <PullRefresh onRefresh={() => q.refetch()}>
      <div className="record-list" data-testid={`ops-realname-queue-${status}`}>
        {q.isPending ? (
          <ListLoading />
        ) : items.length === 0 ? (
          <ListEmpty />
        ) : (
          <>
            {items.map((s) => (
              <SubmissionItem key={`${s.account}-${s.submittedAt}`} s={s} onDone={refreshAll} />
            ))}
            <InfiniteScroll hasMore={q.hasNextPage} loadMore={async () => void (await q.fetchNextPage({ throwOnError: true }))} />
          </>
        )}
      </div>
    </PullRefresh>
  );
}

/** Ops: identity submissions with both photos and the ID number in the clear; approve or reject. */
export default function RealNameReviewPage() {
  const w = useWalletT();
  const [status, setStatus] = useState<Status>('pending');
  return (
    <Page title={w('ops.realNameTitle')} testId="ops-realname-page">
      <OpsNav />
      <Tabs activeKey={status} onChange={(k) => setStatus(k as Status)} className="record-tabs">
        {(['pending', 'verified', 'rejected'] as const).map((s) => (
          <Tabs.Tab key={s} title={<span data-testid={`ops-realname-tab-${s}`}>{w(`ops.status.${s}`)}</span>} />
        ))}
      </Tabs>
      <Queue key={status} status={status} />
    </Page>
  );
}
