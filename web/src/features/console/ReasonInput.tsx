/** The reason ops give for an action (up to 200 characters, as the server takes). */
export function ReasonInput({ label, value, onChange, testId }: { label: string; value: string; onChange: (v: string) => void; testId: string }) {
  return <input aria-label={label} placeholder={label} value={value} maxLength={200} onChange={(e) => onChange(e.target.value)} data-testid={testId} />;
}
