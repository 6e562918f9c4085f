import { describe, expect, it } from 'vitest';
import { validateChangePassword, validateFundPassword } from './validation';

describe('validateChangePassword', () => {
  const ok = { oldPassword: 'demo1234', newPassword: 'newpass99', confirmPassword: 'newpass99' };
  it.each([
    [{}, null],
    [{ oldPassword: '' }, { field: 'oldPassword', key: 'old_password_required' }],
    [{ newPassword: '', confirmPassword: '' }, { field: 'newPassword', key: 'password_required' }],
    [{ newPassword: 'abc', confirmPassword: 'abc' }, { field: 'newPassword', key: 'password_invalid' }],
    [{ confirmPassword: '' }, { field: 'confirmPassword', key: 'confirm_password_required' }],
    [{ confirmPassword: 'newpass98' }, { field: 'confirmPassword', key: 'passwords_inconsistent' }],
  ])('%j → %j', (patch, want) => expect(validateChangePassword({ ...ok, ...patch })).toEqual(want));
});

describe('validateFundPassword', () => {
  const ok = { current: 'demo1234', fundPassword: '123456', confirmFundPassword: '123456' };
  it.each([
    ['set', {}, null],
    ['set', { current: '' }, { field: 'current', key: 'password_required' }],
    ['set', { fundPassword: '', confirmFundPassword: '' }, { field: 'fundPassword', key: 'fund_password_required' }],
    ['set', { fundPassword: '12345', confirmFundPassword: '12345' }, { field: 'fundPassword', key: 'fund_password_invalid' }],
    ['set', { fundPassword: '12345a', confirmFundPassword: '12345a' }, { field: 'fundPassword', key: 'fund_password_invalid' }],
    ['set', { confirmFundPassword: '' }, { field: 'confirmFundPassword', key: 'confirm_password_required' }],
    ['set', { confirmFundPassword: '654321' }, { field: 'confirmFundPassword', key: 'passwords_inconsistent' }],
    ['change', { current: '654321' }, null],
    ['change', { current: '' }, { field: 'current', key: 'fund_password_required' }],
    ['change', { current: 'demo1234' }, { field: 'current', key: 'fund_password_invalid' }],
  ] as const)('%s %j → %j', (mode, patch, want) => expect(validateFundPassword({ ...ok, ...patch }, mode)).toEqual(want));
});
