import { declareFundLines } from '@/lib/fundLines';
import { declarePositionTab } from '@/lib/positionTabs';
import type { FeatureRoute } from '@/lib/routes';

// The fund record line of a chip grab claim's frozen amount (its status turns allotted).
declareFundLines({ chipgrab: { tw: '搶籌凍結', en: 'Chip grab frozen' } });

const opsLabel = { tw: '搶籌管理', en: 'Chip grabbing' };

// The positions screen's chip bidding tab (lib/positionTabs.ts): the member's claims and their state.
declarePositionTab({ key: 'chipgrab', label: { tw: '搶籌', en: 'Chip bidding' }, order: 10, load: () => import('./PositionTab') });

export const chipGrabRoutes: FeatureRoute[] = [
  {
    path: 'chipgrab/list',
    zone: 'session',
    load: () => import('./ChipGrabPage'),
    entries: [{ place: 'home', key: 'chipGrab', label: { tw: '搶籌', en: 'Chip grabbing' }, roles: ['member'], icon: 'fire' }],
  },
  { path: 'chipgrab/records', zone: 'session', load: () => import('./ChipGrabRecordsPage') },
  {
    path: 'ops/chipgrab',
    zone: 'ops',
    load: () => import('./OpsChipGrabPage'),
    entries: [
      { place: 'home', key: 'opsChipGrab', label: opsLabel, roles: ['ops'], icon: 'fire' },
      { place: 'mine', key: 'ops-chipgrab', label: opsLabel, roles: ['ops'] },
    ],
  },
];
