/** One label and its figure on a trade card. */
export function Kv({ label, value, cls = '', testId }: { label: string; value: string; cls?: string; testId?: string }) {
  return (
    <div className="kv">
      <span>{label}</span>
      <span className={`num ${cls}`} data-testid={testId}>
        {value}
      </span>
    </div>
  );
}
