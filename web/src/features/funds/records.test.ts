import { describe, expect, it } from 'vitest';
import type { FundRecord } from './api';
import { groupRecords, tabOf } from './records';

const rec = (p: Partial<FundRecord>): FundRecord => ({
  orderNo: 'D1',
  type: 'deposit',
  currency: 'TWD',
  amount: '100',
  status: 'approved',
  remark: '',
  channelName: '',
  proofFileId: '',
  createdAt: '2026-01-02T01:00:00Z',
  updatedAt: '2026-01-02T01:00:00Z',
  ...p,
});

describe('groupRecords', () => {
  it('joins the two legs of an exchange, paid first, and leaves the rest alone', () => {
    const paid = rec({ orderNo: 'X1', type: 'exchange', currency: 'TWD', amount: '-3000', status: 'completed', rate: '0.0312' });
    const received = rec({ orderNo: 'X1', type: 'exchange', currency: 'USD', amount: '93.6', status: 'completed', rate: '0.0312' });
    const w = rec({ orderNo: 'W1', type: 'withdraw' });
    const credit = rec({ orderNo: 'credit-9', type: 'credit', currency: '', amount: '-5', remark: 'deposit_rejected', creditScore: 95 });
    expect(groupRecords([w, paid, received, credit])).toEqual([
      { kind: 'one', r: w },
      { kind: 'exchange', orderNo: 'X1', paid, received },
      { kind: 'one', r: credit },
    ]);
    // Received listed first: still paid first.
    expect(groupRecords([received, paid])).toEqual([{ kind: 'exchange', orderNo: 'X1', paid, received }]);
  });

  it('keeps a leg whose partner is on the next page on its own', () => {
    const paid = rec({ orderNo: 'X1', type: 'exchange', amount: '-3000' });
    const other = rec({ orderNo: 'X2', type: 'exchange', amount: '-10' });
    expect(groupRecords([paid, other])).toEqual([
      { kind: 'one', r: paid },
      { kind: 'one', r: other },
    ]);
    expect(groupRecords([])).toEqual([]);
  });
});

describe('tabOf', () => {
  it.each([
    [null, 'deposit'],
    ['withdraw', 'withdraw'],
    ['exchange', 'exchange'],
    ['all', 'all'],
    ['credit', 'deposit'],
    ['', 'deposit'],
  ])('%j → %s', (v, want) => expect(tabOf(v)).toBe(want));
});
