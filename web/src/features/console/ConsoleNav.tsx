import { useTranslation } from 'react-i18next';
import { AppNavLink } from '@/components/AppLink';
import '@/domain/wallet/wallet.css';

/** The console's set-up screens, linked from each of them. */
export function ConsoleNav() {
  const { t } = useTranslation();
  const links = [
    { to: '/ops/console', key: 'console.title', id: 'home' },
    { to: '/ops/channels', key: 'console.channels', id: 'channels' },
    { to: '/ops/invites', key: 'console.invites', id: 'invites' },
    { to: '/ops/texts', key: 'console.texts', id: 'texts' },
    { to: '/ops/members', key: 'console.members', id: 'members' },
    { to: '/ops/changes', key: 'console.changes', id: 'changes' },
  ] as const;
  return (
    <nav className="ops-nav" aria-label={t('console.setup')} data-testid="console-nav">
      {links.map((l) => (
        <AppNavLink key={l.id} to={l.to} className="ops-nav-link" data-testid={`console-nav-${l.id}`}>
          {t(l.key)}
        </AppNavLink>
      ))}
    </nav>
  );
}
