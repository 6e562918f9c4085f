import type { FeatureRoute } from '@/lib/routes';

const consoleLabel = { tw: '營運後台', en: 'Ops console' };

export const consoleRoutes: FeatureRoute[] = [
  {
    path: 'ops/console',
    zone: 'ops',
    load: () => import('./ConsoleHomePage'),
    entries: [
      { place: 'home', key: 'opsConsole', label: consoleLabel, roles: ['ops'], icon: 'review' },
      { place: 'mine', key: 'ops-console', label: consoleLabel, roles: ['ops'] },
    ],
  },
  { path: 'ops/channels', zone: 'ops', load: () => import('./ChannelsPage') },
  { path: 'ops/invites', zone: 'ops', load: () => import('./InvitesPage') },
  { path: 'ops/texts', zone: 'ops', load: () => import('./TextsPage') },
  { path: 'ops/members', zone: 'ops', load: () => import('./MembersPage') },
  { path: 'ops/changes', zone: 'ops', load: () => import('./ChangesPage') },
];
