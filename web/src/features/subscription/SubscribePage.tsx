import { AppLink } from '@/components/AppLink';
import { OfferingList, windowText } from '@/components/OfferingList';
import { RecordLine } from '@/components/RecordScreen';
import { money } from '@/lib/filters';
import { useIssues } from './api';
import { IssueHeading } from './Fields';
import { useSubT } from './texts';

/** The subscription zone: every issue with its state, price and dates (/market/subscribe). */
export default function SubscribePage() {
  const s = useSubT();
  const q = useIssues();
  return (
    <OfferingList
      title={s('title')}
      testId="subscribe-page"
      records={{ to: '/market/subscribeRecord', testId: 'sub-records-link', text: s('recordsShort') }}
      pending={q.isPending}
      items={q.data ?? []}
      emptyText={s('empty')}
      itemKey={(is) => is.issueId}
      render={(is) => (
        <AppLink to={`/market/subscribeDetail?id=${encodeURIComponent(is.issueId)}`} className="sub-link card record" data-testid="sub-issue" data-issue={is.issueId}>
          <IssueHeading is={is} />
          <RecordLine label={s('field.price')}>{money(is.price)}</RecordLine>
          <RecordLine label={s('field.window')}>{windowText(is.opensAt, is.closesAt)}</RecordLine>
          <RecordLine label={s('field.listingDate')}>{is.listingDate}</RecordLine>
          {is.applied ? <span className="badge badge-completed">{s('applied')}</span> : null}
        </AppLink>
      )}
    />
  );
}
