import { Button } from 'antd-mobile';
import { useState } from 'react';
import { ListEmpty, ListLoading } from '@/components/ListState';
import { Page } from '@/components/Page';
import { Row } from '@/domain/offering/Row';
import { money } from '@/lib/filters';
import { useAuditAuctions, useAwardCheck } from './api';
import { AuctionHead } from './Fields';
import { useAuctionT } from './texts';

/** The award of one auction re-run from the log by the server for the auditor. */
function Check({ id }: { id: string }) {
  const s = useAuctionT();
  const q = useAwardCheck(id);
  const c = q.data;
  if (!c) return <ListLoading />;
  if (!c.resulted) return <div className="muted">{s('audit.notAwarded')}</div>;
  return (
    <div data-testid="auction-check" data-verified={c.verified}>
      <div className={`badge badge-${c.verified ? 'completed' : 'rejected'}`}>{c.verified ? s('audit.verified') : s('audit.notVerified')}</div>
      <Row label={s('audit.entries')}>{c.entries.length}</Row>
      <div className="muted">{s('draw.seed')}</div>
      <div className="num offering-hex">{c.seed}</div>
      <div className="section-title">{s('audit.grants')}</div>
      {c.grants.map((g, i) => (
        <div key={g.no} className="record-row" data-testid="auction-check-grant" data-match={c.recomputed[i]?.no === g.no && c.recomputed[i]?.shares === g.shares}>
          <span className="num">{g.no}</span>
          <span className="num">
            {money(g.price)} · {s('shares', { n: g.shares })}
          </span>
        </div>
      ))}
      {c.problems.map((p) => (
        <div key={p} className="down">
          {p}
        </div>
      ))}
    </div>
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
