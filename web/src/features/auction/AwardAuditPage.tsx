import { Button } from 'antd-mobile';
import { useState } from 'react';
import { ListEmpty, ListLoading } from '@/components/ListState';
import { Page } from '@/components/Page';
import { OfferingCheck } from '@/components/OfferingCheck';
import { money } from '@/lib/filters';
import { useAuditAuctions, useAwardCheck } from './api';
import { AuctionHead } from './Fields';
import { useAuctionT } from './texts';

/** The award of one auction re-run from the log by the server for the auditor. */
function Check({ id }: { id: string }) {
  const s = useAuctionT();
  const q = useAwardCheck(id);
  if (!q.data) return <ListLoading />;
  return (
    <OfferingCheck
      c={q.data}
      testId="auction-check"
      labels={{ verified: s('audit.verified'), notVerified: s('audit.notVerified'), notResulted: s('audit.notAwarded'), entries: s('audit.entries'), seed: s('draw.seed'), grants: s('audit.grants') }}
      grant={(g) => `${money(g.price)} · ${s('shares', { n: g.shares })}`}
    />
  );
}

/** Auditor: re-run any auction's award from the log (/audit/auction). */
export default function AwardAuditPage() {
  const s = useAuctionT();
  const q = useAuditAuctions();
  const [open, setOpen] = useState('');
  return (
    <Page title={s('audit.title')} testId="auction-audit-page">
      {q.isPending ? (
        <ListLoading />
      ) : (q.data ?? []).length === 0 ? (
        <ListEmpty text={s('empty')} />
      ) : (
        (q.data ?? []).map((a) => (
          <div key={a.auctionId} className="card record" data-testid="audit-auction">
            <AuctionHead a={a} />
            {open === a.auctionId ? (
              <Check id={a.auctionId} />
            ) : (
              <Button size="small" onClick={() => setOpen(a.auctionId)} data-testid="audit-auction-check">
                {s('audit.title')}
              </Button>
            )}
          </div>
        ))
      )}
    </Page>
  );
}
