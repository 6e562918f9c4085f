import { money } from '@/lib/filters';
import type { CreditSummary } from './api';
import { useWalletT } from './texts';

/**
 * A member's loans in three figures from the server's credit summary: debt (principal and accrued
 * interest), loanable amount and borrowed amount. Mine, the wallet and the borrow screen show the
 * same figures; test ids are `${prefix}-debt`, `${prefix}-loanable`, `${prefix}-borrowed`.
 */
export function LoanFigures({ s, prefix, className }: { s: CreditSummary | undefined; prefix: string; className?: string }) {
  const w = useWalletT();
  const figures = [
    ['debt', s?.debt],
    ['loanable', s?.loanable],
    ['borrowed', s?.borrowed],
  ] as const;
  return (
    <div className={className ?? 'loan-figures'} data-testid={`${prefix}-loan-figures`}>
      {figures.map(([k, v]) => (
        <div key={k}>
          <div className="muted">{w(`loans.${k}`)}</div>
          <div className="num loan-figure" data-testid={`${prefix}-${k}`}>
            {v === undefined ? '--' : money(v)}
          </div>
        </div>
      ))}
    </div>
  );
}
