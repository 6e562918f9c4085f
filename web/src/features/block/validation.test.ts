import { describe, expect, it } from 'vitest';
import { listBody, validateApply, validateList } from './validation';

const terms = { price: '182.77', minLots: 2, dailyCapLots: 4, hasPassword: true };
const ok = { lots: '2', bid: '183', password: 'vip2026' };

describe('validateApply', () => {
  it.each([
    ['ok', ok, null],
    ['no lots', { ...ok, lots: '' }, 'block.err.lotsRequired'],
    ['zero lots', { ...ok, lots: '0' }, 'lots_invalid'],
    ['below the minimum', { ...ok, lots: '1' }, 'block_below_minimum'],
    ['over the cap', { ...ok, lots: '5' }, 'block_over_daily_cap'],
    ['no bid', { ...ok, bid: '' }, 'block.err.bidRequired'],
    ['three decimals', { ...ok, bid: '183.001' }, 'price_invalid'],
    ['bid below the price', { ...ok, bid: '182.76' }, 'block_bid_below_minimum'],
    ['no password', { ...ok, password: '' }, 'block.err.passwordRequired'],
  ])('%s', (_, v, key) => {
    expect(validateApply(v, terms)?.key ?? null).toBe(key);
  });
  it('needs no password for an open block', () => {
    expect(validateApply({ ...ok, password: '' }, { ...terms, hasPassword: false })).toBeNull();
  });
});

describe('validateList', () => {
  const v = { symbol: '2603', mode: 'premium' as const, premium: '-2', price: '', minLots: '2', dailyCap: '4', total: '100', password: '', days: '7' };
  it.each([
    ['ok', v, null],
    ['symbol', { ...v, symbol: '' }, 'symbol_required'],
    ['premium past 10 %', { ...v, premium: '10.5' }, 'premium_invalid'],
    ['fixed price', { ...v, mode: 'price' as const, price: '182.5' }, null],
    ['fixed price malformed', { ...v, mode: 'price' as const, price: '1.234' }, 'price_invalid'],
    ['cap below minimum', { ...v, dailyCap: '1' }, 'lots_invalid'],
    ['total below the cap', { ...v, total: '3' }, 'lots_invalid'],
    ['no total', { ...v, total: '' }, 'lots_invalid'],
    ['500 lots make a block at any price', { ...v, mode: 'price' as const, price: '1', total: '500' }, null],
    ['NT$15 m make a block', { ...v, mode: 'price' as const, price: '150', total: '100' }, null],
    ['neither 500 lots nor NT$15 m', { ...v, mode: 'price' as const, price: '149.99', total: '100' }, 'block_size_too_small'],
    ['no days', { ...v, days: '0' }, 'block_time_invalid'],
  ])('%s', (_, val, key) => {
    expect(validateList(val)?.key ?? null).toBe(key);
  });
  it('opens now for the days given, with the premium only', () => {
    const now = new Date('2026-03-02T02:00:00Z');
    expect(listBody(v, now)).toEqual({
      symbol: '2603', premiumPercent: '-2', minLots: 2, dailyCapLots: 4, totalLots: 100, opensAt: '2026-03-02T02:00:00.000Z', closesAt: '2026-03-09T02:00:00.000Z',
    });
  });
});
