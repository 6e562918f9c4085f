import { AppNavLink } from '@/components/AppLink';
import { useCreditT } from './texts';

/** Links between the credit screens of ops. */
export function CreditOpsNav() {
  const ct = useCreditT();
  return (
    <nav className="ops-nav" aria-label={ct('title')} data-testid="credit-ops-nav">
      <AppNavLink to="/ops/credit/loans" className="ops-nav-link" data-testid="credit-ops-nav-loans">
        {ct('ops.loans')}
      </AppNavLink>
      <AppNavLink to="/ops/credit/seats" className="ops-nav-link" data-testid="credit-ops-nav-seats">
        {ct('ops.seats')}
      </AppNavLink>
    </nav>
  );
}
