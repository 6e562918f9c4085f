import { describe, expect, it } from 'vitest';
import type { TradeOrder, TradePosition } from '../api';
import { addDecimals, holdingsSummary, taipeiDate, todays } from './summary';

const order = (o: Partial<TradeOrder>): TradeOrder => ({ orderNo: 'T', tradingDay: '2026-03-02', createdAt: '2026-03-02T02:00:00Z', filled: 0, ...o }) as TradeOrder;

describe('trading hub summary', () => {
  it('dates instants in Taipei', () => {
    expect(taipeiDate(new Date('2026-03-01T16:00:00Z'))).toBe('2026-03-02');
    expect(taipeiDate(new Date('2026-03-01T15:59:59Z'))).toBe('2026-03-01');
  });

  it("keeps today's orders, newest first, and the filled ones as fills", () => {
    const got = todays(
      [
        order({ orderNo: 'A', createdAt: '2026-03-02T01:00:00Z', filled: 1000 }),
        order({ orderNo: 'B', createdAt: '2026-03-02T03:00:00Z' }),
        order({ orderNo: 'C', tradingDay: '2026-02-27', filled: 2000 }),
      ],
      '2026-03-02',
    );
    expect(got.orders.map((o) => o.orderNo)).toEqual(['B', 'A']);
    expect(got.fills.map((o) => o.orderNo)).toEqual(['A']);
  });

  it('sums market value and unrealised profit to the cent', () => {
    const p = (marketValue: string, unrealisedProfit: string) => ({ marketValue, unrealisedProfit }) as TradePosition;
    expect(holdingsSummary([p('371000.00', '-1529.10'), p('0.10', '0.20')])).toEqual({ count: 2, marketValue: '371000.10', unrealised: '-1528.90' });
    expect(holdingsSummary([])).toEqual({ count: 0, marketValue: '0.00', unrealised: '0.00' });
    expect(addDecimals(['0.1', '0.2'])).toBe('0.30');
  });
});
