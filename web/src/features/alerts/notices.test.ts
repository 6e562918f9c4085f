import { describe, expect, it } from 'vitest';
import type { PriceAlert } from './api';
import { freshlyFired } from './notices';

const fired = (id: string, at: number): PriceAlert => ({
  id,
  symbol: '2330',
  name: '台積電',
  nameEn: 'TSMC',
  kind: 'price_above',
  value: '1000',
  status: 'triggered',
  price: '1005.00',
  createdAt: '2026-03-02T02:00:00Z',
  position: at - 5,
  firedPosition: at,
});

// The toast on any screen names only alerts that fired while the app was up: the first look sets
// the baseline (older ones wait in the notifications, badged), later looks name the new, oldest first.
describe('freshlyFired', () => {
  it('names nothing at the first look, then what fired since, oldest first', () => {
    expect(freshlyFired('a', [fired('x1', 10)])).toEqual([]);
    expect(freshlyFired('a', [fired('x1', 10)])).toEqual([]);
    expect(freshlyFired('a', [fired('x3', 30), fired('x2', 20), fired('x1', 10)]).map((a) => a.id)).toEqual(['x2', 'x3']);
    expect(freshlyFired('a', [fired('x3', 30), fired('x2', 20), fired('x1', 10)])).toEqual([]);
  });
  it('keeps a baseline per account', () => {
    expect(freshlyFired('b', [])).toEqual([]);
    expect(freshlyFired('c', [fired('y1', 50)])).toEqual([]);
    expect(freshlyFired('b', [fired('y1', 50)]).map((a) => a.id)).toEqual(['y1']);
  });
});
