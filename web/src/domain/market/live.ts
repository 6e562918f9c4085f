import { notifyManager, type QueryClient, useQueryClient } from '@tanstack/react-query';
import { useEffect, useSyncExternalStore } from 'react';
import { type FrameScheduler, frameBatcher, nextFrame } from '@/lib/socket/frame';
import type { ServerMessage, SocketManager, SocketStatus } from '@/lib/socket/manager';
import { appSocket } from '@/lib/socket/socket';
import { marketKeys } from './api';
import type { QuotePush } from './types';

type Patch = Map<string, QuotePush>;

function isQuoteLike(v: unknown): v is { symbol: string; time?: string } {
  return !!v && typeof v === 'object' && typeof (v as { symbol?: unknown }).symbol === 'string';
}

/** A pushed quote over a cached one; an older push (by its time) never overwrites newer data. */
function merge<T extends { symbol: string; time?: string }>(old: T, q: QuotePush): T {
  if (old.time && q.time && Date.parse(q.time) < Date.parse(old.time)) return old;
  const next = { ...old, ...q } as T & QuotePush;
  // A push without a book (null or absent) keeps the book already shown.
  if (q.bids == null) next.bids = (old as QuotePush).bids;
  if (q.asks == null) next.asks = (old as QuotePush).asks;
  return next;
}

/**
 * Applies pushed quotes to any cached shape the market screens use: a quote, a list of quotes,
 * a page {items}, an infinite query {pages}. Returns the same object when nothing changed, so
 * untouched screens do not render.
 */
export function patchQuotes<D>(data: D, batch: Patch): D {
  if (Array.isArray(data)) {
    let changed = false;
    const out = data.map((item: unknown) => {
      const next = patchQuotes(item, batch);
      if (next !== item) changed = true;
      return next;
    });
    return (changed ? out : data) as D;
  }
  if (!data || typeof data !== 'object') return data;
  const obj = data as Record<string, unknown>;
  if (isQuoteLike(obj)) {
    const q = batch.get(obj.symbol);
    return q ? (merge(obj, q) as D) : data;
  }
  for (const field of ['pages', 'items'] as const) {
    const inner = obj[field];
    if (Array.isArray(inner)) {
      const next = patchQuotes(inner, batch);
      return (next === inner ? data : { ...obj, [field]: next }) as D;
    }
  }
  return data;
}

/** Writes one frame's quotes into every market query of the cache, in one render. */
export function applyQuotes(client: QueryClient, batch: Patch): void {
  notifyManager.batch(() => {
    for (const query of client.getQueryCache().findAll({ queryKey: marketKeys.all })) {
      if (query.queryKey[1] === 'candles') continue;
      const data = query.state.data;
      if (data === undefined) continue;
      const next = patchQuotes(data, batch);
      if (next !== data) client.setQueryData(query.queryKey, next);
    }
  });
}

export interface LiveBridge {
  socket: SocketManager;
  /** Listeners for candle frames (the chart updates its series outside React). */
  onCandle(fn: (m: Extract<ServerMessage, { type: 'candle' }>) => void): () => void;
}

const bridges = new WeakMap<QueryClient, LiveBridge>();

/**
 * Connects a query client to a socket once: quotes go into the caches (throttled to one write
 * per frame), and after a reconnect every market query is refetched, since pushes were missed.
 */
export function installLive(client: QueryClient, socket: SocketManager, schedule: FrameScheduler = nextFrame): LiveBridge {
  const existing = bridges.get(client);
  if (existing) return existing;
  const batcher = frameBatcher<string, QuotePush>((batch) => applyQuotes(client, batch), schedule);
  const candleListeners = new Set<(m: Extract<ServerMessage, { type: 'candle' }>) => void>();
  socket.onMessage((m) => {
    if (m.type === 'quote') batcher.push(m.data.symbol, m.data as unknown as QuotePush);
    else if (m.type === 'candle') candleListeners.forEach((l) => l(m));
  });
  socket.onReconnect(() => void client.invalidateQueries({ queryKey: marketKeys.all }));
  const bridge: LiveBridge = {
    socket,
    onCandle(fn) {
      candleListeners.add(fn);
      return () => candleListeners.delete(fn);
    },
  };
  bridges.set(client, bridge);
  return bridge;
}

/** The bridge of this query client on the app's socket. */
export function useLive(): LiveBridge {
  const client = useQueryClient();
  return installLive(client, appSocket());
}

/**
 * Keeps these symbols' quotes live in the caches while the calling screen is shown; a screen
 * hidden by keep-alive runs its effect cleanups, which unsubscribes it.
 */
export function useLiveQuotes(symbols: readonly string[]): void {
  const live = useLive();
  const key = [...new Set(symbols)].sort().join(',');
  useEffect(() => {
    if (!key) return;
    return live.socket.subscribe(key.split(','), ['quote']);
  }, [live, key]);
}

/** The socket's state, for a "reconnecting" notice. */
export function useSocketStatus(): SocketStatus {
  const { socket } = useLive();
  return useSyncExternalStore(
    (cb) => socket.onStatus(cb),
    () => socket.status,
  );
}
