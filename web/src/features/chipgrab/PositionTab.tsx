import { RecordRows } from '@/components/ListState';
import { useMyClaims } from './api';
import { ClaimItem } from './ChipGrabRecordsPage';
import { useChipGrabT } from './texts';
import './chipgrab.css';

/** The positions screen's chip bidding tab: the member's claims and their state (allotted ones are holdings too). */
export default function ChipGrabPositionTab() {
  const ct = useChipGrabT();
  const q = useMyClaims();
  return (
    <RecordRows
      pending={q.isPending}
      items={q.data?.pages.flatMap((p) => p.items) ?? []}
      empty={ct('recordsEmpty')}
      testId="chipgrab-position-tab"
      row={(c) => <ClaimItem key={c.orderNo} c={c} />}
    />
  );
}
