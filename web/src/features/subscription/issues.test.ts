import { describe, expect, it } from 'vitest';
import { applyBlock, emptyIssue, issueBody, taipeiInstant } from './issues';

describe('applyBlock', () => {
  it('lets a member apply only while the window is open and only once', () => {
    expect(applyBlock({ state: 'to_subscribe', applied: false })).toBeNull();
    expect(applyBlock({ state: 'to_subscribe', applied: true })).toBe('applied');
    expect(applyBlock({ state: 'not_started', applied: false })).toBe('not_started');
    expect(applyBlock({ state: 'subscribing', applied: false })).toBe('subscribing');
    expect(applyBlock({ state: 'ended', applied: false })).toBe('ended');
  });
});

describe('issueBody', () => {
  const full = {
    ...emptyIssue, symbol: '1295', price: '50', referencePrice: '72.5', lots: '1000', opensAt: '2026-03-02T09:00', closesAt: '2026-03-03T14:00',
    drawDate: '2026-03-04', deductionDate: '2026-03-05', refundDate: '2026-03-06', listingDate: '2026-03-09', pe: '18.4', industryPe: '25.1',
  };
  it('sends the window as UTC instants and the lots as whole numbers', () => {
    const b = issueBody(full);
    expect(b).toMatchObject({ symbol: '1295', lots: 1000, unitLots: 1, opensAt: '2026-03-02T01:00:00Z', closesAt: '2026-03-03T06:00:00Z' });
    expect(b && 'name' in b).toBe(false);
  });
  it('refuses missing fields and lots that are not whole', () => {
    expect(issueBody({ ...full, pe: ' ' })).toBeNull();
    expect(issueBody({ ...full, lots: '1.5' })).toBeNull();
    expect(issueBody({ ...full, lots: '0' })).toBeNull();
    expect(issueBody({ ...full, opensAt: '2026-03-02' })).toBeNull();
  });
  it('reads Taipei wall-clock times', () => {
    expect(taipeiInstant('2026-03-02T00:30')).toBe('2026-03-01T16:30:00Z');
    expect(taipeiInstant('nonsense')).toBeNull();
  });
});
