import { AppLink } from '@/components/AppLink';
import { ListEmpty, ListLoading } from '@/components/ListState';
import { Page } from '@/components/Page';
import { money, taipeiTime } from '@/lib/filters';
import { useAuctions } from './api';
import { AuctionHead } from './Fields';
import { useAuctionT } from './texts';

/** The IPO auctions: each with its state, minimum price and window (/market/subscribeJp). */
export default function AuctionListPage() {
  const s = useAuctionT();
  const q = useAuctions();
  const list = q.data ?? [];
  return (
    <Page
      title={s('title')}
      testId="auction-list-page"
      right={
        <AppLink to="/market/subscribeJpRecord" data-testid="auction-records-link">
          {s('recordsShort')}
        </AppLink>
      }
    >
      {q.isPending ? (
        <ListLoading />
      ) : list.length === 0 ? (
        <ListEmpty text={s('empty')} />
      ) : (
        list.map((a) => (
          <AppLink key={a.auctionId} to={`/market/subscribeDetailJp?id=${encodeURIComponent(a.auctionId)}`} className="offering-link card record" data-testid="auction-item" data-auction={a.auctionId}>
            <AuctionHead a={a} />
            <div className="record-row muted">
              <span>{s('field.minPrice')}</span>
              <span className="num">{money(a.minPrice)}</span>
            </div>
            <div className="record-row muted">
              <span>{s('field.lots')}</span>
              <span className="num">{a.lots}</span>
            </div>
            <div className="record-row muted">
              <span>{s('field.window')}</span>
              <span className="num">
                {taipeiTime(a.opensAt).slice(5, 16)} ~ {taipeiTime(a.closesAt).slice(5, 16)}
              </span>
            </div>
            {a.myLots > 0 ? (
              <div className="record-row muted">
                <span>{s('field.myLots')}</span>
                <span className="num">{a.myLots}</span>
              </div>
            ) : null}
          </AppLink>
        ))
      )}
    </Page>
  );
}
