import { Button } from 'antd-mobile';
import { useState } from 'react';
import { ListEmpty, ListLoading } from '@/components/ListState';
import { Page } from '@/components/Page';
import { OfferingCheck } from '@/components/OfferingCheck';
import { useAllotmentCheck, useAuditPlacements } from './api';
import { PlacementHead } from './Fields';
import { usePlacementT } from './texts';

/** The allotment of one placement re-run from the log by the server for the auditor. */
function Check({ id }: { id: string }) {
  const s = usePlacementT();
  const q = useAllotmentCheck(id);
  if (!q.data) return <ListLoading />;
  return (
    <OfferingCheck
      c={q.data}
      testId="placement-check"
      labels={{ verified: s('audit.verified'), notVerified: s('audit.notVerified'), notResulted: s('audit.notAllotted'), entries: s('audit.entries'), seed: s('draw.seed'), grants: s('audit.grants') }}
      grant={(g) => s('shares', { n: g.shares })}
    />
  );
}

/** Auditor: re-run any placement's allotment from the log (/audit/placement). */
export default function AllotmentAuditPage() {
  const s = usePlacementT();
  const q = useAuditPlacements();
  const [open, setOpen] = useState('');
  return (
    <Page title={s('audit.title')} testId="placement-audit-page">
      {q.isPending ? (
        <ListLoading />
      ) : (q.data ?? []).length === 0 ? (
        <ListEmpty text={s('empty')} />
      ) : (
        (q.data ?? []).map((p) => (
          <div key={p.placementId} className="card record" data-testid="audit-placement">
            <PlacementHead p={p} />
            {open === p.placementId ? (
              <Check id={p.placementId} />
            ) : (
              <Button size="small" onClick={() => setOpen(p.placementId)} data-testid="audit-placement-check">
                {s('audit.title')}
              </Button>
            )}
          </div>
        ))
      )}
    </Page>
  );
}
