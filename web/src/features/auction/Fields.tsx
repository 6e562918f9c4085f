import { Row } from '@/domain/offering/Row';
import { money, taipeiTime } from '@/lib/filters';
import type { Auction, Bid } from './api';
import { useAuctionT } from './texts';

/** The auction's state badge. */
export function StateBadge({ state }: { state: Auction['state'] }) {
  const s = useAuctionT();
  return (
    <span className={`badge badge-${state}`} data-testid="auction-state" data-state={state}>
      {s(`state.${state}`)}
    </span>
  );
}

/** The auction's name and code with its state. */
export function AuctionHead({ a }: { a: Auction }) {
  return (
    <div className="record-row">
      <span>
        <span data-testid="quote-name">{a.name}</span> <span className="muted num">{a.symbol}</span>
      </span>
      <StateBadge state={a.state} />
    </div>
  );
}

/** An auction's published terms and calendar. */
export function AuctionFields({ a }: { a: Auction }) {
  const s = useAuctionT();
  return (
    <>
      <Row label={s('field.minPrice')} testId="auction-min-price">
        {money(a.minPrice)}
      </Row>
      <Row label={s('field.lots')}>{a.lots}</Row>
      <Row label={s('field.maxLots')} testId="auction-cap">
        {a.maxLotsPerBidder}
      </Row>
      <Row label={s('field.depositRate')} testId="auction-deposit-rate">
        {a.depositRate}%
      </Row>
      <Row label={s('field.opensAt')}>{taipeiTime(a.opensAt)}</Row>
      <Row label={s('field.closesAt')}>{taipeiTime(a.closesAt)}</Row>
      <Row label={s('field.awardDate')}>{a.awardDate}</Row>
      <Row label={s('field.listingDate')}>{a.listingDate}</Row>
    </>
  );
}

/** One bid and what became of it (bid and win records). */
export function BidCard({ b }: { b: Bid }) {
  const s = useAuctionT();
  const settled = b.state !== 'bidding';
  return (
    <div className="card record" data-testid="auction-bid" data-bid={b.bidNo} data-state={b.state}>
      <div className="record-row">
        <span>
          <span data-testid="quote-name">{b.name}</span> <span className="muted num">{b.symbol}</span>
        </span>
        <span className={`badge badge-${b.state}`} data-testid="auction-bid-state">
          {s(`bidState.${b.state}`)}
        </span>
      </div>
      <Row label={s('field.price')} testId="auction-bid-price">
        {money(b.price)}
      </Row>
      <Row label={s('field.bidLots')}>{b.lots}</Row>
      <Row label={s('field.amount')}>{money(b.amount)}</Row>
      <Row label={s('field.deposit')} testId="auction-bid-deposit">
        {money(b.deposit)}
      </Row>
      {settled ? (
        <>
          <Row label={s('field.awardedLots')} testId="auction-bid-awarded">
            {b.awardedLots}
          </Row>
          <Row label={s('field.cost')}>{money(b.cost)}</Row>
          <Row label={s('field.balance')}>{money(b.balance)}</Row>
          <Row label={s('field.released')}>{money(b.released)}</Row>
        </>
      ) : null}
      {b.delivered > 0 ? <Row label={s('field.delivered')}>{s('shares', { n: b.delivered })}</Row> : null}
      <Row label={s('field.bidNo')}>{b.bidNo}</Row>
      <Row label={s('field.placedAt')}>{taipeiTime(b.placedAt)}</Row>
      <Row label={s('field.awardDate')}>{b.awardDate}</Row>
    </div>
  );
}
