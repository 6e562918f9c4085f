import { describe, expect, it } from 'vitest';
import { type RegisterValues, validateLogin, validateLoginById, validateLogonByPhone, validateRegister } from './validation';

const good: RegisterValues = { account: '0912345678', password: 'demo1234', confirmPassword: 'demo1234', inviteCode: 'LOTBOOK', agreed: true };

describe('validateRegister', () => {
  it.each<[Partial<RegisterValues>, string | null, string | null]>([
    [{}, null, null],
    [{ account: 'A123456789' }, null, null],
    [{ account: '' }, 'account', 'account_required'],
    [{ account: '   ' }, 'account', 'account_required'],
    [{ account: '0812345678' }, 'account', 'account_invalid'],
    [{ account: 'A123456788' }, 'account', 'account_invalid'],
    [{ account: 'a123456789' }, 'account', 'account_invalid'],
    [{ password: '', confirmPassword: '' }, 'password', 'password_required'],
    [{ password: 'short1', confirmPassword: 'short1' }, 'password', 'password_invalid'],
    [{ password: 'has space1', confirmPassword: 'has space1' }, 'password', 'password_invalid'],
    [{ confirmPassword: '' }, 'confirmPassword', 'confirm_password_required'],
    [{ confirmPassword: 'demo12345' }, 'confirmPassword', 'passwords_inconsistent'],
    [{ inviteCode: ' ' }, 'inviteCode', 'invite_code_required'],
    [{ agreed: false }, 'agreed', 'auth.agreementRequired'],
  ])('%j → %s %s', (patch, field, key) => {
    const got = validateRegister({ ...good, ...patch });
    expect(got).toEqual(field ? { field, key } : null);
  });
});

describe('validateLogin', () => {
  it.each([
    [{ account: '0912345678', password: 'demo1234', agreed: true }, null],
    [{ account: 'ops', password: 'opsdemo1', agreed: true }, null],
    [{ account: '', password: 'demo1234', agreed: true }, { field: 'account', key: 'account_required' }],
    [{ account: '0912345678', password: '', agreed: true }, { field: 'password', key: 'password_required' }],
    [{ account: '0912345678', password: 'demo1234', agreed: false }, { field: 'agreed', key: 'auth.agreementRequired' }],
  ])('%j → %j', (v, want) => expect(validateLogin(v)).toEqual(want));
});

describe('login by phone and by ID number', () => {
  it.each([
    [{ account: '', password: 'x', agreed: true }, 'auth.phoneRequired'],
    [{ account: 'A123456789', password: 'x', agreed: true }, 'auth.phoneInvalid'],
    [{ account: '0912345678', password: '', agreed: true }, 'password_required'],
    [{ account: '0912345678', password: 'x', agreed: false }, 'auth.agreementRequired'],
    [{ account: ' 0912345678 ', password: 'x', agreed: true }, null],
  ])('phone %o', (v, key) => {
    expect(validateLogonByPhone(v)?.key ?? null).toBe(key);
  });

  it.each([
    [{ idNumber: '', password: 'x', agreed: true }, 'id_number_required'],
    [{ idNumber: 'A123456780', password: 'x', agreed: true }, 'id_number_invalid'],
    [{ idNumber: '0912345678', password: 'x', agreed: true }, 'id_number_invalid'],
    [{ idNumber: 'a123456789', password: '', agreed: true }, 'password_required'],
    [{ idNumber: 'A123456789', password: 'x', agreed: false }, 'auth.agreementRequired'],
    [{ idNumber: ' a123456789 ', password: 'x', agreed: true }, null],
  ])('ID number %o', (v, key) => {
    expect(validateLoginById(v)?.key ?? null).toBe(key);
  });
});
