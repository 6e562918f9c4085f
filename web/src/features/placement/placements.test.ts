import { describe, expect, it } from 'vitest';
import { applyBlock, applyLots, emptyPlacement, placementBody } from './placements';

describe('placement applications', () => {
  it('holds an application to the cap', () => {
    expect(applyLots({ myLots: 1, maxLotsPerMember: 3 }, '2')).toEqual({ lots: 2 });
    expect(applyLots({ myLots: 1, maxLotsPerMember: 3 }, '3')).toEqual({ error: 'offering_cap_exceeded' });
    expect(applyLots({ myLots: 0, maxLotsPerMember: 3 }, '')).toEqual({ error: 'quantity_required' });
    expect(applyLots({ myLots: 0, maxLotsPerMember: 3 }, '0.5')).toEqual({ error: 'quantity_invalid' });
  });
  it('blocks outside the window and at the cap', () => {
    expect(applyBlock({ state: 'open', myLots: 0, maxLotsPerMember: 1 })).toBeNull();
    expect(applyBlock({ state: 'open', myLots: 1, maxLotsPerMember: 1 })).toBe('capped');
    expect(applyBlock({ state: 'closed', myLots: 0, maxLotsPerMember: 1 })).toBe('closed');
  });
  it('builds the ops offer from Taipei times', () => {
    expect(placementBody(emptyPlacement)).toBeNull();
    expect(
      placementBody({ ...emptyPlacement, symbol: '1295', price: '88', lots: '1', maxLotsPerMember: '1', opensAt: '2026-03-02T09:00', closesAt: '2026-03-03T14:00', listingDate: '2026-03-09' }),
    ).toEqual({ symbol: '1295', price: '88', lots: 1, maxLotsPerMember: 1, opensAt: '2026-03-02T01:00:00Z', closesAt: '2026-03-03T06:00:00Z', listingDate: '2026-03-09' });
  });
});
