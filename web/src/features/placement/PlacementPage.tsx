import { useQueryClient } from '@tanstack/react-query';
import { Button, Dialog } from 'antd-mobile';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormError } from '@/components/FormError';
import { OfferingList } from '@/components/OfferingList';
import { TextField } from '@/components/TextField';
import { Row } from '@/domain/offering/Row';
import { useAction } from '@/lib/action';
import { money } from '@/lib/filters';
import { queryKeys } from '@/lib/query';
import { toast } from '@/lib/toast';
import { applyPlacement, type Placement, placementKeys, usePlacements } from './api';
import { PlacementFields, PlacementHead } from './Fields';
import { applyBlock, applyLots } from './placements';
import { usePlacementT } from './texts';

/** The application form of one open placement: lots, the amount they freeze, a confirmation. */
function ApplyForm({ p }: { p: Placement }) {
  const s = usePlacementT();
  const { t } = useTranslation();
  const qc = useQueryClient();
  const [lots, setLots] = useState('');
  const [err, setErr] = useState<string | null>(null);
  const apply = useAction((n: number, key) => applyPlacement(p.placementId, n, key), {
    onSuccess: () => {
      toast.show(s('appliedToast'));
      setLots('');
      void qc.invalidateQueries({ queryKey: placementKeys.all });
      void qc.invalidateQueries({ queryKey: queryKeys.userInfo });
    },
  });
  const block = applyBlock(p);
  if (block !== null) {
    return (
      <Button block disabled data-testid="placement-apply-blocked" data-reason={block}>
        {s(`cannotApply.${block}`)}
      </Button>
    );
  }
  const checked = applyLots(p, lots);
  const amount = 'lots' in checked ? (Math.round(Number(p.price) * 100) * checked.lots * p.lotShares) / 100 : null;
  return (
    <form
      className="offering-form"
      data-testid="placement-apply-form"
      onSubmit={(e) => {
        e.preventDefault();
        if ('error' in checked) {
          setErr(checked.error);
          return;
        }
        setErr(null);
        void Dialog.confirm({
          content: s('applyConfirm', { name: p.name, lots: checked.lots, amount: money(String(amount)) }),
          confirmText: s('apply'),
          cancelText: t('common.cancel'),
          onConfirm: () => apply.run(checked.lots),
        });
      }}
    >
      <TextField
        label={s('lotsLabel')}
        testId="placement-lots"
        value={lots}
        inputMode="numeric"
        maxLength={8}
        onChange={(v) => {
          setLots(v);
          setErr(null);
        }}
      />
      <div className="muted offering-preview" data-testid="placement-amount-preview">
        {amount !== null ? `NT$${money(String(amount))}` : '\u00a0'}
      </div>
      <FormError errorKey={err} />
      <Button block color="primary" type="submit" loading={apply.pending} data-testid="placement-apply">
        {s('apply')}
      </Button>
    </form>
  );
}

/** Inquiry subscription: every placement with its terms, the member's lots and the application form (/market/subscribe1). */
export default function PlacementPage() {
  const s = usePlacementT();
  const q = usePlacements();
  return (
    <OfferingList
      title={s('title')}
      testId="placement-page"
      records={{ to: '/market/subscribe1Record', testId: 'placement-records-link', text: s('recordsShort') }}
      pending={q.isPending}
      items={q.data ?? []}
      emptyText={s('empty')}
      itemKey={(p) => p.placementId}
      render={(p) => (
        <div className="card record" data-testid="placement-item" data-placement={p.placementId}>
          <PlacementHead p={p} />
          <PlacementFields p={p} />
          <Row label={s('field.myLots')} testId="placement-my-lots">
            {p.myLots}
          </Row>
          <div className="muted">{s('draw.commitment')}</div>
          <div className="num offering-hex">{p.commitment}</div>
          <div className="muted">{s('draw.seed')}</div>
          <div className="num offering-hex" data-testid="placement-seed">
            {p.allotted ? p.seed : s('draw.notRevealed')}
          </div>
          <ApplyForm p={p} />
        </div>
      )}
    >
      <div className="card muted" style={{ lineHeight: 1.7 }}>
        {s('rule')}
      </div>
    </OfferingList>
  );
}
