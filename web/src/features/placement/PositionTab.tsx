import { RecordRows } from '@/components/ListState';
import { usePlacementRecords } from './api';
import { ApplicationCard } from './Fields';
import { usePlacementT } from './texts';

/** The positions screen's placement tab: the member's applications and the shares each was allotted. */
export default function PlacementPositionTab() {
  const s = usePlacementT();
  const q = usePlacementRecords();
  return (
    <RecordRows pending={q.isPending} items={q.data ?? []} empty={s('noApplications')} testId="placement-position-tab" row={(a) => <ApplicationCard key={a.applicationNo} a={a} />} />
  );
}
