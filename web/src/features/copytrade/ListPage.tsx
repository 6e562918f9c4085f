import { Tabs } from 'antd-mobile';
import { useSearchParams } from 'react-router-dom';
import { Page } from '@/components/Page';
import { type MentorLevel, useMentors } from './api';
import { MentorCard } from './parts';
import { useCopyT } from './texts';

const LEVELS: MentorLevel[] = ['junior', 'intermediate', 'senior'];

/** The mentors (/gdindex/gdList) by level: junior, intermediate, senior tabs. */
export default function ListPage() {
  const ct = useCopyT();
  const [params, setParams] = useSearchParams();
  const level = (LEVELS as string[]).includes(params.get('level') ?? '') ? (params.get('level') as MentorLevel) : 'junior';
  const q = useMentors(level);
  return (
    <Page title={ct('allMentors')} testId="copy-list">
      <Tabs activeKey={level} onChange={(k) => setParams({ level: k }, { replace: true })}>
        {LEVELS.map((l) => (
          <Tabs.Tab key={l} title={<span data-testid={`copy-tab-${l}`}>{ct(`level.${l}`)}</span>} />
        ))}
      </Tabs>
      {(q.data?.items ?? []).map((m) => (
        <MentorCard key={m.mentorId} m={m} />
      ))}
      {q.data && q.data.items.length === 0 ? <p className="muted">{ct('mentorsEmpty')}</p> : null}
    </Page>
  );
}
