import { useState } from 'react';
import { ListLoading } from '@/components/ListState';
import { Page } from '@/components/Page';
import { TextField } from '@/components/TextField';
import { Row } from '@/domain/offering/Row';
import { useSearchParams } from 'react-router-dom';
import { useDrawCheck } from './api';
import { useSubT } from './texts';

/** Auditor: an issue's draw re-run from the log: commitment, seed and every winner (/audit/subscription?id=). */
export default function DrawAuditPage() {
  const s = useSubT();
  const [params, setParams] = useSearchParams();
  const id = params.get('id') ?? '';
  const [typed, setTyped] = useState(id);
  const q = useDrawCheck(id);
  const d = q.data;
  const yes = (b: boolean) => (b ? s('audit.yes') : s('audit.no'));
  return (
    <Page title={s('audit.title')} testId="draw-audit-page">
      <form
        className="card"
        onSubmit={(e) => {
          e.preventDefault();
          setParams({ id: typed.trim() });
        }}
      >
        <TextField label={s('draw.title')} testId="draw-audit-issue" value={typed} onChange={setTyped} maxLength={64} />
      </form>
      {id && q.isPending ? <ListLoading /> : null}
      {d ? (
        <div className="card record" data-testid="draw-audit" data-verified={d.verified}>
          <div className="section-title" data-testid="draw-audit-verdict">
            {!d.drawn ? s('audit.notDrawn') : d.verified ? s('audit.verified') : s('audit.notVerified')}
          </div>
          <Row label={s('draw.algorithm')}>{d.algorithm}</Row>
          <div className="muted">{s('draw.commitment')}</div>
          <div className="num break-all">{d.commitment}</div>
          <div className="muted">{s('draw.seed')}</div>
          <div className="num break-all">{d.seed || s('draw.notRevealed')}</div>
          <Row label={s('audit.applications')}>{d.applications.length}</Row>
          <Row label={s('audit.seedMatches')}>{yes(d.seedMatches)}</Row>
          <Row label={s('audit.applicationsMatch')}>{yes(d.applicationsMatch)}</Row>
          <Row label={s('audit.winnersMatch')}>{yes(d.winnersMatch)}</Row>
          {d.winners.map((w, i) => (
            <div key={w} className="record-row num" data-testid="draw-audit-winner">
              <span>{i + 1}</span>
              <span>{w}</span>
              <span>{d.recomputed[i] === w ? '✓' : '✗'}</span>
            </div>
          ))}
        </div>
      ) : null}
    </Page>
  );
}
