import { ListEmpty, ListLoading } from '@/components/ListState';
import { Page } from '@/components/Page';
import { useBidRecords } from './api';
import { BidCard } from './Fields';
import { useAuctionT } from './texts';

/** The member's bid and win records, the newest first (/market/subscribeJpRecord). */
export default function AuctionRecordPage() {
  const s = useAuctionT();
  const q = useBidRecords();
  const list = q.data ?? [];
  return (
    <Page title={s('records')} testId="auction-records-page">
      {q.isPending ? <ListLoading /> : list.length === 0 ? <ListEmpty text={s('noBids')} /> : list.map((b) => <BidCard key={b.bidNo} b={b} />)}
    </Page>
  );
}
