import { describe, expect, it } from 'vitest';
import { ApiError } from './api/client';
import { backAction, DOUBLE_BACK_MS } from './back';
import { toAppConfig } from './config';
import { isCurrentHash } from './nav';
import { specPullState } from './pull';
import { shouldRetry } from './query';
import { getSession, landingFor, removeTransientKeys, saveAccount, saveSession, saveToken } from './session';
import { trendClass } from './trend';

describe('pull-to-refresh states', () => {
  it.each([
    [undefined, 'normal'],
    ['pulling', 'pulling'],
    ['canRelease', 'loosing'],
    ['refreshing', 'loading'],
    ['complete', 'success'],
  ] as const)('%s → %s', (status, want) => expect(specPullState(status)).toBe(want));
});

describe('hardware back button', () => {
  it.each([
    [true, 5000, null, 'back'],
    [true, 5000, 4900, 'back'],
    [false, 5000, null, 'arm'],
    [false, 5000, 5000 - DOUBLE_BACK_MS, 'exit'],
    [false, 5000, 4500, 'exit'],
    [false, 5000, 5000 - DOUBLE_BACK_MS - 1, 'arm'],
  ] as const)('canGoBack %s at %d, last %s → %s', (can, now, last, want) => expect(backAction(can, now, last)).toBe(want));
});

describe('session store', () => {
  it('saveToken and saveAccount write localStorage and the store', () => {
    saveToken('t1');
    saveAccount('0912345678');
    expect(localStorage.getItem('tokend')).toBe('t1');
    expect(localStorage.getItem('account')).toBe('0912345678');
    expect(getSession()).toMatchObject({ token: 't1', account: '0912345678' });
    saveSession({ token: 't2', account: 'ops' });
    expect(getSession()).toEqual({ token: 't2', account: 'ops' });
  });

  it('removes tklm, zjkm and hklm', () => {
    for (const k of ['tklm', 'zjkm', 'hklm', 'tokend']) localStorage.setItem(k, 'x');
    removeTransientKeys();
    expect(['tklm', 'zjkm', 'hklm'].map((k) => localStorage.getItem(k))).toEqual([null, null, null]);
    expect(localStorage.getItem('tokend')).toBe('x');
  });

  it.each([
    ['member', '/home/index'],
    ['ops', '/ops/console'],
    ['auditor', '/audit/timeline'],
  ])('%s lands on %s', (role, path) => expect(landingFor(role)).toBe(path));
});

describe('config', () => {
  it('prefixes the logo with the image base and reads title and demo', () => {
    expect(toAppConfig([{ name: 'logo', value: 'logo.svg' }, { name: 'title', value: 'lotbook' }, { name: 'demo', value: 'true' }])).toEqual({
      entries: { logo: 'logo.svg', title: 'lotbook', demo: 'true' },
      logo: '/api/logo.svg',
      title: 'lotbook',
      demo: true,
    });
    expect(toAppConfig([{ name: 'logo', value: '/api/uploads/a.png' }]).logo).toBe('/api/uploads/a.png');
    expect(toAppConfig([{ name: 'logo', value: 'https://cdn.example/x.png' }]).logo).toBe('https://cdn.example/x.png');
    expect(toAppConfig([])).toMatchObject({ logo: '', title: '', demo: false });
  });
});

describe('misc', () => {
  it('a link to the current hash is recognised (it reloads)', () => {
    expect(isCurrentHash('/home/index', '#/home/index')).toBe(true);
    expect(isCurrentHash('/user/usercenter', '#/home/index')).toBe(false);
  });

  it('Taiwan colours: red up, green down', () => {
    expect(trendClass('12.5')).toBe('up');
    expect(trendClass('-0.01')).toBe('down');
    expect(trendClass('0.00')).toBe('');
    expect(trendClass(undefined)).toBe('');
  });

  it('retries a query once on network trouble only', () => {
    expect(shouldRetry(0, new ApiError('network', 0))).toBe(true);
    expect(shouldRetry(1, new ApiError('timeout', 0))).toBe(false);
    expect(shouldRetry(0, new ApiError('refused', 422, 'x'))).toBe(false);
    expect(shouldRetry(0, new Error('x'))).toBe(false);
  });
});
