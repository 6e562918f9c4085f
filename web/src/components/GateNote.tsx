import { AppLink } from '@/components/AppLink';

/** Why a form cannot be used yet, and the link to the page that resolves it (add a card, set the
 * fund password, verify the real name). Styled by the wallet's CSS (wallet-gate). */
export function GateNote(p: {
  note: string;
  to: string;
  link: string;
  testId: string;
  linkTestId: string;
  card?: boolean;
  status?: string;
}) {
  return (
    <div className={p.card ? 'card wallet-gate' : 'wallet-gate'} data-testid={p.testId} data-status={p.status}>
      <span className="wallet-note">{p.note}</span>
      <AppLink to={p.to} className="wallet-link" data-testid={p.linkTestId}>
        {p.link}
      </AppLink>
    </div>
  );
}
