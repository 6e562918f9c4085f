import { describe, expect, it } from 'vitest';
import { formatWeekdays, validateDeposit } from './validation';

const bank = { min: '1000', max: '1000000', openNow: true, window: { alwaysOpen: false } };
const ok = { amount: '5000', proofFileId: 'f1', channelPassword: '8888' };

describe('validateDeposit', () => {
  it.each([
    [{}, bank, null],
    [{ amount: '1000' }, bank, null],
    [{ amount: '1000000.00' }, bank, null],
    [{ amount: '' }, bank, { field: 'amount', key: 'amount_required' }],
    [{ amount: '12.345' }, bank, { field: 'amount', key: 'amount_invalid' }],
    [{ amount: '0' }, bank, { field: 'amount', key: 'amount_invalid' }],
    [{ amount: '999.99' }, bank, { field: 'amount', key: 'amount_below_minimum' }],
    [{ amount: '1000000.01' }, bank, { field: 'amount', key: 'amount_above_maximum' }],
    [{ proofFileId: '' }, bank, { field: 'proofFileId', key: 'deposit_proof_required' }],
    [{ channelPassword: '' }, bank, { field: 'channelPassword', key: 'password_required' }],
    [{}, { ...bank, openNow: false }, { field: 'window', key: 'deposit_window_closed' }],
    [{}, { ...bank, openNow: false, window: { alwaysOpen: true } }, null],
  ])('%j on %j → %j', (patch, ch, want) => expect(validateDeposit({ ...ok, ...patch }, ch)).toEqual(want));
});

describe('formatWeekdays', () => {
  const names = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
  it.each([
    [[1, 2, 3, 4, 5], 'Mon–Fri'],
    [[5, 1, 3, 2, 4], 'Mon–Fri'],
    [[0, 1, 2, 3, 4, 5, 6], 'Sun–Sat'],
    [[1, 3, 5], 'Mon, Wed, Fri'],
    [[1, 2], 'Mon, Tue'],
    [[0, 2, 3, 4], 'Sun, Tue–Thu'],
    [[], ''],
    [[7, -1], ''],
  ])('%j → %s', (days, want) => expect(formatWeekdays(days, names)).toBe(want));
});
