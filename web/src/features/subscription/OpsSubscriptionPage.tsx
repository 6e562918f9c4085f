import { useQueryClient } from '@tanstack/react-query';
import { Button } from 'antd-mobile';
import { type FormEvent, useState } from 'react';
import { FormError } from '@/components/FormError';
import { ListEmpty, ListLoading } from '@/components/ListState';
import { Page } from '@/components/Page';
import { TextField } from '@/components/TextField';
import { Entrant } from '@/domain/offering/Entrant';
import { Row } from '@/domain/offering/Row';
import { useAction } from '@/lib/action';
import { money } from '@/lib/filters';
import { toast } from '@/lib/toast';
import { type Issue, type IssueForm, listIssue, subKeys, useOpsApplications, useOpsIssues } from './api';
import { IssueFields, IssueHeading } from './Fields';
import { emptyIssue, issueBody, type IssueValues } from './issues';
import { type SubscriptionKey, useSubT } from './texts';

// The form's label is ops.<key>, or where the form asks for a figure the issue card shows, that figure's label.
const TEXT_FIELDS: { key: keyof IssueValues; label?: SubscriptionKey; type?: string; mode?: 'decimal' | 'numeric' }[] = [
  { key: 'symbol' },
  { key: 'name' },
  { key: 'price', mode: 'decimal' },
  { key: 'referencePrice', mode: 'decimal' },
  { key: 'lots', mode: 'numeric' },
  { key: 'unitLots', mode: 'numeric' },
  { key: 'opensAt', type: 'datetime-local' },
  { key: 'closesAt', type: 'datetime-local' },
  { key: 'drawDate', label: 'field.drawDate', type: 'date' },
  { key: 'deductionDate', label: 'field.deductionDate', type: 'date' },
  { key: 'refundDate', label: 'field.refundDate', type: 'date' },
  { key: 'listingDate', label: 'field.listingDate', type: 'date' },
  { key: 'pe', label: 'field.pe', mode: 'decimal' },
  { key: 'industryPe', label: 'field.industryPe', mode: 'decimal' },
];

function ListForm() {
  const s = useSubT();
  const qc = useQueryClient();
  const [v, setV] = useState<IssueValues>(emptyIssue);
  const [err, setErr] = useState<string | null>(null);
  const list = useAction((body: IssueForm, key) => listIssue(body, key), {
    onSuccess: (r) => {
      toast.show(s('ops.listed', { commitment: r.commitment.slice(0, 12) }));
      setV(emptyIssue);
      void qc.invalidateQueries({ queryKey: subKeys.all });
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const body = issueBody(v);
    setErr(body ? null : 'subscription.ops.required');
    if (body) list.run(body);
  };
  return (
    <form className="card" onSubmit={submit} data-testid="ops-sub-form">
      <div className="section-title">{s('ops.list')}</div>
      {TEXT_FIELDS.map((f) => (
        <TextField
          key={f.key}
          label={s(f.label ?? (`ops.${f.key}` as SubscriptionKey))}
          testId={`ops-sub-${f.key}`}
          value={v[f.key]}
          type={f.type}
          inputMode={f.mode}
          maxLength={40}
          onChange={(x) => setV((p) => ({ ...p, [f.key]: x }))}
        />
      ))}
      <FormError errorKey={err} />
      <Button block color="primary" type="submit" loading={list.pending} data-testid="ops-sub-submit">
        {s('ops.submit')}
      </Button>
    </form>
  );
}

function Applications({ id }: { id: string }) {
  const s = useSubT();
  const q = useOpsApplications(id);
  if (q.isPending) return <ListLoading />;
  if ((q.data ?? []).length === 0) return <div className="muted">{s('ops.none')}</div>;
  return (
    <div data-testid="ops-sub-applications">
      {(q.data ?? []).map((a) => (
        <div key={a.applicationNo} className="record-row" data-testid="ops-sub-application" data-state={a.state}>
          <span>
            <span className="num">{a.applicationNo}</span>
            <Entrant member={a.member} />
          </span>
          <span>
            {s(`allotment.${a.state}`)} · <span className="num">{money(a.amount)}</span>
          </span>
        </div>
      ))}
    </div>
  );
}

function IssueCard({ is }: { is: Issue }) {
  const s = useSubT();
  const [open, setOpen] = useState(false);
  return (
    <div className="card record" data-testid="ops-sub-issue" data-issue={is.issueId}>
      <IssueHeading is={is} />
      <IssueFields is={is} />
      <Row label={s('field.applications')}>{is.applications}</Row>
      <Row label={s('draw.winners')}>{is.drawn ? is.winners : s('draw.notRevealed')}</Row>
      <div className="muted">{s('draw.commitment')}</div>
      <div className="num break-all">{is.commitment}</div>
      <Button size="small" onClick={() => setOpen((o) => !o)} data-testid="ops-sub-toggle">
        {s('ops.applications')}
      </Button>
      {open ? <Applications id={is.issueId} /> : null}
    </div>
  );
}

/** Ops: list a new-share issue and follow every issue's applications and draw (/ops/subscription). */
export default function OpsSubscriptionPage() {
  const s = useSubT();
  const q = useOpsIssues();
  return (
    <Page title={s('ops.title')} testId="ops-subscription-page">
      <ListForm />
      {q.isPending ? <ListLoading /> : (q.data ?? []).length === 0 ? <ListEmpty text={s('empty')} /> : (q.data ?? []).map((is) => <IssueCard key={is.issueId} is={is} />)}
    </Page>
  );
}
