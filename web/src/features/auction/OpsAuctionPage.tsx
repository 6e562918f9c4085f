import { useQueryClient } from '@tanstack/react-query';
import { Button } from 'antd-mobile';
import { useState } from 'react';
import { ListEmpty, ListLoading } from '@/components/ListState';
import { Page } from '@/components/Page';
import { type OfferingField, OfferingForm } from '@/components/OfferingForm';
import { Entrant } from '@/domain/offering/Entrant';
import { Row } from '@/domain/offering/Row';
import { money } from '@/lib/filters';
import { toast } from '@/lib/toast';
import { type Auction, auctionKeys, listAuction, useOpsAuctions, useOpsBids } from './api';
import { auctionBody, type AuctionValues, emptyAuction } from './bids';
import { AuctionFields, AuctionHead } from './Fields';
import { type AuctionKey, useAuctionT } from './texts';

const FIELDS: OfferingField<keyof AuctionValues>[] = [
  { key: 'symbol' },
  { key: 'name' },
  { key: 'lots', mode: 'numeric' },
  { key: 'minPrice', mode: 'decimal' },
  { key: 'maxLotsPerBidder', mode: 'numeric' },
  { key: 'depositRate', mode: 'decimal' },
  { key: 'opensAt', type: 'datetime-local' },
  { key: 'closesAt', type: 'datetime-local' },
  { key: 'awardDate', type: 'date' },
  { key: 'listingDate', type: 'date' },
];

function ListForm() {
  const s = useAuctionT();
  const qc = useQueryClient();
  return (
    <OfferingForm
      title={s('ops.list')}
      submitText={s('ops.submit')}
      testPrefix="ops-auction"
      fields={FIELDS}
      empty={emptyAuction}
      label={(k) => s(`ops.${k}` as AuctionKey)}
      toBody={auctionBody}
      requiredKey="auction.ops.required"
      send={listAuction}
      onDone={(r) => {
        toast.show(s('ops.listed', { commitment: r.commitment.slice(0, 12) }));
        void qc.invalidateQueries({ queryKey: auctionKeys.all });
      }}
    />
  );
}

function Bids({ id }: { id: string }) {
  const s = useAuctionT();
  const q = useOpsBids(id);
  if (q.isPending) return <ListLoading />;
  if ((q.data ?? []).length === 0) return <div className="muted">{s('ops.none')}</div>;
  return (
    <div data-testid="ops-auction-bids">
      {(q.data ?? []).map((b) => (
        <div key={b.bidNo} className="record-row" data-testid="ops-auction-bid" data-state={b.state}>
          <span>
            <span className="num">
              {money(b.price)} × {b.lots}
            </span>
            <Entrant member={b.member} />
          </span>
          <span>
            {s(`bidState.${b.state}`)} · <span className="num">{b.awardedLots}</span>
          </span>
        </div>
      ))}
    </div>
  );
}

function AuctionCard({ a }: { a: Auction }) {
  const s = useAuctionT();
  const [open, setOpen] = useState(false);
  return (
    <div className="card record" data-testid="ops-auction" data-auction={a.auctionId}>
      <AuctionHead a={a} />
      <AuctionFields a={a} />
      <Row label={s('field.bids')}>{a.bids}</Row>
      <Row label={s('field.awardedLots')}>{a.awarded ? a.awardedLots : s('draw.notRevealed')}</Row>
      <div className="muted">{s('draw.commitment')}</div>
      <div className="num offering-hex">{a.commitment}</div>
      <Button size="small" onClick={() => setOpen((o) => !o)} data-testid="ops-auction-toggle">
        {s('ops.bids')}
      </Button>
      {open ? <Bids id={a.auctionId} /> : null}
    </div>
  );
}

/** Ops: list an auction and follow every auction's bids and award (/ops/auction). */
export default function OpsAuctionPage() {
  const s = useAuctionT();
  const q = useOpsAuctions();
  return (
    <Page title={s('ops.title')} testId="ops-auction-page">
      <ListForm />
      {q.isPending ? <ListLoading /> : (q.data ?? []).length === 0 ? <ListEmpty text={s('empty')} /> : (q.data ?? []).map((a) => <AuctionCard key={a.auctionId} a={a} />)}
    </Page>
  );
}
