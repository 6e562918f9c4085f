import { describe, expect, it } from 'vitest';
import { compareDecimal, cut10, middleEllipsis, money, shortNumber, taipeiTime, taipeiWindow, times100 } from './filters';

describe('money', () => {
  it.each([
    ['1234567.891', '1,234,567.89'],
    ['1234567.895', '1,234,567.90'],
    ['0', '0.00'],
    ['0.005', '0.01'],
    ['0.004', '0.00'],
    ['-1234.5', '-1,234.50'],
    ['-0.001', '0.00'],
    ['999.999', '1,000.00'],
    ['1000000', '1,000,000.00'],
    ['12', '12.00'],
    ['.5', '0.50'],
    ['00012.3', '12.30'],
    ['', '0.00'],
    ['abc', '0.00'],
    ['12abc', '0.00'],
    ['-', '0.00'],
    [null, '0.00'],
    [undefined, '0.00'],
    [1234.5, '1,234.50'],
    [0.1 + 0.2, '0.30'],
    [Number.NaN, '0.00'],
    ['99999999999999999999.99', '99,999,999,999,999,999,999.99'],
  ])('money(%j) = %s', (input, want) => {
    expect(money(input)).toBe(want);
  });
});

describe('shortNumber', () => {
  const suffix = { million: 'M', thousand: 'K' };
  it.each([
    ['1234567', '1.23M'],
    ['9999999', '10.00M'],
    ['1000000', '1.00M'],
    ['999999', '1000.00K'],
    ['123456', '123.46K'],
    ['1234', '1.23K'],
    ['1000', '1.00K'],
    ['999.99', '999.99'],
    ['999', '999.00'],
    ['12.345', '12.35'],
    ['-1234', '-1.23K'],
    ['', '0.00'],
    ['x', '0.00'],
    [2500000, '2.50M'],
  ])('shortNumber(%j) = %s', (input, want) => {
    expect(shortNumber(input, suffix)).toBe(want);
  });

  it('takes its suffixes from the caller (the translation files)', () => {
    expect(shortNumber('1234567', { million: '百萬', thousand: 'K' })).toBe('1.23百萬');
  });
});

describe('text filters', () => {
  it.each([
    ['', ''],
    ['123456789', '123456789'],
    ['1234567890', '1234567890'],
    ['12345678901', '1234567890'],
    [null, ''],
  ])('cut10(%j) = %j', (input, want) => {
    expect(cut10(input)).toBe(want);
  });

  it.each([
    ['short', 'short'],
    ['12345678901234567890', '12345678901234567890'],
    ['123456789012345678901', '123456...678901'],
    ['0xabcdef0123456789abcdef', '0xabcd...abcdef'],
    [undefined, ''],
  ])('middleEllipsis(%j) = %j', (input, want) => {
    expect(middleEllipsis(input)).toBe(want);
  });

  it.each([
    ['0.29', 29],
    ['0.1234', 12],
    ['0.129', 12],
    ['1.5', 150],
    ['-0.125', -12],
    ['0.009', 0],
    ['12', 1200],
    [0.57, 57],
    ['', 0],
    ['n/a', 0],
  ])('times100(%j) = %d', (input, want) => {
    expect(times100(input)).toBe(want);
  });
});

describe('compareDecimal', () => {
  it.each([
    ['1000', '1000.00', 0],
    ['999.99', '1000', -1],
    ['1000000.01', '1000000', 1],
    ['-5', '3', -1],
    ['-5', '-3', -1],
    ['0', '-0', 0],
    ['10', '9', 1],
    ['x', '1', null],
  ])('compareDecimal(%j, %j) = %j', (a, b, want) => {
    expect(compareDecimal(a, b)).toBe(want);
  });
});

describe('taipeiTime', () => {
  it('shows UTC times in Asia/Taipei', () => {
    expect(taipeiTime('2026-01-02T16:30:05Z')).toBe('2026-01-03 00:30:05');
  });
  it('gives empty text for bad input', () => {
    expect(taipeiTime('')).toBe('');
    expect(taipeiTime('not a time')).toBe('');
  });
});

describe('taipeiWindow', () => {
  it('shows both ends in Taipei time to the minute', () => {
    expect(taipeiWindow('2026-11-23T16:00:00Z', '2026-11-30T16:00:00Z')).toBe('2026-11-24 00:00 – 2026-12-01 00:00');
  });
});
