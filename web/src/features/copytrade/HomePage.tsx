import { AppLink } from '@/components/AppLink';
import { Page } from '@/components/Page';
import { Row } from '@/domain/offering/Row';
import { money } from '@/lib/filters';
import { useMentors, useMyFollows } from './api';
import { MentorCard } from './parts';
import { useCopyT } from './texts';

/** The copy-trade tab (/gdindex/gdindex): my follows in progress, the top mentors, links. */
export default function HomePage() {
  const ct = useCopyT();
  const mentors = useMentors('');
  const follows = useMyFollows('in_progress');
  const mine = follows.data?.pages.flatMap((p) => p.items) ?? [];
  const sum = (f: (x: (typeof mine)[number]) => string) => mine.reduce((a, x) => a + Number(f(x)), 0);
  return (
    <Page title={ct('title')} back={false} testId="copy-home">
      <div className="card" data-testid="copy-summary">
        <div className="record-row">
          <span>{ct('myFollows')}</span>
          <AppLink to="/gdindex/dsFllowRecord" data-testid="copy-records-link">
            {ct('records')}
          </AppLink>
        </div>
        <Row label={ct('inProgress')} testId="copy-in-progress">
          {mine.length}
        </Row>
        <Row label={ct('committed')}>{money(sum((x) => x.amount))}</Row>
        <Row label={ct('spentTotal')}>{money(sum((x) => x.spent))}</Row>
        <Row label={ct('profitCurrent')} testId="copy-summary-profit">
          {money(sum((x) => x.current?.profit ?? x.profit))}
        </Row>
      </div>
      <div className="copy-links">
        <AppLink to="/gdindex/gdList" data-testid="copy-list-link">
          {ct('allMentors')}
        </AppLink>
        <AppLink to="/gdindex/mentor" data-testid="copy-become-link">
          {ct('becomeMentor')}
        </AppLink>
        <AppLink to="/gdindex/rules" data-testid="copy-rules-link">
          {ct('rules')}
        </AppLink>
      </div>
      <div className="copy-section-title">{ct('topMentors')}</div>
      {(mentors.data?.items ?? []).slice(0, 5).map((m) => (
        <MentorCard key={m.mentorId} m={m} />
      ))}
      {mentors.data && mentors.data.items.length === 0 ? <p className="muted">{ct('mentorsEmpty')}</p> : null}
    </Page>
  );
}
