import { describe, expect, it } from 'vitest';
import { boardLotCost } from './cost';

describe('boardLotCost', () => {
  it('adds the commission rounded down, at least NT$20', () => {
    expect(boardLotCost(2, 183)).toBe(366521);
    expect(boardLotCost(1, 31)).toBe(31044);
    expect(boardLotCost(1, 10)).toBe(10020);
  });
});
