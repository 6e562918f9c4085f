import { describe, expect, it } from 'vitest';
import { cardBody, isValidName, normalizeName, sameName, validateCard, validateRealName } from './walletValidation';

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

describe('validateCard', () => {
  const ok = { holderName: 'Wang Hsiao-ming', bankName: 'Bank of Taiwan', branch: 'Head office', cardNumber: '0040 1234-5678', bankCode: '004', ifsc: '', upi: '' };
  it.each([
    [{}, undefined, null],
    [{}, 'wang hsiao-ming', null],
    [{ ifsc: 'sbin0001234', upi: 'wang.hm@okaxis' }, undefined, null],
    [{ holderName: ' ' }, undefined, { field: 'holderName', key: 'card_fields_required' }],
    [{ bankName: '' }, undefined, { field: 'bankName', key: 'card_fields_required' }],
    [{ branch: '' }, undefined, { field: 'branch', key: 'card_fields_required' }],
    [{ cardNumber: ' - ' }, undefined, { field: 'cardNumber', key: 'card_fields_required' }],
    [{ bankCode: '' }, undefined, { field: 'bankCode', key: 'card_fields_required' }],
    [{ bankName: 'x'.repeat(65) }, undefined, { field: 'bankName', key: 'invalid_request' }],
    [{ cardNumber: '123456789' }, undefined, { field: 'cardNumber', key: 'card_number_invalid' }],
    [{ cardNumber: '12345678901234567' }, undefined, { field: 'cardNumber', key: 'card_number_invalid' }],
    [{ cardNumber: '12345678901234x' }, undefined, { field: 'cardNumber', key: 'card_number_invalid' }],
    [{ cardNumber: '1234567890123456' }, undefined, null],
    [{ bankCode: '04' }, undefined, { field: 'bankCode', key: 'bank_code_invalid' }],
    [{ bankCode: '0a4' }, undefined, { field: 'bankCode', key: 'bank_code_invalid' }],
    [{ ifsc: 'SBIN1001234' }, undefined, { field: 'ifsc', key: 'ifsc_invalid' }],
    [{ ifsc: 'SBI00001234' }, undefined, { field: 'ifsc', key: 'ifsc_invalid' }],
    [{ upi: 'wang' }, undefined, { field: 'upi', key: 'upi_invalid' }],
    [{ upi: 'w@bank' }, undefined, { field: 'upi', key: 'upi_invalid' }],
    [{ upi: 'wang@1bank' }, undefined, { field: 'upi', key: 'upi_invalid' }],
    [{}, '王小明', { field: 'holderName', key: 'card_not_own' }],
  ])('%j (verified %j) → %j', (patch, verified, want) => expect(validateCard({ ...ok, ...patch }, verified)).toEqual(want));

  it('sends trimmed fields, the bare number and the upper-case IFSC; empty optional fields are left out', () => {
    expect(cardBody({ ...ok, holderName: ' Wang  Hsiao-ming ', ifsc: ' sbin0001234 ' })).toEqual({
      holderName: 'Wang Hsiao-ming',
      bankName: 'Bank of Taiwan',
      branch: 'Head office',
      cardNumber: '004012345678',
      bankCode: '004',
      ifsc: 'SBIN0001234',
    });
  });
});
