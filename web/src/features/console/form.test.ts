import { describe, expect, it } from 'vitest';
import { channelBody, channelError, emptyChannel, inviteCodeOK, reasonOK, type ChannelValues } from './form';

const good: ChannelValues = {
  ...emptyChannel,
  id: 'bank',
  name: 'Bank transfer',
  min: '1000',
  max: '500000',
  bank: '台灣銀行',
  branch: '館前分行',
  account: '004-12345678',
  holder: '樂簿股份有限公司',
};

describe('channelError', () => {
  it.each<[string, Partial<ChannelValues>, keyof ChannelValues | null]>([
    ['a full channel', {}, null],
    ['no payee at all', { bank: '', branch: '', account: '', holder: '' }, null],
    ['an upper-case id', { id: 'Bank' }, 'id'],
    ['an empty name', { name: '  ' }, 'name'],
    ['a lower-case currency', { currency: 'twd' }, 'currency'],
    ['a zero minimum', { min: '0' }, 'min'],
    ['three decimals', { min: '1.001' }, 'min'],
    ['max below min', { max: '999' }, 'max'],
    ['no weekdays', { weekdays: [] }, 'weekdays'],
    ['no weekdays but always open', { weekdays: [], alwaysOpen: true }, null],
    ['a bad opening time', { open: '9:00' }, 'open'],
    ['a bad closing time', { close: '24:00' }, 'close'],
    ['a payee without bank', { bank: '' }, 'bank'],
    ['letters in the account', { account: '12AB5678' }, 'account'],
    ['a short account', { account: '123' }, 'account'],
    ['a payee without holder', { holder: '' }, 'holder'],
  ])('%s', (_, change, want) => {
    expect(channelError({ ...good, ...change })).toBe(want);
  });
});

describe('channelBody', () => {
  it('sends the window in Taipei time, sorted days, the payee trimmed and no empty password', () => {
    const body = channelBody({ ...good, weekdays: [5, 1, 3], holder: ' 樂簿 ' });
    expect(body.window).toEqual({ weekdays: [1, 3, 5], open: '09:00', close: '17:00', tz: 'Asia/Taipei', closedOnHolidays: true, alwaysOpen: false });
    expect(body.payee).toEqual({ bank: '台灣銀行', branch: '館前分行', account: '004-12345678', name: '樂簿' });
    expect('password' in body).toBe(false);
    expect(channelBody({ ...good, password: 'pw1234' }).password).toBe('pw1234');
  });
});

describe('invite codes and reasons', () => {
  it.each([
    ['', true],
    ['LAUNCH26', true],
    ['abcd', true],
    ['ABC', false],
    ['LOT-BOOK', false],
    ['A'.repeat(17), false],
  ])('code %j ok: %s', (code, ok) => expect(inviteCodeOK(code)).toBe(ok));
  it('needs a reason of at most 200 characters', () => {
    expect(reasonOK(' ')).toBe(false);
    expect(reasonOK('fraud check')).toBe(true);
    expect(reasonOK('字'.repeat(201))).toBe(false);
  });
});
