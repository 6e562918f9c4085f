import './offering.css';

/** One label and its value on an offering's card. */
export function Row({ label, children, testId }: { label: string; children: React.ReactNode; testId?: string }) {
  return (
    <div className="record-row">
      <span className="muted">{label}</span>
      <span className="num" data-testid={testId}>
        {children}
      </span>
    </div>
  );
}
