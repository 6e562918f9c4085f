import { ListEmpty, ListLoading } from '@/components/ListState';
import { AppLink } from '@/components/AppLink';
import { Page } from '@/components/Page';
import { money, taipeiTime } from '@/lib/filters';
import { useIssues } from './api';
import { IssueHeading } from './Fields';
import { useSubT } from './texts';

/** The subscription zone: every issue with its state, price and dates (/market/subscribe). */
export default function SubscribePage() {
  const s = useSubT();
  const q = useIssues();
  return (
    <Page
      title={s('title')}
      testId="subscribe-page"
      right={
        <AppLink to="/market/subscribeRecord" data-testid="sub-records-link">
          {s('recordsShort')}
        </AppLink>
      }
    >
      {q.isPending ? (
        <ListLoading />
      ) : (q.data ?? []).length === 0 ? (
        <ListEmpty text={s('empty')} />
      ) : (
        (q.data ?? []).map((is) => (
          <AppLink key={is.issueId} to={`/market/subscribeDetail?id=${encodeURIComponent(is.issueId)}`} className="sub-link card record" data-testid="sub-issue" data-issue={is.issueId}>
            <IssueHeading is={is} />
            <div className="record-row muted">
              <span>{s('field.price')}</span>
              <span className="num">{money(is.price)}</span>
            </div>
            <div className="record-row muted">
              <span>{s('field.window')}</span>
              <span className="num">
                {taipeiTime(is.opensAt).slice(5, 16)} ~ {taipeiTime(is.closesAt).slice(5, 16)}
              </span>
            </div>
            <div className="record-row muted">
              <span>{s('field.listingDate')}</span>
              <span className="num">{is.listingDate}</span>
            </div>
            {is.applied ? <span className="badge badge-completed">{s('applied')}</span> : null}
          </AppLink>
        ))
      )}
    </Page>
  );
}
