import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { api, resetClientState } from './client';
import { FIRST_READ_GLOBAL, FIRST_READ_MAX_AGE_MS, takeFirstRead } from './firstRead';

// index.html's loader leaves a cold start's first GET in a window property (scripts/firstPaint.ts).
const slot = window as unknown as Record<string, unknown>;
const URL_ = '/api/vue/market/stocks?tab=all&market=listed&type=stock&page=1&size=20';
const reply = (data: unknown) => new Response(JSON.stringify({ status: 1, data }), { status: 200, headers: { 'Content-Type': 'application/json' } });

function leave(url: string, res: Promise<Response>, at = 1000) {
  slot[FIRST_READ_GLOBAL] = { url, at, res };
}

afterEach(() => {
  delete slot[FIRST_READ_GLOBAL];
  vi.unstubAllGlobals();
});

describe('takeFirstRead', () => {
  const live = () => new AbortController().signal;

  it('gives the early answer for its URL once', async () => {
    const res = reply({ n: 1 });
    leave(URL_, Promise.resolve(res));
    expect(await takeFirstRead(URL_, live(), 1500)).toBe(res);
    expect(takeFirstRead(URL_, live(), 1500)).toBeUndefined();
  });

  it('leaves it for its own URL while fresh, drops it once stale', () => {
    leave(URL_, Promise.resolve(reply({})));
    expect(takeFirstRead('/api/vue/common/config', live(), 1500)).toBeUndefined();
    expect(slot[FIRST_READ_GLOBAL]).toBeDefined();
    expect(takeFirstRead('/api/vue/common/config', live(), 1000 + FIRST_READ_MAX_AGE_MS + 1)).toBeUndefined();
    expect(slot[FIRST_READ_GLOBAL]).toBeUndefined();
    leave(URL_, Promise.resolve(reply({})));
    expect(takeFirstRead(URL_, live(), 1000 + FIRST_READ_MAX_AGE_MS + 1)).toBeUndefined();
    expect(slot[FIRST_READ_GLOBAL]).toBeUndefined();
  });

  it('rejects when the caller aborts while the answer is on its way', async () => {
    leave(URL_, new Promise<Response>(() => {}));
    const ctl = new AbortController();
    const early = takeFirstRead(URL_, ctl.signal, 1500);
    ctl.abort(new Error('timed out'));
    await expect(early).rejects.toThrow('timed out');
  });
});

describe('the client takes the early answer', () => {
  beforeEach(() => resetClientState());

  it('a GET of that URL reads it instead of asking again; the next GET asks', async () => {
    const fetchMock = vi.fn().mockResolvedValue(reply({ n: 2 }));
    vi.stubGlobal('fetch', fetchMock);
    leave(URL_, Promise.resolve(reply({ n: 1 })), performance.now());
    const first = await api.get('/api/vue/market/stocks', { query: { tab: 'all', market: 'listed', type: 'stock', page: 1, size: 20 } });
    expect(first).toEqual({ n: 1 });
    expect(fetchMock).not.toHaveBeenCalled();
    const again = await api.get('/api/vue/market/stocks', { query: { tab: 'all', market: 'listed', type: 'stock', page: 1, size: 20 } });
    expect(again).toEqual({ n: 2 });
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });
});
