import { describe, expect, it } from 'vitest';
import { cardBody, enabledCardFields, isValidName, normalizeName, sameName, validateCard, validateRealName } from './walletValidation';

describe('names', () => {
  it.each([
    ['王小明', true],
    ['Wang Hsiao-ming', true],
    ["O'Neil", true],
    ['Anne-Marie D. Smith', true],
    ['阿美·巴奈', true],
    ['José Álvarez', true],
    ['王', false],
    ['', false],
    ['-王小明', false],
    ['王小明1', false],
    ['王_小明', false],
    ['a'.repeat(50), true],
    ['a'.repeat(51), false],
  ])('isValidName(%j) = %s', (s, want) => expect(isValidName(s)).toBe(want));

  it.each([
    ['  王 小明 ', '王 小明'],
    ['Wang   Hsiao\tming', 'Wang Hsiao ming'],
    ['', ''],
  ])('normalizeName(%j) = %j', (s, want) => expect(normalizeName(s)).toBe(want));

  it.each([
    ['Wang Hsiao-ming', ' wang  HSIAO-MING ', true],
    ['王小明', '王小明', true],
    ['王小明', '王大明', false],
  ])('sameName(%j, %j) = %s', (a, b, want) => expect(sameName(a, b)).toBe(want));
});

describe('validateRealName', () => {
  const ok = { name: '王小明', idNumber: 'A123456789', frontFileId: 'f1', backFileId: 'f2' };
  it.each([
    [{}, null],
    [{ idNumber: ' a123456789 ' }, null],
    [{ name: '  ' }, { field: 'name', key: 'name_required' }],
    [{ name: '王' }, { field: 'name', key: 'name_invalid' }],
    [{ name: 'R2-D2' }, { field: 'name', key: 'name_invalid' }],
    [{ idNumber: '' }, { field: 'idNumber', key: 'id_number_required' }],
    [{ idNumber: 'A123456788' }, { field: 'idNumber', key: 'id_number_invalid' }],
    [{ idNumber: 'A323456789' }, { field: 'idNumber', key: 'id_number_invalid' }],
    [{ idNumber: 'A12345678' }, { field: 'idNumber', key: 'id_number_invalid' }],
    [{ frontFileId: '' }, { field: 'frontFileId', key: 'id_photos_required' }],
    [{ backFileId: '' }, { field: 'backFileId', key: 'id_photos_required' }],
    [{ backFileId: 'f1' }, { field: 'backFileId', key: 'wallet.err.same_photo' }],
  ])('%j → %j', (patch, want) => expect(validateRealName({ ...ok, ...patch })).toEqual(want));
});

describe('validateCard (Taiwan terms)', () => {
  const ok = { holderName: 'Wang Hsiao-ming', branch: '0037', cardNumber: '0040 1234-5678', bankCode: '004', ifsc: '', upi: '' };
  const both = new Set(['ifsc', 'upi'] as const);
  it.each([
    [{}, undefined, undefined, null],
    [{}, 'wang hsiao-ming', undefined, null],
    [{ ifsc: 'sbin0001234', upi: 'wang.hm@okaxis' }, undefined, both, null],
    // Not enabled: not checked (and not sent).
    [{ ifsc: 'SBIN1001234', upi: 'wang' }, undefined, undefined, null],
    [{ holderName: ' ' }, undefined, undefined, { field: 'holderName', key: 'card_fields_required' }],
    [{ branch: '' }, undefined, undefined, { field: 'branch', key: 'card_fields_required' }],
    [{ cardNumber: ' - ' }, undefined, undefined, { field: 'cardNumber', key: 'card_fields_required' }],
    [{ bankCode: '' }, undefined, undefined, { field: 'bankCode', key: 'card_fields_required' }],
    [{ holderName: 'x'.repeat(65) }, undefined, undefined, { field: 'holderName', key: 'invalid_request' }],
    [{ bankCode: '999' }, undefined, undefined, { field: 'bankCode', key: 'bank_code_invalid' }],
    [{ bankCode: '04' }, undefined, undefined, { field: 'bankCode', key: 'bank_code_invalid' }],
    [{ bankCode: '700' }, undefined, undefined, null],
    [{ branch: '營業部' }, undefined, undefined, { field: 'branch', key: 'branch_code_invalid' }],
    [{ branch: '037' }, undefined, undefined, { field: 'branch', key: 'branch_code_invalid' }],
    [{ cardNumber: '123456789' }, undefined, undefined, { field: 'cardNumber', key: 'card_number_invalid' }],
    [{ cardNumber: '12345678901234567' }, undefined, undefined, { field: 'cardNumber', key: 'card_number_invalid' }],
    [{ cardNumber: '12345678901234x' }, undefined, undefined, { field: 'cardNumber', key: 'card_number_invalid' }],
    [{ cardNumber: '1234567890123456' }, undefined, undefined, null],
    [{ ifsc: 'SBIN1001234' }, undefined, both, { field: 'ifsc', key: 'ifsc_invalid' }],
    [{ ifsc: 'SBI00001234' }, undefined, both, { field: 'ifsc', key: 'ifsc_invalid' }],
    [{ upi: 'wang' }, undefined, both, { field: 'upi', key: 'upi_invalid' }],
    [{ upi: 'w@bank' }, undefined, both, { field: 'upi', key: 'upi_invalid' }],
    [{ upi: 'wang@1bank' }, undefined, both, { field: 'upi', key: 'upi_invalid' }],
    [{}, '王小明', undefined, { field: 'holderName', key: 'card_not_own' }],
  ])('%j (verified %j, extra %j) → %j', (patch, verified, extra, want) => expect(validateCard({ ...ok, ...patch }, verified, extra)).toEqual(want));

  it('sends trimmed fields and the bare number; IFSC and UPI only when enabled', () => {
    const v = { ...ok, holderName: ' Wang  Hsiao-ming ', ifsc: ' sbin0001234 ', upi: 'w@okaxis' };
    const base = { holderName: 'Wang Hsiao-ming', branch: '0037', cardNumber: '004012345678', bankCode: '004' };
    expect(cardBody(v)).toEqual(base);
    expect(cardBody(v, new Set(['ifsc']))).toEqual({ ...base, ifsc: 'SBIN0001234' });
  });

  it('reads the enabled fields from the site config', () => {
    expect([...enabledCardFields(undefined)]).toEqual([]);
    expect([...enabledCardFields({ title: 'x', 'withdrawal.bank.cardFields': ' IFSC , iban' })]).toEqual(['ifsc']);
    expect([...enabledCardFields({ 'withdrawal.a.cardFields': 'upi', 'withdrawal.b.cardFields': 'ifsc' })].sort()).toEqual(['ifsc', 'upi']);
  });
});
