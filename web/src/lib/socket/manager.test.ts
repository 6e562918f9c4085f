import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FakeSocket } from '@/test/fakeSocket';
import { backoffDelay, parseMessage, SocketManager } from './manager';

const flushMicrotasks = () => new Promise<void>((r) => queueMicrotask(r));

function manager(opts: { random?: () => number; idleCloseMs?: number } = {}) {
  return new SocketManager({
    url: () => 'ws://test/api/vue/ws',
    create: (url) => new FakeSocket(url),
    baseDelayMs: 500,
    maxDelayMs: 8000,
    random: opts.random ?? (() => 0.5),
    idleCloseMs: opts.idleCloseMs ?? 30_000,
  });
}

beforeEach(() => {
  FakeSocket.reset();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('backoffDelay', () => {
  it.each([
    [0, 0, 250],
    [0, 1, 500],
    [1, 0, 500],
    [2, 0.5, 1500],
    [3, 1, 4000],
    [4, 0, 4000],
    [5, 1, 8000], // capped at max
    [40, 0.5, 6000],
  ])('attempt %i, random %f → %i ms', (attempt, r, want) => {
    expect(backoffDelay(attempt, 500, 8000, () => r)).toBe(want);
  });
});

describe('parseMessage', () => {
  it.each([
    ['{"type":"quote","data":{"symbol":"2330","price":"1"}}', 'quote'],
    ['{"type":"candle","symbol":"2330","interval":"1m","data":{"time":"t"}}', 'candle'],
    ['{"type":"error","msg":"invalid_request"}', 'error'],
    ['{"type":"quote","data":{}}', null],
    ['{"type":"nope"}', null],
    ['not json', null],
    ['42', null],
  ])('%s → %s', (raw, type) => {
    expect(parseMessage(raw)?.type ?? null).toBe(type);
  });
  it('ignores binary frames', () => {
    expect(parseMessage(new ArrayBuffer(2))).toBeNull();
  });
});

describe('SocketManager', () => {
  it('holds the socket open without a pair, says hello first on every connection, and sends only while open', async () => {
    vi.useFakeTimers();
    const m = manager({ random: () => 0 });
    let token = 'tok';
    m.setHello(() => (token ? { op: 'auth', token } : null));
    expect(m.send({ op: 'typing' })).toBe(false);
    const release = m.hold();
    expect(m.status).toBe('connecting');
    FakeSocket.last().open();
    expect(FakeSocket.last().take()).toEqual([{ op: 'auth', token: 'tok' }]);
    expect(m.send({ op: 'typing' })).toBe(true);
    expect(FakeSocket.last().take()).toEqual([{ op: 'typing' }]);
    FakeSocket.last().drop();
    vi.advanceTimersByTime(250);
    token = 'new';
    FakeSocket.last().open();
    expect(FakeSocket.last().take()).toEqual([{ op: 'auth', token: 'new' }]);
    release();
    release(); // a second call does nothing
    vi.advanceTimersByTime(30_000);
    expect(m.status).toBe('idle');
  });

  it('passes chat frames on', () => {
    expect(parseMessage('{"type":"chat","kind":"typing","account":"0912345678"}')?.type).toBe('chat');
    expect(parseMessage('{"type":"chat","kind":"typing"}')).toBeNull();
  });

  it('connects on the first subscription and sends it once open', async () => {
    const m = manager();
    expect(m.status).toBe('idle');
    m.subscribe(['2330'], ['quote']);
    expect(m.status).toBe('connecting');
    const ws = FakeSocket.last();
    expect(ws.url).toBe('ws://test/api/vue/ws');
    ws.open();
    expect(m.status).toBe('open');
    expect(ws.take()).toEqual([{ op: 'subscribe', symbols: ['2330'], channels: ['quote'] }]);
  });

  it('counts holders: the server hears about a pair only when the first comes and the last goes', async () => {
    const m = manager();
    const a = m.subscribe(['2330', '2317'], ['quote']);
    const ws = FakeSocket.last();
    ws.open();
    ws.take();
    const b = m.subscribe(['2330'], ['quote']);
    await flushMicrotasks();
    expect(ws.take()).toEqual([]);
    expect(m.refCount('2330', 'quote')).toBe(2);
    a();
    a(); // a second call does nothing
    await flushMicrotasks();
    expect(ws.take()).toEqual([{ op: 'unsubscribe', symbols: ['2317'], channels: ['quote'] }]);
    expect(m.refCount('2330', 'quote')).toBe(1);
    b();
    await flushMicrotasks();
    expect(ws.take()).toEqual([{ op: 'unsubscribe', symbols: ['2330'], channels: ['quote'] }]);
    expect(m.refCount('2330', 'quote')).toBe(0);
  });

  it('nets changes made in one task (a screen re-rendering its list sends nothing)', async () => {
    const m = manager();
    const first = m.subscribe(['2330'], ['quote']);
    const ws = FakeSocket.last();
    ws.open();
    ws.take();
    first();
    const again = m.subscribe(['2330'], ['quote']);
    await flushMicrotasks();
    expect(ws.take()).toEqual([]);
    again();
    m.subscribe(['2454'], ['quote', 'candles:1m']);
    await flushMicrotasks();
    expect(ws.take()).toEqual([
      { op: 'unsubscribe', symbols: ['2330'], channels: ['quote'] },
      { op: 'subscribe', symbols: ['2454'], channels: ['quote'] },
      { op: 'subscribe', symbols: ['2454'], channels: ['candles:1m'] },
    ]);
  });

  it('reconnects with growing, jittered delays and subscribes again', async () => {
    vi.useFakeTimers();
    const randoms = [0, 1, 0.5];
    const m = manager({ random: () => randoms.shift() ?? 0.5 });
    const reconnected = vi.fn();
    m.onReconnect(reconnected);
    m.subscribe(['2330'], ['quote']);
    m.subscribe(['2317'], ['candles:1m']);
    FakeSocket.last().open();
    expect(reconnected).not.toHaveBeenCalled();

    FakeSocket.last().drop();
    expect(m.status).toBe('waiting');
    expect(FakeSocket.all).toHaveLength(1);
    vi.advanceTimersByTime(249); // attempt 0: 250..500 ms, random 0 → 250
    expect(FakeSocket.all).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(FakeSocket.all).toHaveLength(2);

    FakeSocket.last().drop(); // fails before opening
    vi.advanceTimersByTime(999); // attempt 1: 500..1000 ms, random 1 → 1000
    expect(FakeSocket.all).toHaveLength(2);
    vi.advanceTimersByTime(1);
    expect(FakeSocket.all).toHaveLength(3);

    const ws = FakeSocket.last();
    ws.open();
    expect(m.status).toBe('open');
    expect(ws.take()).toEqual([
      { op: 'subscribe', symbols: ['2330'], channels: ['quote'] },
      { op: 'subscribe', symbols: ['2317'], channels: ['candles:1m'] },
    ]);
    expect(reconnected).toHaveBeenCalledTimes(1);
  });

  it('starts the backoff over once a connection delivered a message', () => {
    vi.useFakeTimers();
    const m = manager({ random: () => 0 });
    m.subscribe(['2330'], ['quote']);
    FakeSocket.last().drop();
    vi.advanceTimersByTime(250);
    FakeSocket.last().drop();
    vi.advanceTimersByTime(500);
    FakeSocket.last().drop();
    vi.advanceTimersByTime(1000); // third retry after 1000 ms
    const ws = FakeSocket.last();
    expect(FakeSocket.all).toHaveLength(4);
    ws.open();
    ws.push({ type: 'quote', data: { symbol: '2330' } });
    ws.drop();
    vi.advanceTimersByTime(250); // back to the first delay
    expect(FakeSocket.all).toHaveLength(5);
  });

  it('retries at once when told the network is back', () => {
    vi.useFakeTimers();
    const m = manager();
    m.subscribe(['2330'], ['quote']);
    FakeSocket.last().drop();
    expect(FakeSocket.all).toHaveLength(1);
    m.retryNow();
    expect(FakeSocket.all).toHaveLength(2);
    expect(m.status).toBe('connecting');
  });

  it('delivers parsed frames to listeners and drops junk', () => {
    const m = manager();
    const got = vi.fn();
    m.onMessage(got);
    m.subscribe(['2330'], ['quote']);
    const ws = FakeSocket.last();
    ws.open();
    ws.push({ type: 'quote', data: { symbol: '2330', price: '1085' } });
    ws.onmessage?.({ data: '{bad' });
    ws.push({ type: 'error', msg: 'invalid_request' });
    expect(got.mock.calls.map((c) => (c[0] as { type: string }).type)).toEqual(['quote', 'error']);
  });

  it('closes when nobody has listened for a while, and reopens on demand', async () => {
    vi.useFakeTimers();
    const m = manager({ idleCloseMs: 1000 });
    const off = m.subscribe(['2330'], ['quote']);
    const ws = FakeSocket.last();
    ws.open();
    off();
    await flushMicrotasks();
    vi.advanceTimersByTime(999);
    expect(ws.closed).toBe(false);
    vi.advanceTimersByTime(1);
    expect(ws.closed).toBe(true);
    expect(m.status).toBe('idle');
    m.subscribe(['2330'], ['quote']);
    expect(FakeSocket.all).toHaveLength(2);
  });

  it('does not reconnect a dropped socket nobody wants', async () => {
    vi.useFakeTimers();
    const m = manager();
    const off = m.subscribe(['2330'], ['quote']);
    FakeSocket.last().open();
    off();
    await flushMicrotasks();
    FakeSocket.last().drop();
    vi.advanceTimersByTime(60_000);
    expect(FakeSocket.all).toHaveLength(1);
    expect(m.status).toBe('idle');
  });
});
