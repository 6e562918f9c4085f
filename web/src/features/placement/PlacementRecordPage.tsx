import { ListEmpty, ListLoading } from '@/components/ListState';
import { Page } from '@/components/Page';
import { usePlacementRecords } from './api';
import { ApplicationCard } from './Fields';
import { usePlacementT } from './texts';

/** The member's placement applications and what each was allotted, the newest first (/market/subscribe1Record). */
export default function PlacementRecordPage() {
  const s = usePlacementT();
  const q = usePlacementRecords();
  const list = q.data ?? [];
  return (
    <Page title={s('records')} testId="placement-records-page">
      {q.isPending ? <ListLoading /> : list.length === 0 ? <ListEmpty text={s('noApplications')} /> : list.map((a) => <ApplicationCard key={a.applicationNo} a={a} />)}
    </Page>
  );
}
