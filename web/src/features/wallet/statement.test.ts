import { describe, expect, it } from 'vitest';
import type { Statement } from './api';
import { BOM, csvCell, fundsCsv, netOfLines, shiftMonth, sumCents, taipeiMonth, taipeiStamp, tradesCsv } from './statement';

const labels = { col: (k: string) => k, type: (t: string) => `T:${t}`, status: (s: string) => s, side: (s: string) => s };

const st: Statement = {
  month: '2026-03',
  from: '2026-02-28T16:00:00Z',
  to: '2026-03-31T16:00:00Z',
  truncated: false,
  cash: [{ currency: 'TWD', opening: '0.00', closing: '617470.00', change: '617470.00' }],
  lines: [
    { seq: 22, type: 'deposit', orderNo: 'D1', currency: 'TWD', amount: '1000000', status: 'approved', remark: '', symbol: '', createdAt: '2026-03-02T02:00:00Z' },
    { seq: 23, type: 'deposit', orderNo: 'D2', currency: 'TWD', amount: '5000', status: 'rejected', remark: 'blurry, "retake"', symbol: '', createdAt: '2026-03-02T02:00:00Z' },
    { seq: 26, type: 'withdraw', orderNo: 'W1', currency: 'TWD', amount: '-10000', status: 'approved', remark: '', symbol: '', createdAt: '2026-03-02T02:00:00Z' },
    { seq: 27, type: 'trade', orderNo: 'T1', currency: 'TWD', amount: '-372000', status: 'completed', remark: '長榮', symbol: '2603', createdAt: '2026-03-02T02:00:00Z' },
    { seq: 27, type: 'fee', orderNo: 'T1', currency: 'TWD', amount: '-530', status: 'completed', remark: '=HYPERLINK("x")', symbol: '2603', createdAt: '2026-03-02T02:00:00Z' },
    { seq: 28, type: 'allotment', orderNo: 'A1', currency: 'TW:2603', amount: '1000', status: 'completed', remark: '', symbol: '2603', createdAt: '2026-03-02T02:00:00Z' },
  ],
  trades: [
    { orderNo: 'T1', symbol: '2603', name: '長榮', side: 'buy', shares: '2000', currency: 'TWD', amount: '-372000', fee: '-530', tax: '0', financing: '0', collateral: '0', settleDate: '2026-03-04', at: '2026-03-02T02:00:00Z' },
  ],
  totals: [],
};

describe('statement', () => {
  it('names Taipei months and moves between them', () => {
    expect(taipeiMonth(new Date('2026-02-28T16:00:00Z'))).toBe('2026-03');
    expect(taipeiMonth(new Date('2026-02-28T15:59:59Z'))).toBe('2026-02');
    expect(shiftMonth('2026-01', -1)).toBe('2025-12');
    expect(shiftMonth('2025-12', 1)).toBe('2026-01');
    expect(shiftMonth('2026-03', 0)).toBe('2026-03');
    expect(taipeiStamp('2026-03-01T17:05:09Z')).toBe('2026-03-02 01:05:09');
  });

  it('quotes and defuses CSV fields', () => {
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('-530')).toBe('-530');
    expect(csvCell('=1+1', true)).toBe("'=1+1");
    expect(csvCell('長榮')).toBe('長榮');
  });

  it('exports fund records with a BOM, CRLF lines and every line of the month', () => {
    const out = fundsCsv(st, labels);
    expect(out.startsWith(BOM)).toBe(true);
    const rows = out.slice(1).trimEnd().split('\r\n');
    expect(rows[0]).toBe('date,type,orderNo,currency,amount,status,symbol,remark');
    expect(rows).toHaveLength(1 + st.lines.length);
    expect(rows[1]).toBe('2026-03-02 10:00:00,T:deposit,D1,TWD,1000000,approved,,');
    expect(rows[2]).toBe('2026-03-02 10:00:00,T:deposit,D2,TWD,5000,rejected,,"blurry, ""retake"""');
    expect(rows[5]).toContain(`,"'=HYPERLINK(""x"")"`);
  });

  it('exports the fills with fee and tax', () => {
    const rows = tradesCsv(st, labels).slice(1).trimEnd().split('\r\n');
    expect(rows).toEqual([
      'date,orderNo,symbol,name,side,shares,currency,amount,fee,tax,financing,collateral,settleDate',
      '2026-03-02 10:00:00,T1,2603,長榮,buy,2000,TWD,-372000,-530,0,0,0,2026-03-04',
    ]);
  });

  it('adds up: opening plus the lines that happened is closing', () => {
    const net = netOfLines(st);
    expect(net).toEqual({ TWD: '617470.00' });
    const c = st.cash[0]!;
    expect(sumCents([c.opening, net.TWD!])).toBe(sumCents([c.closing]));
    expect(sumCents(['0.1', '0.25', '-1'])).toBe('-0.65');
  });
});
