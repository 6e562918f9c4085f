import { describe, expect, it } from 'vitest';
import { impliedLeverage, leverageChoices, openingDirection, pct, sessionAllows, sessionHint, sizeOf, validateTicket, type Condition, type TicketFields } from './ticket';

const base: TicketFields = { type: 'limit', qty: '1', price: '1000', kind: 'stock', limitUp: '1100.00', limitDown: '900.00' };

describe('validateTicket', () => {
  it.each([
    [{}, null],
    [{ qty: '' }, 'err.quantity'],
    [{ qty: '0' }, 'err.quantity'],
    [{ qty: '1.5' }, 'err.quantity'],
    [{ price: '' }, 'err.price'],
    [{ price: '0' }, 'err.price'],
    [{ price: '1000.' }, 'err.price'],
    [{ price: '.5' }, 'err.price'],
    [{ price: '1000.000' }, 'err.price'],
    [{ price: '1000.123' }, 'err.price'],
    [{ price: '1e3' }, 'err.price'],
    [{ price: ' 1000' }, 'err.price'],
    [{ price: '1000.50' }, 'err.tick'],
    [{ price: '1001' }, 'err.tick'],
    [{ price: '1105' }, 'err.band'],
    [{ price: '895' }, 'err.band'],
    [{ price: '1100' }, null],
    [{ type: 'market', price: '' }, null],
    [{ limitUp: '0.00', limitDown: '0.00', price: '2000' }, null],
  ] as const)('%o → %s', (patch, key) => {
    expect(validateTicket({ ...base, ...patch })?.key ?? null).toBe(key);
  });
});

describe('leverageChoices', () => {
  it('follows the financing and short-margin limits', () => {
    expect(leverageChoices('long', false)).toEqual(['1', '1.5', '2', '2.5']);
    expect(leverageChoices('short', false)).toEqual(['1', '1.11']);
    expect(leverageChoices('long', true)).toEqual(['1']);
  });
});

describe('sizeOf', () => {
  it('counts board lots in lots and the rest in shares', () => {
    expect(sizeOf(2000)).toEqual({ n: 2, unit: 'lots' });
    expect(sizeOf(500)).toEqual({ n: 500, unit: 'shares' });
    expect(sizeOf(0)).toEqual({ n: 0, unit: 'shares' });
  });
});

describe('ticket in Taiwan terms', () => {
  it('lets each session take only what the exchange takes', () => {
    expect(sessionAllows('regular')).toMatchObject({ odd: false, market: true, tifs: ['ROD', 'IOC', 'FOK'] });
    expect(sessionAllows('odd_intraday')).toMatchObject({ odd: true, market: false, tifs: ['ROD'], conditions: ['cash'] });
    expect(sessionAllows('odd_after_hours')).toMatchObject({ odd: true, market: false, tifs: ['ROD'], conditions: ['cash'] });
    expect(sessionAllows('fixed_price')).toMatchObject({ odd: false, market: false, closeOnly: true, conditions: ['cash', 'margin', 'short'] });
  });
  it('shows the leverage a condition implies', () => {
    const r = { maxLongLeverage: '2.5', maxShortLeverage: '1.11' };
    expect(['cash', 'margin', 'short', 'day_trade'].map((c) => impliedLeverage(c as Condition, r))).toEqual(['1', '2.5', '1.11', '1']);
    expect(pct('0.6')).toBe('60');
    expect(pct('0.0015')).toBe('0.15');
  });
});

describe('sessionHint', () => {
  it.each([
    ['regular', 60, { key: 'tk.sessHint.regular' }],
    ['odd_intraday', 60, { key: 'tk.sessHint.odd_intraday' }],
    ['odd_after_hours', 0, { key: 'tk.sessHint.odd_after_hours' }],
    ['fixed_price', 0, { key: 'tk.sessHint.fixed_price' }],
    ['odd_after_hours', 60, { key: 'tk.sessHintDemo.odd_after_hours', opts: { min: '1' } }],
    ['fixed_price', 120, { key: 'tk.sessHintDemo.fixed_price', opts: { min: '2' } }],
  ] as const)('%s with after-hours auctions every %i s: the exchange hours, or the published demo cadence', (s, every, want) => {
    expect(sessionHint(s, every)).toEqual(want);
  });
});

describe('openingDirection', () => {
  it.each([
    ['cash', 'buy', 'long'],
    ['cash', 'sell', 'long'],
    ['margin', 'sell', 'long'],
    ['short', 'buy', 'short'],
    ['day_trade', 'buy', 'long'],
    ['day_trade', 'sell', 'short'],
  ] as const)('%s %s → %s', (c, way, want) => {
    expect(openingDirection(c, way)).toBe(want);
  });
});
