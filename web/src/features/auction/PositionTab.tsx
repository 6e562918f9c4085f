import { ListEmpty, ListLoading } from '@/components/ListState';
import { useBidRecords } from './api';
import { BidCard } from './Fields';
import { useAuctionT } from './texts';

/** The positions screen's auction tab: the member's bids and wins, deposits held and released, amounts paid. */
export default function AuctionPositionTab() {
  const s = useAuctionT();
  const q = useBidRecords();
  const list = q.data ?? [];
  if (q.isPending) return <ListLoading />;
  if (list.length === 0) return <ListEmpty text={s('noBids')} />;
  return (
    <div data-testid="auction-position-tab">
      {list.map((b) => (
        <BidCard key={b.bidNo} b={b} />
      ))}
    </div>
  );
}
