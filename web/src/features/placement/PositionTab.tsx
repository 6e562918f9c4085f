import { ListEmpty, ListLoading } from '@/components/ListState';
import { usePlacementRecords } from './api';
import { ApplicationCard } from './Fields';
import { usePlacementT } from './texts';

/** The positions screen's placement tab: the member's applications and the shares each was allotted. */
export default function PlacementPositionTab() {
  const s = usePlacementT();
  const q = usePlacementRecords();
  const list = q.data ?? [];
  if (q.isPending) return <ListLoading />;
  if (list.length === 0) return <ListEmpty text={s('noApplications')} />;
  return (
    <div data-testid="placement-position-tab">
      {list.map((a) => (
        <ApplicationCard key={a.applicationNo} a={a} />
      ))}
    </div>
  );
}
