import { describe, expect, it } from 'vitest';
import { declareFundLines, fundLineLabel, isSecurityAsset } from './fundLines';

describe('fund lines', () => {
  declareFundLines({ lend_fee: { tw: '出借費', en: 'Lending fee' } });

  it.each([
    ['lend_fee', 'tw', '出借費'],
    ['lend_fee', 'en', 'Lending fee'],
    ['never_declared', 'en', undefined],
  ] as const)('%s in %s', (type, lang, want) => {
    expect(fundLineLabel(type, lang)).toBe(want);
  });

  it.each([
    ['TWD', false],
    ['USD', false],
    ['TW:2330', true],
  ])('%s is a security: %s', (asset, want) => {
    expect(isSecurityAsset(asset)).toBe(want);
  });
});
