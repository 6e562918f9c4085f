import { declareFundLines } from '@/lib/fundLines';
import { declarePositionTab } from '@/lib/positionTabs';
import type { FeatureRoute } from '@/lib/routes';

// The lines a placement writes in fund records.
declareFundLines({
  placement_freeze: { tw: '配售凍結', en: 'Placement freeze' },
  placement_payment: { tw: '配售扣款', en: 'Placement payment' },
  placement_refund: { tw: '配售退款', en: 'Placement refund' },
  placement_delivery: { tw: '配售撥券', en: 'Placement shares delivered' },
});

// The positions screen's placement tab (lib/positionTabs.ts): applications and allotted shares.
declarePositionTab({ key: 'placement', label: { tw: '配售', en: 'Placement' }, order: 60, load: () => import('./PositionTab') });

export const placementRoutes: FeatureRoute[] = [
  {
    path: 'market/subscribe1',
    zone: 'session',
    keepAlive: true,
    load: () => import('./PlacementPage'),
    entries: [{ place: 'home', key: 'placement', label: { tw: '詢圈配售', en: 'Inquiry subscription' }, roles: ['member'], icon: 'pay' }],
  },
  {
    path: 'market/subscribe1Record',
    zone: 'session',
    load: () => import('./PlacementRecordPage'),
    entries: [{ place: 'mine', key: 'placementRecords', label: { tw: '配售紀錄', en: 'Placement records' }, roles: ['member'] }],
  },
  {
    path: 'ops/placement',
    zone: 'ops',
    load: () => import('./OpsPlacementPage'),
    entries: [{ place: 'mine', key: 'opsPlacement', label: { tw: '詢圈配售管理', en: 'Placements' }, roles: ['ops'] }],
  },
  {
    path: 'audit/placement',
    zone: 'auditor',
    load: () => import('./AllotmentAuditPage'),
    entries: [{ place: 'mine', key: 'auditPlacement', label: { tw: '配售驗證', en: 'Allotment verification' }, roles: ['auditor'] }],
  },
];
