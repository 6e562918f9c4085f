import { RecordRows } from '@/components/ListState';
import { useBidRecords } from './api';
import { BidCard } from './Fields';
import { useAuctionT } from './texts';

/** The positions screen's auction tab: the member's bids and wins, deposits held and released, amounts paid. */
export default function AuctionPositionTab() {
  const s = useAuctionT();
  const q = useBidRecords();
  return <RecordRows pending={q.isPending} items={q.data ?? []} empty={s('noBids')} testId="auction-position-tab" row={(b) => <BidCard key={b.bidNo} b={b} />} />;
}
