import { useQueryClient } from '@tanstack/react-query';
import { Button, Dialog } from 'antd-mobile';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ListEmpty, ListLoading } from '@/components/ListState';
import { Page } from '@/components/Page';
import { type OfferingField, OfferingForm } from '@/components/OfferingForm';
import { Entrant } from '@/domain/offering/Entrant';
import { useAction } from '@/lib/action';
import { money } from '@/lib/filters';
import { toast } from '@/lib/toast';
import { offerPlacement, type Placement, placementKeys, requestAllotment, useOpsApplications, useOpsPlacements } from './api';
import { PlacementFields, PlacementHead } from './Fields';
import { emptyPlacement, placementBody, type PlacementValues } from './placements';
import { type PlacementKey, usePlacementT } from './texts';

const FIELDS: OfferingField<keyof PlacementValues>[] = [
  { key: 'symbol' },
  { key: 'name' },
  { key: 'price', mode: 'decimal' },
  { key: 'lots', mode: 'numeric' },
  { key: 'maxLotsPerMember', mode: 'numeric' },
  { key: 'opensAt', type: 'datetime-local' },
  { key: 'closesAt', type: 'datetime-local' },
  { key: 'listingDate', type: 'date' },
];

function OfferForm() {
  const s = usePlacementT();
  const qc = useQueryClient();
  return (
    <OfferingForm
      title={s('ops.offer')}
      submitText={s('ops.submit')}
      testPrefix="ops-placement"
      fields={FIELDS}
      empty={emptyPlacement}
      label={(k) => s(`ops.${k}` as PlacementKey)}
      toBody={placementBody}
      requiredKey="placement.ops.required"
      send={offerPlacement}
      onDone={(r) => {
        toast.show(s('ops.offered', { commitment: r.commitment.slice(0, 12) }));
        void qc.invalidateQueries({ queryKey: placementKeys.all });
      }}
    />
  );
}

function Applications({ id }: { id: string }) {
  const s = usePlacementT();
  const q = useOpsApplications(id);
  if (q.isPending) return <ListLoading />;
  if ((q.data ?? []).length === 0) return <div className="muted">{s('ops.none')}</div>;
  return (
    <div data-testid="ops-placement-applications">
      {(q.data ?? []).map((a) => (
        <div key={a.applicationNo} className="record-row" data-testid="ops-placement-application" data-state={a.state}>
          <span>
            <span className="num">{a.applicationNo}</span>
            <Entrant member={a.member} />
          </span>
          <span>
            {s(`appState.${a.state}`)} · <span className="num">{s('shares', { n: a.state === 'applied' ? a.shares : a.allotted })}</span>
          </span>
        </div>
      ))}
    </div>
  );
}

function PlacementCard({ p }: { p: Placement }) {
  const s = usePlacementT();
  const { t } = useTranslation();
  const qc = useQueryClient();
  const [open, setOpen] = useState(false);
  const allot = useAction((_: null, key) => requestAllotment(p.placementId, key), {
    onSuccess: () => {
      toast.show(s('ops.allotRequested'));
      void qc.invalidateQueries({ queryKey: placementKeys.all });
    },
  });
  return (
    <div className="card record" data-testid="ops-placement" data-placement={p.placementId}>
      <PlacementHead p={p} />
      <PlacementFields p={p} />
      <div className="muted">{s('draw.commitment')}</div>
      <div className="num offering-hex">{p.commitment}</div>
      {p.state === 'closed' && !p.requested ? (
        <Button
          block
          color="primary"
          loading={allot.pending}
          data-testid="ops-placement-allot"
          onClick={() =>
            void Dialog.confirm({
              content: s('ops.allotConfirm', { name: p.name }),
              confirmText: s('ops.allot'),
              cancelText: t('common.cancel'),
              onConfirm: () => allot.run(null),
            })
          }
        >
          {s('ops.allot')}
        </Button>
      ) : p.requested && !p.allotted ? (
        <div className="muted">{s('ops.requested')}</div>
      ) : null}
      <Button size="small" onClick={() => setOpen((o) => !o)} data-testid="ops-placement-toggle">
        {s('ops.applications')} · {money(p.price)}
      </Button>
      {open ? <Applications id={p.placementId} /> : null}
    </div>
  );
}

/** Ops: offer a placement, follow its applications and start its allotment after the window (/ops/placement). */
export default function OpsPlacementPage() {
  const s = usePlacementT();
  const q = useOpsPlacements();
  return (
    <Page title={s('ops.title')} testId="ops-placement-page">
      <OfferForm />
      {q.isPending ? <ListLoading /> : (q.data ?? []).length === 0 ? <ListEmpty text={s('empty')} /> : (q.data ?? []).map((p) => <PlacementCard key={p.placementId} p={p} />)}
    </Page>
  );
}
