import { describe, expect, it } from 'vitest';
import { priceOf, taipeiInstant, wholeLots } from './offering';

describe('offering form values', () => {
  it('reads a Taipei wall-clock time as an instant', () => {
    expect(taipeiInstant('2026-03-02T09:00')).toBe('2026-03-02T01:00:00Z');
    expect(taipeiInstant('2026-03-02 09:00')).toBeNull();
    expect(taipeiInstant('')).toBeNull();
  });
  it('takes whole lots from 1', () => {
    expect(wholeLots('3')).toBe(3);
    expect(wholeLots(' 12 ')).toBe(12);
    for (const bad of ['0', '-1', '1.5', '1e3', '', 'abc', '123456789']) expect(wholeLots(bad)).toBeNull();
  });
  it('takes positive prices with at most two decimals', () => {
    expect(priceOf('60')).toBe('60');
    expect(priceOf('60.25')).toBe('60.25');
    for (const bad of ['0', '60.001', '-1', 'abc', '', '1e2', '.5']) expect(priceOf(bad)).toBeNull();
  });
});
