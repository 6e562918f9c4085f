import { useQueryClient } from '@tanstack/react-query';
import { Button } from 'antd-mobile';
import { useSearchParams } from 'react-router-dom';
import { AppLink } from '@/components/AppLink';
import { ConfirmButton } from '@/components/ConfirmButton';
import { ListEmpty, ListLoading } from '@/components/ListState';
import { Page } from '@/components/Page';
import { Row } from '@/domain/offering/Row';
import { useAction } from '@/lib/action';
import { money } from '@/lib/filters';
import { queryKeys } from '@/lib/query';
import { toast } from '@/lib/toast';
import { applyFor, subKeys, useIssue } from './api';
import { ApplicationCard } from './ApplicationCard';
import { IssueFields, IssueHeading } from './Fields';
import { applyBlock } from './issues';
import { useSubT } from './texts';

/** One issue: its figures, the draw's commitment and seed, the member's application or the apply button (/market/subscribeDetail?id=). */
export default function SubscribeDetailPage() {
  const s = useSubT();
  const qc = useQueryClient();
  const [params] = useSearchParams();
  const id = params.get('id') ?? '';
  const q = useIssue(id);
  const apply = useAction((lots: number, key) => applyFor(id, lots, key), {
    onSuccess: () => {
      toast.show(s('appliedToast'));
      void qc.invalidateQueries({ queryKey: subKeys.all });
      void qc.invalidateQueries({ queryKey: queryKeys.userInfo });
    },
  });
  const d = q.data;
  if (!d) {
    return (
      <Page title={s('title')} testId="subscribe-detail-page">
        {q.isPending && id ? <ListLoading /> : <ListEmpty text={s('empty')} />}
      </Page>
    );
  }
  const is = d.issue;
  const block = applyBlock(is);
  return (
    <Page title={s('title')} testId="subscribe-detail-page">
      <div className="card record" data-issue={is.issueId} data-state={is.state}>
        <IssueHeading is={is} />
        <IssueFields is={is} />
        <Row label={s('field.applications')}>{is.applications}</Row>
      </div>
      {d.application ? <ApplicationCard a={d.application} /> : null}
      <div className="card record" data-testid="sub-draw">
        <div className="section-title">{s('draw.title')}</div>
        <Row label={s('draw.algorithm')}>{is.algorithm}</Row>
        <div className="muted">{s('draw.commitment')}</div>
        <div className="num break-all" data-testid="sub-commitment">
          {is.commitment}
        </div>
        <div className="muted">{s('draw.seed')}</div>
        <div className="num break-all" data-testid="sub-seed">
          {is.drawn ? is.seed : s('draw.notRevealed')}
        </div>
        {is.drawn ? <Row label={s('draw.winners')}>{is.winners}</Row> : null}
      </div>
      <div className="card muted" style={{ lineHeight: 1.7 }}>
        {s('rule')}
      </div>
      <div className="card">
        {block === null ? (
          <ConfirmButton
            block
            color="primary"
            loading={apply.pending}
            data-testid="sub-apply"
            label={s('apply')}
            question={s('applyConfirm', { name: is.name, lots: is.unitLots, amount: money(is.amount) })}
            onConfirm={() => apply.run(is.unitLots)}
          >
            {s('apply')} · NT${money(is.amount)}
          </ConfirmButton>
        ) : (
          <Button block disabled data-testid="sub-apply-blocked" data-reason={block}>
            {block === 'applied' ? s('applied') : s(`cannotApply.${block}`)}
          </Button>
        )}
        <AppLink to="/market/subscribeRecord" className="muted more-link" data-testid="sub-records-link">
          {s('recordsLink')}
        </AppLink>
      </div>
    </Page>
  );
}
