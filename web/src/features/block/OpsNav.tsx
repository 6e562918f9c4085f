import { AppNavLink } from '@/components/AppLink';
import { useBlockT } from './texts';

/** Links between the block screens of ops. */
export function BlockOpsNav() {
  const bt = useBlockT();
  return (
    <nav className="ops-nav" aria-label={bt('ops.title')} data-testid="block-ops-nav">
      <AppNavLink to="/ops/block" className="ops-nav-link" data-testid="block-ops-nav-blocks">
        {bt('ops.title')}
      </AppNavLink>
      <AppNavLink to="/ops/blockApplications" className="ops-nav-link" data-testid="block-ops-nav-queue">
        {bt('ops.queue')}
      </AppNavLink>
    </nav>
  );
}
