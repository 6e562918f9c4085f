import { useTranslation } from 'react-i18next';
import { AuthedImage } from '@/components/AuthedImage';
import { api, type DataOf } from '@/lib/api/client';
import { taipeiTime } from '@/lib/filters';
import { useWalletT } from '@/domain/wallet/texts';
import { ReviewActions } from '@/components/review/ReviewActions';
import { Field, ReviewPage } from '@/components/review/ReviewQueue';
import { OpsNav } from './OpsNav';

type Submission = DataOf<'/api/vue/ops/realname', 'get'>['items'][number];

function SubmissionItem({ s, onDone }: { s: Submission; onDone: () => void }) {
  const { t } = useTranslation();
  const w = useWalletT();
  const params = { account: s.account };
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
          approve={(k) => api.post('/api/vue/ops/realname/{account}/approve', {}, { params, idempotencyKey: k })}
          reject={(remark, k) => api.post('/api/vue/ops/realname/{account}/reject', { remark }, { params, idempotencyKey: k })}
          onDone={onDone}
        />
      ) : null}
    </div>
  );
}

/** Ops: identity submissions with both photos and the ID number in the clear; approve or reject. */
export default function RealNameReviewPage() {
  const w = useWalletT();
  return (
    <ReviewPage
      nav={<OpsNav />}
      title={w('ops.realNameTitle')}
      testId="ops-realname-page"
      statuses={['pending', 'verified', 'rejected'] as const}
      statusLabel={(s) => w(`ops.status.${s}`)}
      tabTestId="ops-realname-tab"
      queueTestId="ops-realname-queue"
      queryName="realname"
      fetchPage={(status, page, signal) => api.get('/api/vue/ops/realname', { query: { status, page }, signal })}
      itemKey={(s) => `${s.account}-${s.submittedAt}`}
      renderItem={(s, onDone) => <SubmissionItem s={s} onDone={onDone} />}
    />
  );
}
