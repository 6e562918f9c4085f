import { describe, expect, it } from 'vitest';
import { checkImageFile, isAmount, isTaiwanId, isTaiwanMobile, isValidAccount, isValidFundPassword, isValidPassword, MAX_UPLOAD_BYTES, messageKey } from './validation';

describe('account rules', () => {
  it.each([
    ['0912345678', true],
    ['0987654321', true],
    ['091234567', false],
    ['09123456789', false],
    ['0812345678', false],
    ['09-2345678', false],
    ['', false],
  ])('isTaiwanMobile(%j) = %s', (s, want) => expect(isTaiwanMobile(s)).toBe(want));

  it.each([
    ['A123456789', true],
    ['F131104093', true],
    ['B142591008', true],
    ['B142591004', false],
    ['A223456781', true],
    ['A800000014', true],
    ['A123456788', false],
    ['a123456789', false],
    ['A323456789', false],
    ['A12345678', false],
    ['1123456789', false],
    ['AB23456789', false],
  ])('isTaiwanId(%j) = %s', (s, want) => expect(isTaiwanId(s)).toBe(want));

  it('accepts a mobile number or an ID number', () => {
    expect(isValidAccount('0912345678')).toBe(true);
    expect(isValidAccount('A123456789')).toBe(true);
    expect(isValidAccount('ops')).toBe(false);
  });
});

describe('password rules', () => {
  it.each([
    ['demo1234', true],
    ['ABCDEFGH', true],
    ['12345678901234567890', true],
    ['123456789012345678901', false],
    ['demo123', false],
    ['demo 1234', false],
    ['demo_1234', false],
    ['密碼密碼密碼密碼', false],
  ])('isValidPassword(%j) = %s', (s, want) => expect(isValidPassword(s)).toBe(want));

  it.each([
    ['123456', true],
    ['12345', false],
    ['1234567', false],
    ['12345a', false],
  ])('isValidFundPassword(%j) = %s', (s, want) => expect(isValidFundPassword(s)).toBe(want));
});

describe('amounts', () => {
  it.each([
    ['1000', true],
    ['1000.5', true],
    ['1000.55', true],
    ['0.01', true],
    ['1000.555', false],
    ['0', false],
    ['0.00', false],
    ['-1', false],
    ['01', false],
    ['1e3', false],
    ['', false],
    ['.5', false],
  ])('isAmount(%j) = %s', (s, want) => expect(isAmount(s)).toBe(want));
});

it('maps server keys under msg.*', () => {
  expect(messageKey('account_required')).toBe('msg.account_required');
  expect(messageKey('auth.agreementRequired')).toBe('auth.agreementRequired');
});

describe('checkImageFile', () => {
  it.each([
    [{ size: 1000, type: 'image/png' }, null],
    [{ size: 1000, type: 'image/jpeg' }, null],
    [{ size: 1000, type: 'image/webp' }, null],
    [{ size: MAX_UPLOAD_BYTES, type: 'image/png' }, null],
    [{ size: MAX_UPLOAD_BYTES + 1, type: 'image/png' }, 'file_too_large'],
    [{ size: 1000, type: 'application/pdf' }, 'file_type_invalid'],
    [{ size: 1000, type: 'image/gif' }, 'file_type_invalid'],
    [{ size: 10, type: 'image/heic' }, 'file_type_invalid'],
  ])('%j → %j', (f, want) => expect(checkImageFile(f)).toBe(want));
});
