import { useQueryClient } from '@tanstack/react-query';
import { Button, Dialog } from 'antd-mobile';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { AppLink } from '@/components/AppLink';
import { FormError } from '@/components/FormError';
import { ListEmpty, ListLoading } from '@/components/ListState';
import { Page } from '@/components/Page';
import { TextField } from '@/components/TextField';
import { Row } from '@/domain/offering/Row';
import { useAction } from '@/lib/action';
import { money } from '@/lib/filters';
import { queryKeys } from '@/lib/query';
import { toast } from '@/lib/toast';
import { type Auction, auctionKeys, placeBid, useAuction } from './api';
import { bidBlock, bidBody, depositOf } from './bids';
import { AuctionFields, AuctionHead, BidCard } from './Fields';
import { useAuctionT } from './texts';

/** The bid form: price and lots, the deposit it freezes, a confirmation. */
function BidForm({ a }: { a: Auction }) {
  const s = useAuctionT();
  const { t } = useTranslation();
  const qc = useQueryClient();
  const [price, setPrice] = useState('');
  const [lots, setLots] = useState('');
  const [err, setErr] = useState<string | null>(null);
  const bid = useAction((body: { price: string; lots: number }, key) => placeBid(a.auctionId, body, key), {
    onSuccess: () => {
      toast.show(s('bidToast'));
      setPrice('');
      setLots('');
      void qc.invalidateQueries({ queryKey: auctionKeys.all });
      void qc.invalidateQueries({ queryKey: queryKeys.userInfo });
    },
  });
  const block = bidBlock(a);
  if (block !== null) {
    return (
      <Button block disabled data-testid="auction-bid-blocked" data-reason={block}>
        {s(`cannotBid.${block}`)}
      </Button>
    );
  }
  const checked = bidBody(a, price, lots);
  const deposit = 'body' in checked ? depositOf(checked.body.price, checked.body.lots, a.lotShares, a.depositRate) : null;
  const submit = () => {
    if ('error' in checked) {
      setErr(checked.error);
      return;
    }
    setErr(null);
    const { body } = checked;
    void Dialog.confirm({
      content: s('bidConfirm', { name: a.name, price: money(body.price), lots: body.lots, deposit: money(String(deposit)) }),
      confirmText: s('bid'),
      cancelText: t('common.cancel'),
      onConfirm: () => bid.run(body),
    });
  };
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
      className="offering-form"
      data-testid="auction-bid-form"
    >
      <TextField label={s('priceLabel')} testId="auction-price" value={price} inputMode="decimal" maxLength={12} onChange={(v) => {
          setPrice(v);
          setErr(null);
        }} />
      <TextField label={s('lotsLabel')} testId="auction-lots" value={lots} inputMode="numeric" maxLength={8} onChange={(v) => {
          setLots(v);
          setErr(null);
        }} />
      <div className="muted offering-preview" data-testid="auction-deposit-preview">
        {deposit !== null ? s('depositPreview', { amount: money(String(deposit)) }) : '\u00a0'}
      </div>
      <FormError errorKey={err} />
      <Button block color="primary" type="submit" loading={bid.pending} data-testid="auction-bid-submit">
        {s('bid')}
      </Button>
    </form>
  );
}

/** One auction: its terms, the award's commitment and seed, the member's bids and the bid form (/market/subscribeDetailJp?id=). */
export default function AuctionDetailPage() {
  const s = useAuctionT();
  const [params] = useSearchParams();
  const id = params.get('id') ?? '';
  const q = useAuction(id);
  const d = q.data;
  if (!d) {
    return (
      <Page title={s('title')} testId="auction-detail-page">
        {q.isPending && id ? <ListLoading /> : <ListEmpty text={s('empty')} />}
      </Page>
    );
  }
  const a = d.auction;
  return (
    <Page title={s('title')} testId="auction-detail-page">
      <div className="card record" data-auction={a.auctionId} data-state={a.state}>
        <AuctionHead a={a} />
        <AuctionFields a={a} />
        <Row label={s('field.bids')}>{a.bids}</Row>
        <Row label={s('field.myLots')} testId="auction-my-lots">
          {a.myLots}
        </Row>
        {a.awarded ? <Row label={s('field.awardedLots')}>{a.awardedLots}</Row> : null}
      </div>
      <div className="card">
        <BidForm a={a} />
        <AppLink to="/market/subscribeJpRecord" className="muted more-link" data-testid="auction-records-link">
          {s('records')}
        </AppLink>
      </div>
      {d.bids.map((b) => (
        <BidCard key={b.bidNo} b={b} />
      ))}
      <div className="card record" data-testid="auction-draw">
        <div className="section-title">{s('draw.title')}</div>
        <Row label={s('draw.algorithm')}>{a.algorithm}</Row>
        <div className="muted">{s('draw.commitment')}</div>
        <div className="num offering-hex" data-testid="auction-commitment">
          {a.commitment}
        </div>
        <div className="muted">{s('draw.seed')}</div>
        <div className="num offering-hex" data-testid="auction-seed">
          {a.awarded ? a.seed : s('draw.notRevealed')}
        </div>
      </div>
      <div className="card muted" style={{ lineHeight: 1.7 }}>
        {s('rule')}
      </div>
    </Page>
  );
}
