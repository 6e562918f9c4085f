import { useQueryClient } from '@tanstack/react-query';
import { Button, Dialog } from 'antd-mobile';
import { type FormEvent, useState } from 'react';
import { FormError } from '@/components/FormError';
import { ListEmpty, ListLoading } from '@/components/ListState';
import { Page } from '@/components/Page';
import { TextField } from '@/components/TextField';
import { useAction } from '@/lib/action';
import { money } from '@/lib/filters';
import { toast } from '@/lib/toast';
import type { FieldError } from '@/lib/validation';
import { chipGrabApi, chipGrabKeys, type OfferBody, type Offering, useOfferingClaims, useOfferings } from './api';
import { useChipGrabT } from './texts';
import { type OfferValues, validateOffer } from './validation';
import './chipgrab.css';

const EMPTY: OfferValues = { symbol: '', price: '', quota: '500', perMember: '5', days: '3' };

function OfferForm() {
  const ct = useChipGrabT();
  const qc = useQueryClient();
  const [v, setV] = useState<OfferValues>(EMPTY);
  const [err, setErr] = useState<FieldError<keyof OfferValues> | null>(null);
  const set = (k: keyof OfferValues, clean: (s: string) => string = (s) => s) => (val: string) => {
    setV((p) => ({ ...p, [k]: clean(val) }));
    if (err?.field === k) setErr(null);
  };
  const digits = (s: string) => s.replace(/\D/g, '');
  const offer = useAction((body: OfferBody, key) => chipGrabApi.offer(body, key), {
    onSuccess: () => {
      toast.show(ct('ops.offered'));
      setV(EMPTY);
      void qc.invalidateQueries({ queryKey: chipGrabKeys.all });
    },
  });
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const fe = validateOffer(v);
    setErr(fe);
    if (fe) return;
    const now = new Date();
    offer.run({
      symbol: v.symbol,
      price: v.price,
      quotaLots: Number(v.quota),
      maxLotsPerMember: Number(v.perMember),
      opensAt: now.toISOString(),
      closesAt: new Date(now.getTime() + Number(v.days) * 86_400_000).toISOString(),
    });
  };
  const field = (k: keyof OfferValues, label: string, clean?: (s: string) => string, mode?: 'numeric' | 'decimal') => (
    <TextField label={label} testId={`chipgrab-offer-${k}`} value={v[k]} onChange={set(k, clean)} inputMode={mode} maxLength={12} invalid={err?.field === k} />
  );
  return (
    <form onSubmit={onSubmit} noValidate className="card" data-testid="chipgrab-offer-form">
      <div className="section-title">{ct('ops.offerTitle')}</div>
      {field('symbol', ct('ops.symbol'), (s) => s.toUpperCase())}
      {field('price', ct('ops.price'), undefined, 'decimal')}
      {field('quota', ct('ops.quota'), digits, 'numeric')}
      {field('perMember', ct('ops.perMember'), digits, 'numeric')}
      {field('days', ct('ops.days'), digits, 'numeric')}
      <FormError errorKey={err?.key ?? null} />
      <Button block color="primary" shape="rounded" type="submit" loading={offer.pending} data-testid="chipgrab-offer-submit">
        {ct('ops.offer')}
      </Button>
    </form>
  );
}

/** An offering's claims for ops: who claimed (account and verified name), how many lots, and the outcome. */
function OpsClaims({ id }: { id: string }) {
  const ct = useChipGrabT();
  const q = useOfferingClaims(id, true);
  const items = q.data?.items ?? [];
  if (q.isPending) return <ListLoading />;
  if (items.length === 0) return <ListEmpty text={ct('recordsEmpty')} />;
  return (
    <div className="chipgrab-claims" data-testid="ops-chipgrab-claims">
      {items.map((c) => (
        <div key={c.orderNo} className="record-row" data-testid="ops-chipgrab-claim" data-order-no={c.orderNo} data-account={c.account} data-status={c.status}>
          <span>
            <span className="num" data-testid="ops-chipgrab-account">
              {c.account}
            </span>{' '}
            <span data-testid="ops-chipgrab-member-name" data-text="data">{c.memberName || ct('ops.notVerified')}</span>
          </span>
          <span className="num">
            {ct('lotsUnit', { n: c.lots })} · {ct(`claimStatus.${c.status}`)}
          </span>
        </div>
      ))}
    </div>
  );
}

function OpsOffering({ o }: { o: Offering }) {
  const ct = useChipGrabT();
  const qc = useQueryClient();
  const [shown, setShown] = useState(false);
  const allot = useAction((_: void, key) => chipGrabApi.allot(o.offeringId, key), {
    onSuccess: (r) => {
      toast.show(ct('ops.allotted', { lots: r.lots }));
      void qc.invalidateQueries({ queryKey: chipGrabKeys.all });
    },
  });
  return (
    <div className="record" data-testid="ops-chipgrab" data-offering-id={o.offeringId} data-status={o.status}>
      <div className="record-row">
        <span className="record-amount">
          <span data-testid="quote-name">{o.name}</span> <span className="num">{o.symbol}</span>
        </span>
        <span className={`badge badge-chipgrab-${o.status}`}>{ct(`status.${o.status}`)}</span>
      </div>
      <div className="record-row muted">
        <span>{ct('price')}</span>
        <span className="num">{money(o.price)}</span>
      </div>
      <div className="record-row muted">
        <span>{ct('quota')}</span>
        <span className="num">{ct('quotaOf', { left: o.remainingLots, total: o.quotaLots })}</span>
      </div>
      <Button size="small" fill="none" data-testid="ops-chipgrab-claims-toggle" onClick={() => setShown((v) => !v)}>
        {shown ? ct('ops.hideClaims') : ct('ops.claims')}
      </Button>
      {shown ? <OpsClaims id={o.offeringId} /> : null}
      {o.status !== 'allotted' ? (
        <Button size="small" color="primary" loading={allot.pending} data-testid="ops-chipgrab-allot"
          onClick={() => void Dialog.confirm({ content: ct('ops.allotConfirm'), onConfirm: () => allot.run() })}>
          {ct('ops.allot')}
        </Button>
      ) : null}
    </div>
  );
}

/** Ops: offer a quota of lots at a price; allot an offering into the paid claimants' holdings. */
export default function OpsChipGrabPage() {
  const ct = useChipGrabT();
  const q = useOfferings(true);
  const items = q.data ?? [];
  return (
    <Page title={ct('ops.title')} testId="ops-chipgrab-page">
      <OfferForm />
      <div className="record-list" data-testid="ops-chipgrab-list">
        {q.isPending ? <ListLoading /> : items.length === 0 ? <ListEmpty text={ct('empty')} /> : items.map((o) => <OpsOffering key={o.offeringId} o={o} />)}
      </div>
    </Page>
  );
}
