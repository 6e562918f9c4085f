import { ListEmpty, ListLoading } from '@/components/ListState';
import { useMyClaims } from './api';
import { ClaimItem } from './ChipGrabRecordsPage';
import { useChipGrabT } from './texts';
import './chipgrab.css';

/** The positions screen's chip bidding tab: the member's claims and their state (allotted ones are holdings too). */
export default function ChipGrabPositionTab() {
  const ct = useChipGrabT();
  const q = useMyClaims();
  const items = q.data?.pages.flatMap((p) => p.items) ?? [];
  if (q.isPending) return <ListLoading />;
  if (items.length === 0) return <ListEmpty text={ct('recordsEmpty')} />;
  return (
    <div className="record-list" data-testid="chipgrab-position-tab">
      {items.map((c) => (
        <ClaimItem key={c.orderNo} c={c} />
      ))}
    </div>
  );
}
