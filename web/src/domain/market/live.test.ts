import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { SocketManager } from '@/lib/socket/manager';
import { FakeSocket } from '@/test/fakeSocket';
import { quote } from '@/test/market';
import { marketKeys } from './api';
import { installLive, patchQuotes } from './live';
import type { QuotePush } from './types';

const batch = (...qs: QuotePush[]) => new Map(qs.map((q) => [q.symbol, q]));

describe('patchQuotes', () => {
  const a = quote({ symbol: '2330' });
  const b = quote({ symbol: '2317', name: '鴻海', price: '200.00' });

  it('updates a single quote and keeps its book when the push has none', () => {
    const detail = { ...a, bids: [{ price: '1080.00', size: 3000 }], session: { phase: 'continuous', open: true, demo: true } };
    const next = patchQuotes(detail, batch({ symbol: '2330', price: '1090.00', time: '2026-11-23T02:00:01Z', bids: null }));
    expect(next.price).toBe('1090.00');
    expect(next.bids).toEqual([{ price: '1080.00', size: 3000 }]);
    expect(next.session).toEqual(detail.session);
  });

  it('updates lists, pages and infinite pages, and returns the same object when nothing matched', () => {
    const list = [a, b];
    const page = { items: list, page: 1, hasMore: false, total: 2 };
    const infinite = { pages: [page], pageParams: [1] };
    const push = batch({ symbol: '2317', price: '201.00', time: '2026-11-23T02:00:01Z' });
    expect(patchQuotes(list, push)[1]!.price).toBe('201.00');
    expect(patchQuotes(page, push).items[1]!.price).toBe('201.00');
    const inf = patchQuotes(infinite, push);
    expect(inf.pages[0]!.items[1]!.price).toBe('201.00');
    expect(inf.pages[0]!.items[0]).toBe(a); // untouched rows keep their identity
    expect(inf.pageParams).toBe(infinite.pageParams);
    const other = batch({ symbol: '9999', price: '1.00' });
    expect(patchQuotes(list, other)).toBe(list);
    expect(patchQuotes(infinite, other)).toBe(infinite);
  });

  it('never lets an older push overwrite newer data', () => {
    const old = patchQuotes(a, batch({ symbol: '2330', price: '1.00', time: '2026-11-23T01:59:59Z' }));
    expect(old).toBe(a);
  });
});

describe('the live bridge', () => {
  function setup() {
    FakeSocket.reset();
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const socket = new SocketManager({ url: () => 'ws://x', create: (u) => new FakeSocket(u), random: () => 0 });
    const frames: Array<() => void> = [];
    installLive(client, socket, (cb) => void frames.push(cb));
    return { client, socket, frames, runFrame: () => frames.splice(0).forEach((f) => f()) };
  }

  it('writes a burst of pushes into the caches once per frame, the latest per symbol', () => {
    const { client, socket, frames, runFrame } = setup();
    client.setQueryData(marketKeys.quote('2330'), quote({ symbol: '2330' }));
    client.setQueryData(marketKeys.hot('listed'), [quote({ symbol: '2330' }), quote({ symbol: '2317' })]);
    client.setQueryData(marketKeys.candles('2330', '1m'), { items: [], hasMore: false });
    let updates = 0;
    client.getQueryCache().subscribe((e) => {
      if (e.type === 'updated') updates++;
    });
    socket.subscribe(['2330'], ['quote']);
    const ws = FakeSocket.last();
    ws.open();
    for (let i = 1; i <= 50; i++) ws.push({ type: 'quote', data: { symbol: '2330', price: `${1085 + i}.00`, time: `2026-11-23T02:00:${String(i).padStart(2, '0')}Z` } });
    expect(updates).toBe(0);
    expect(frames).toHaveLength(1);
    runFrame();
    expect(updates).toBe(2); // the detail and the hot list, once each
    expect(client.getQueryData<{ price: string }>(marketKeys.quote('2330'))!.price).toBe('1135.00');
    expect(client.getQueryData<Array<{ price: string }>>(marketKeys.hot('listed'))!.map((q) => q.price)).toEqual(['1135.00', '1085.00']);
  });

  it('refetches market queries after a reconnect, not after the first connect', async () => {
    const { client, socket } = setup();
    client.setQueryData(marketKeys.quote('2330'), quote({ symbol: '2330' }));
    socket.subscribe(['2330'], ['quote']);
    FakeSocket.last().open();
    expect(client.getQueryState(marketKeys.quote('2330'))!.isInvalidated).toBe(false);
    FakeSocket.last().drop();
    socket.retryNow();
    FakeSocket.last().open();
    expect(client.getQueryState(marketKeys.quote('2330'))!.isInvalidated).toBe(true);
  });

  it('installs once per query client', () => {
    const { client, socket } = setup();
    expect(installLive(client, socket)).toBe(installLive(client, socket));
  });
});
