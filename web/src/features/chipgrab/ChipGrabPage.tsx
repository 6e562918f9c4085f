import { useQueryClient } from '@tanstack/react-query';
import { Button, ProgressBar } from 'antd-mobile';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AppLink } from '@/components/AppLink';
import { FormError } from '@/components/FormError';
import { RecordScreen } from '@/components/RecordScreen';
import { TextField } from '@/components/TextField';
import { boardLotCost } from '@/domain/trade/cost';
import { useAction } from '@/lib/action';
import { money, taipeiWindow } from '@/lib/filters';
import { toast } from '@/lib/toast';
import { chipGrabApi, chipGrabKeys, type Offering, useOfferings } from './api';
import { useChipGrabT } from './texts';
import { validateClaim } from './validation';
import './chipgrab.css';

function ClaimForm({ o }: { o: Offering }) {
  const { t } = useTranslation();
  const ct = useChipGrabT();
  const qc = useQueryClient();
  const [lots, setLots] = useState('1');
  const [err, setErr] = useState<string | null>(null);
  const claim = useAction((n: number, key) => chipGrabApi.claim(o.offeringId, n, key), {
    onSuccess: () => toast.show(t('msg.chipgrab_claimed')),
    // Refused or not, the quota left has changed.
    onSettled: () => void qc.invalidateQueries({ queryKey: chipGrabKeys.all }),
  });
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const fe = validateClaim(lots, o.remainingLots, o.maxLotsPerMember);
    setErr(fe?.key ?? null);
    if (!fe) claim.run(Number(lots));
  };
  const valid = validateClaim(lots, o.remainingLots, o.maxLotsPerMember) === null;
  return (
    <form onSubmit={onSubmit} noValidate data-testid="chipgrab-form" className="chipgrab-form">
      <TextField
        label={ct('lots')}
        testId="chipgrab-lots"
        value={lots}
        onChange={(s) => {
          setLots(s.replace(/\D/g, ''));
          setErr(null);
        }}
        inputMode="numeric"
        maxLength={6}
        invalid={err !== null}
      />
      <div className="muted chipgrab-cost" data-testid="chipgrab-cost">
        {valid ? ct('cost', { amount: money(boardLotCost(Number(lots), Number(o.price))) }) : ''}
      </div>
      <FormError errorKey={err} />
      <Button block color="primary" shape="rounded" type="submit" loading={claim.pending} data-testid="chipgrab-submit">
        {ct('claim')}
      </Button>
    </form>
  );
}

function OfferingCard({ o }: { o: Offering }) {
  const ct = useChipGrabT();
  return (
    <div className="record" data-testid="chipgrab-item" data-offering-id={o.offeringId} data-status={o.status}>
      <div className="record-row">
        <span className="record-amount">
          <span data-testid="quote-name">{o.name}</span> <span className="num">{o.symbol}</span>
        </span>
        <span className={`badge badge-chipgrab-${o.status}`} data-testid="chipgrab-status">
          {ct(`status.${o.status}`)}
        </span>
      </div>
      <div className="record-row">
        <span className="muted">{ct('price')}</span>
        <span className="num">{money(o.price)}</span>
      </div>
      <div className="record-row">
        <span className="muted">{ct('quota')}</span>
        <span className="num" data-testid="chipgrab-left">
          {ct('quotaOf', { left: o.remainingLots, total: o.quotaLots })}
        </span>
      </div>
      <ProgressBar percent={o.quotaLots ? ((o.quotaLots - o.remainingLots) * 100) / o.quotaLots : 0} className="chipgrab-bar" />
      <div className="record-row">
        <span className="muted">{ct('perMember')}</span>
        <span className="num">{ct('lotsUnit', { n: o.maxLotsPerMember })}</span>
      </div>
      <div className="record-row">
        <span className="muted">{ct('window')}</span>
        <span className="num">{taipeiWindow(o.opensAt, o.closesAt)}</span>
      </div>
      {o.status === 'open' && o.remainingLots > 0 ? <ClaimForm o={o} /> : null}
    </div>
  );
}

/** Chip grabbing: quota-limited offerings, first come first served; the cost is frozen until ops allot. */
export default function ChipGrabPage() {
  const ct = useChipGrabT();
  const q = useOfferings(false);
  return (
    <RecordScreen
      title={ct('title')}
      testId="chipgrab-page"
      listTestId="chipgrab-list"
      right={
        <AppLink to="/chipgrab/records" className="nav-right-link" data-testid="chipgrab-records-link">
          {ct('records')}
        </AppLink>
      }
      pending={q.isPending}
      items={q.data ?? []}
      emptyText={ct('empty')}
      onRefresh={() => q.refetch()}
      itemKey={(o) => o.offeringId}
      render={(o) => <OfferingCard o={o} />}
    />
  );
}
