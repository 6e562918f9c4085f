import { AppLink } from '@/components/AppLink';
import { OfferingList, windowText } from '@/components/OfferingList';
import { RecordLine } from '@/components/RecordScreen';
import { money } from '@/lib/filters';
import { useAuctions } from './api';
import { AuctionHead } from './Fields';
import { useAuctionT } from './texts';

/** The IPO auctions: each with its state, minimum price and window (/market/subscribeJp). */
export default function AuctionListPage() {
  const s = useAuctionT();
  const q = useAuctions();
  return (
    <OfferingList
      title={s('title')}
      testId="auction-list-page"
      records={{ to: '/market/subscribeJpRecord', testId: 'auction-records-link', text: s('recordsShort') }}
      pending={q.isPending}
      items={q.data ?? []}
      emptyText={s('empty')}
      itemKey={(a) => a.auctionId}
      render={(a) => (
        <AppLink to={`/market/subscribeDetailJp?id=${encodeURIComponent(a.auctionId)}`} className="offering-link card record" data-testid="auction-item" data-auction={a.auctionId}>
          <AuctionHead a={a} />
          <RecordLine label={s('field.minPrice')}>{money(a.minPrice)}</RecordLine>
          <RecordLine label={s('field.lots')}>{a.lots}</RecordLine>
          <RecordLine label={s('field.window')}>{windowText(a.opensAt, a.closesAt)}</RecordLine>
          {a.myLots > 0 ? <RecordLine label={s('field.myLots')}>{a.myLots}</RecordLine> : null}
        </AppLink>
      )}
    />
  );
}
