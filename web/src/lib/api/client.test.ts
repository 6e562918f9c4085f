import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setLanguage } from '../i18n';
import { getSession, saveAccount, saveToken } from '../session';
import { toast } from '../toast';
import { api, ApiError, LOGIN_REDIRECT_MS, resetClientState, setLoginRedirect, TIMEOUT_MS } from './client';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

function reply(status: number, body: unknown) {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

let fetchMock: ReturnType<typeof vi.fn>;
let shown: Array<{ text: string; ms: number }>;

beforeEach(() => {
  resetClientState();
  fetchMock = vi.fn();
  vi.stubGlobal('fetch', fetchMock);
  shown = [];
  vi.spyOn(toast, 'show').mockImplementation((text: string, ms = 2000) => {
    shown.push({ text, ms });
  });
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

function lastCall(): { url: string; init: RequestInit & { headers: Record<string, string> } } {
  const call = fetchMock.mock.calls.at(-1) as [string, RequestInit & { headers: Record<string, string> }];
  return { url: call[0], init: call[1] };
}

describe('api client: envelope and headers', () => {
  it('unwraps data and sends the session headers', async () => {
    saveToken('tok');
    saveAccount('0912345678');
    fetchMock.mockResolvedValueOnce(reply(200, { status: 1, msg: 'ok', data: { account: '0912345678' } }));
    const data = await api.get('/api/vue/user/info');
    expect(data).toEqual({ account: '0912345678' });
    const { url, init } = lastCall();
    expect(url).toBe('/api/vue/user/info');
    expect(init.method).toBe('GET');
    expect(init.headers.token).toBe('tok');
    expect(init.headers.account).toBe('0912345678');
    expect(init.headers['Idempotency-Key']).toBeUndefined();
    expect(shown).toEqual([]);
  });

  it('builds query strings and fills path parameters', async () => {
    fetchMock.mockResolvedValueOnce(reply(200, { status: 1, msg: 'ok', data: { items: [], page: 2, hasMore: false } }));
    await api.get('/api/vue/funds/records', { query: { type: 'deposit', page: 2, size: 20 } });
    expect(lastCall().url).toBe('/api/vue/funds/records?type=deposit&page=2&size=20');
    fetchMock.mockResolvedValueOnce(reply(200, { status: 1, msg: 'ok', data: { orderNo: 'D 1/2', status: 'approved', position: 3 } }));
    await api.post('/api/vue/ops/deposits/{orderNo}/approve', {}, { params: { orderNo: 'D 1/2' } });
    expect(lastCall().url).toBe('/api/vue/ops/deposits/D%201%2F2/approve');
  });

  it('sends JSON with an Idempotency-Key on every POST, a new one per action unless given', async () => {
    fetchMock.mockImplementation(() => Promise.resolve(reply(200, { status: 1, msg: 'ok', data: { orderNo: 'D1', status: 'pending', position: 7 } })));
    const body = { channelId: 'bank', amount: '1000', proofFileId: 'f', channelPassword: '8888' };
    await api.post('/api/vue/funds/deposits', body);
    const first = lastCall().init;
    expect(first.headers['Content-Type']).toBe('application/json');
    expect(JSON.parse(first.body as string)).toEqual(body);
    expect(first.headers['Idempotency-Key']).toMatch(UUID);
    await api.post('/api/vue/funds/deposits', body);
    expect(lastCall().init.headers['Idempotency-Key']).not.toBe(first.headers['Idempotency-Key']);
    await api.post('/api/vue/funds/deposits', body, { idempotencyKey: 'key-of-this-press' });
    expect(lastCall().init.headers['Idempotency-Key']).toBe('key-of-this-press');
  });

  it('sends the highest position seen as Lotbook-Position on reads (read-your-writes)', async () => {
    fetchMock.mockResolvedValueOnce(reply(200, { status: 1, msg: 'ok', data: { orderNo: 'D1', status: 'pending', position: 42 } }));
    await api.post('/api/vue/funds/deposits', { channelId: 'bank', amount: '1000', proofFileId: 'f', channelPassword: '8888' });
    fetchMock.mockResolvedValueOnce(reply(200, { status: 1, msg: 'ok', data: [] }));
    await api.get('/api/vue/funds/channels');
    expect(lastCall().init.headers['Lotbook-Position']).toBe('42');
  });

  it('sends Lotbook-Position on a POST that reads (favourites after adding one), not on commands', async () => {
    fetchMock.mockResolvedValueOnce(reply(200, { status: 1, msg: 'ok', data: { symbol: '2330', position: 57 } }));
    await api.post('/api/vue/user/favorites', { symbol: '2330' });
    fetchMock.mockResolvedValueOnce(reply(200, { status: 1, msg: 'ok', data: { symbol: '2317', position: 58 } }));
    await api.post('/api/vue/user/favorites', { symbol: '2317' });
    expect(lastCall().init.headers['Lotbook-Position']).toBeUndefined();
    fetchMock.mockResolvedValueOnce(reply(200, { status: 1, msg: 'ok', data: [] }));
    await api.query('/api/vue/user/Optionallist', { type: 'all' });
    expect(lastCall().init.headers['Lotbook-Position']).toBe('58');
  });

  it('the config call is a POST without an idempotency key', async () => {
    fetchMock.mockResolvedValueOnce(reply(200, { status: 1, msg: 'ok', data: [{ name: 'title', value: 'lotbook' }] }));
    await api.query('/api/vue/common/config', { type: 'all' });
    const { init } = lastCall();
    expect(init.method).toBe('POST');
    expect(init.headers['Idempotency-Key']).toBeUndefined();
  });
});

describe('api client: toasts', () => {
  it('shows the translated msg for 2 s when status is not 1', async () => {
    fetchMock.mockResolvedValueOnce(reply(422, { status: 0, msg: 'amount_below_minimum', data: null }));
    const err = await api.post('/api/vue/funds/deposits', { channelId: 'bank', amount: '1', proofFileId: 'f', channelPassword: '8888' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).msg).toBe('amount_below_minimum');
    expect((err as ApiError).httpStatus).toBe(422);
    expect(shown).toEqual([{ text: '金額低於最低限額', ms: 2000 }]);
  });

  it('also when HTTP says 200 but the envelope says 0', async () => {
    fetchMock.mockResolvedValueOnce(reply(200, { status: 0, msg: 'system_busy', data: null }));
    await expect(api.get('/api/vue/funds/channels')).rejects.toBeInstanceOf(ApiError);
    expect(shown).toEqual([{ text: '系統繁忙，請稍後再試', ms: 2000 }]);
  });

  it('shows Error / 錯誤 for an unknown message key', async () => {
    fetchMock.mockImplementation(() => Promise.resolve(reply(422, { status: 0, msg: 'no_such_key_anywhere', data: null })));
    await expect(api.get('/api/vue/funds/channels')).rejects.toBeInstanceOf(ApiError);
    await setLanguage('en');
    await expect(api.get('/api/vue/funds/channels')).rejects.toBeInstanceOf(ApiError);
    expect(shown).toEqual([
      { text: '錯誤', ms: 2000 },
      { text: 'Error', ms: 2000 },
    ]);
  });

  it('shows the generic text for 3 s when there is no msg', async () => {
    fetchMock.mockResolvedValueOnce(reply(500, { status: 0 }));
    await expect(api.get('/api/vue/funds/channels')).rejects.toBeInstanceOf(ApiError);
    fetchMock.mockResolvedValueOnce(new Response('<html>bad gateway</html>', { status: 502 }));
    await expect(api.get('/api/vue/funds/channels')).rejects.toMatchObject({ kind: 'parse' });
    expect(shown).toEqual([
      { text: '發生錯誤，請稍後再試', ms: 3000 },
      { text: '發生錯誤，請稍後再試', ms: 3000 },
    ]);
  });

  it('stays silent for background calls that ask so', async () => {
    fetchMock.mockRejectedValueOnce(new TypeError('Failed to fetch'));
    await expect(api.query('/api/vue/common/config', { type: 'all' }, { silent: true })).rejects.toBeInstanceOf(ApiError);
    expect(shown).toEqual([]);
  });

  it('shows the generic text when the network fails', async () => {
    fetchMock.mockRejectedValueOnce(new TypeError('Failed to fetch'));
    await expect(api.get('/api/vue/funds/channels')).rejects.toMatchObject({ kind: 'network' });
    expect(shown).toEqual([{ text: '發生錯誤，請稍後再試', ms: 3000 }]);
  });
});

describe('api client: 401 and timeout', () => {
  it('on 401 ends the session and goes to /login/login after 1500 ms, once', async () => {
    vi.useFakeTimers();
    saveToken('old');
    saveAccount('0912345678');
    const go = vi.fn();
    setLoginRedirect(go);
    fetchMock.mockImplementation(() => Promise.resolve(reply(401, { status: 0, msg: 'unauthorized', data: null })));
    await expect(api.get('/api/vue/user/info')).rejects.toMatchObject({ httpStatus: 401 });
    await expect(api.get('/api/vue/funds/channels')).rejects.toMatchObject({ httpStatus: 401 });
    expect(shown[0]).toEqual({ text: '請先登入', ms: 2000 });
    vi.advanceTimersByTime(LOGIN_REDIRECT_MS - 1);
    expect(go).not.toHaveBeenCalled();
    // The session lasts until the redirect, or the route guard would leave at once.
    expect(getSession().token).toBe('old');
    vi.advanceTimersByTime(1);
    expect(go).toHaveBeenCalledTimes(1);
    expect(getSession().token).toBe('');
    expect(localStorage.getItem('tokend')).toBeNull();
  });

  it('gives up after 10 s with the generic toast', async () => {
    vi.useFakeTimers();
    fetchMock.mockImplementation(
      (_url: string, init: RequestInit) =>
        new Promise((_resolve, reject) => {
          init.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
        }),
    );
    const p = api.get('/api/vue/funds/channels').catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(TIMEOUT_MS - 1);
    expect(shown).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    const err = await p;
    expect(err).toMatchObject({ kind: 'timeout' });
    expect(shown).toEqual([{ text: '發生錯誤，請稍後再試', ms: 3000 }]);
  });

  it('stays quiet when the caller cancels', async () => {
    fetchMock.mockImplementation(
      (_url: string, init: RequestInit) =>
        new Promise((_resolve, reject) => {
          init.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
        }),
    );
    const ctl = new AbortController();
    const p = api.get('/api/vue/funds/channels', { signal: ctl.signal }).catch((e: unknown) => e);
    ctl.abort();
    expect(await p).toBeInstanceOf(DOMException);
    expect(shown).toEqual([]);
  });
});

describe('api client: uploads', () => {
  it('posts the file as multipart with an idempotency key', async () => {
    fetchMock.mockResolvedValueOnce(reply(200, { status: 1, msg: 'ok', data: { id: 'abc' } }));
    const file = new File([new Uint8Array([1, 2, 3])], 'proof.png', { type: 'image/png' });
    expect(await api.upload(file)).toEqual({ id: 'abc' });
    const { url, init } = lastCall();
    expect(url).toBe('/api/vue/files');
    expect(init.body).toBeInstanceOf(FormData);
    expect((init.body as FormData).get('file')).toBeInstanceOf(File);
    expect(init.headers['Content-Type']).toBeUndefined();
    expect(init.headers['Idempotency-Key']).toMatch(UUID);
  });
});
