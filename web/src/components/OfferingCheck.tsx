import type { components } from '@/lib/api/schema';

type Check = components['schemas']['OfferingCheck'];
type Grant = components['schemas']['OfferingGrant'];

interface Props {
  c: Check;
  testId: string;
  labels: { verified: string; notVerified: string; notResulted: string; entries: string; seed: string; grants: string };
  grant: (g: Grant) => string;
}

/** An offering's result as the server re-ran it from the log for the auditor: the verdict, the seed, each grant against the re-run. */
export function OfferingCheck({ c, testId, labels, grant }: Props) {
  if (!c.resulted) return <div className="muted">{labels.notResulted}</div>;
  return (
    <div data-testid={testId} data-verified={c.verified}>
      <div className={`badge badge-${c.verified ? 'completed' : 'rejected'}`}>{c.verified ? labels.verified : labels.notVerified}</div>
      <div className="record-row">
        <span className="muted">{labels.entries}</span>
        <span className="num">{c.entries.length}</span>
      </div>
      <div className="muted">{labels.seed}</div>
      <div className="num offering-hex">{c.seed}</div>
      <div className="section-title">{labels.grants}</div>
      {c.grants.map((g, i) => (
        <div key={g.no} className="record-row" data-testid={`${testId}-grant`} data-match={c.recomputed[i]?.no === g.no && c.recomputed[i]?.shares === g.shares}>
          <span className="num">{g.no}</span>
          <span className="num">{grant(g)}</span>
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
