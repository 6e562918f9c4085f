import { describe, expect, it } from 'vitest';
import { estimate, onTick, stepPrice, tickSize, type FeeRules } from './rules';

const R: FeeRules = {
  commissionRate: '0.001425',
  minCommissionBoardLot: '20',
  minCommissionOddLot: '1',
  stockTaxRate: '0.003',
  etfTaxRate: '0.001',
  bondEtfTaxRate: '0',
  dayTradeTaxRate: '0.0015',
  loanUnit: '1000',
};

describe('tick table (market-rules.md 1b)', () => {
  it.each([
    ['9.99', 'stock', '0.01'],
    ['10', 'stock', '0.05'],
    ['49.95', 'stock', '0.05'],
    ['50', 'stock', '0.10'],
    ['99.9', 'stock', '0.10'],
    ['100', 'stock', '0.50'],
    ['499.5', 'stock', '0.50'],
    ['500', 'stock', '1.00'],
    ['999', 'stock', '1.00'],
    ['1000', 'stock', '5.00'],
    ['49.99', 'etf', '0.01'],
    ['50', 'etf', '0.05'],
    ['1200', 'etf', '0.05'],
  ] as const)('%s %s → %s', (price, kind, tick) => {
    expect(tickSize(price, kind)).toBe(tick);
  });

  it.each([
    ['1005', 'stock', true],
    ['1001', 'stock', false],
    ['100.5', 'stock', true],
    ['100.4', 'stock', false],
    ['50.05', 'etf', true],
    ['50.03', 'etf', false],
    ['0', 'stock', false],
    ['abc', 'stock', false],
  ] as const)('onTick %s %s = %s', (price, kind, ok) => {
    expect(onTick(price, kind)).toBe(ok);
  });

  it.each([
    ['1000', 1, 'stock', '1005.00'],
    ['1000', -1, 'stock', '999.00'],
    ['100', -1, 'stock', '99.90'],
    ['10', -1, 'stock', '9.99'],
    ['100.3', 1, 'stock', '100.50'],
    ['100.3', -1, 'stock', '100.00'],
    ['50', -1, 'etf', '49.99'],
    ['0.01', -1, 'stock', '0.01'],
  ] as const)('step %s by %d (%s) → %s', (price, dir, kind, out) => {
    expect(stepPrice(price, dir, kind)).toBe(out);
  });
});

describe('estimate', () => {
  it.each([
    // board lot buy of 2330 at 1000, cash: fee 1425, no tax
    [{ price: '1000', shares: 1000, oddLot: false, kind: 'stock', side: 'buy', leverage: '1', dayTrade: false }, { marketValue: '1000000.00', fee: '1425.00', tax: '0.00', margin: '1000000.00', loan: '0.00', amount: '1001425.00' }],
    // minimum board-lot fee: 10 × 1000 × 0.1425 % = 14.25 → 20
    [{ price: '10', shares: 1000, oddLot: false, kind: 'stock', side: 'buy', leverage: '1', dayTrade: false }, { marketValue: '10000.00', fee: '20.00', tax: '0.00', margin: '10000.00', loan: '0.00', amount: '10020.00' }],
    // odd lot: 5 × 10.5 = 52.5 → fee 0.07 rounds to 0, minimum 1
    [{ price: '10.5', shares: 5, oddLot: true, kind: 'stock', side: 'buy', leverage: '1', dayTrade: false }, { marketValue: '52.50', fee: '1.00', tax: '0.00', margin: '52.50', loan: '0.00', amount: '53.50' }],
    // financed long at 2.5: loan 600,000, margin 400,000
    [{ price: '1000', shares: 1000, oddLot: false, kind: 'stock', side: 'buy', leverage: '2.5', dayTrade: false }, { marketValue: '1000000.00', fee: '1425.00', tax: '0.00', margin: '400000.00', loan: '600000.00', amount: '401425.00' }],
    // loan rounds down to whole NT$1,000: 123,450 × (1 − 1/1.5) = 41,150 → 41,000
    [{ price: '123.45', shares: 1000, oddLot: false, kind: 'stock', side: 'buy', leverage: '1.5', dayTrade: false }, { marketValue: '123450.00', fee: '175.00', tax: '0.00', margin: '82450.00', loan: '41000.00', amount: '82625.00' }],
    // short sale of a stock at 1.11: margin 1,000,000 / 1.11 = 900,900.9 → 900,901; tax 0.3 %
    [{ price: '1000', shares: 1000, oddLot: false, kind: 'stock', side: 'sell', leverage: '1.11', dayTrade: false }, { marketValue: '1000000.00', fee: '1425.00', tax: '3000.00', margin: '900901.00', loan: '0.00', amount: '905326.00' }],
    // ETF short: tax 0.1 %
    [{ price: '150.55', shares: 1000, oddLot: false, kind: 'etf', side: 'sell', leverage: '1', dayTrade: false }, { marketValue: '150550.00', fee: '214.00', tax: '150.00', margin: '150550.00', loan: '0.00', amount: '150914.00' }],
    // day-trade short of a stock: 0.15 %
    [{ price: '1000', shares: 1000, oddLot: false, kind: 'stock', side: 'sell', leverage: '1', dayTrade: true }, { marketValue: '1000000.00', fee: '1425.00', tax: '1500.00', margin: '1000000.00', loan: '0.00', amount: '1002925.00' }],
  ] as const)('%o', (input, want) => {
    expect(estimate(input, R)).toEqual(want);
  });

  it('is empty without a price or quantity', () => {
    expect(estimate({ price: '', shares: 1000, oddLot: false, kind: 'stock', side: 'buy', leverage: '1', dayTrade: false }, R)).toBeNull();
    expect(estimate({ price: '10', shares: 0, oddLot: false, kind: 'stock', side: 'buy', leverage: '1', dayTrade: false }, R)).toBeNull();
  });
});
