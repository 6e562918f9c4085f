import { AppNavLink } from '@/components/AppLink';
import { useWalletT } from '@/domain/wallet/texts';
import '@/domain/wallet/wallet.css';

/** The ops review queues, linked from each of them (the deposit queue is the ops home). */
export function OpsNav() {
  const w = useWalletT();
  const links = [
    { to: '/ops/console', key: 'ops.console', id: 'console' },
    { to: '/ops/deposits', key: 'ops.deposits', id: 'deposits' },
    { to: '/ops/realname', key: 'ops.realNameTitle', id: 'realname' },
    { to: '/ops/withdrawals', key: 'ops.withdrawalsTitle', id: 'withdrawals' },
  ] as const;
  return (
    <nav className="ops-nav" aria-label={w('ops.nav')} data-testid="ops-nav">
      {links.map((l) => (
        <AppNavLink key={l.id} to={l.to} className="ops-nav-link" data-testid={`ops-nav-${l.id}`}>
          {w(l.key)}
        </AppNavLink>
      ))}
    </nav>
  );
}
