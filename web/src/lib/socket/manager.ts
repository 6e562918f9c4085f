// The one WebSocket of the app (/api/vue/ws). Screens ask for market (symbol, channel) pairs; the
// manager counts them, tells the server only about pairs that start or stop being wanted,
// reconnects with exponential backoff and jitter, and subscribes again after a reconnect. A
// feature that wants the session's pushes holds the socket open (hold) and says what the socket
// sends first on every connection (hello: the session's auth request).

/** What the server sends (the market HTTP contract); anything else is ignored. */
export type ServerMessage =
  | { type: 'quote'; data: { symbol: string } & Record<string, unknown> }
  | { type: 'candle'; symbol: string; interval: string; data: Record<string, unknown> }
  | { type: 'error'; msg: string }
  | { type: 'chat'; kind: string; account: string } & Record<string, unknown>
  | { type: 'alert'; alert: Record<string, unknown> } & Record<string, unknown>;

/** The part of the browser's WebSocket the manager uses (tests give a fake). */
export interface SocketLike {
  readonly readyState: number;
  onopen: ((ev: unknown) => void) | null;
  onclose: ((ev: unknown) => void) | null;
  onerror: ((ev: unknown) => void) | null;
  onmessage: ((ev: { data: unknown }) => void) | null;
  send(data: string): void;
  close(code?: number, reason?: string): void;
}

export type SocketStatus = 'idle' | 'connecting' | 'open' | 'waiting';

export interface SocketOptions {
  url: () => string;
  create?: (url: string) => SocketLike;
  /** First retry delay; doubles per failed attempt up to maxDelayMs. */
  baseDelayMs?: number;
  maxDelayMs?: number;
  /** Close the socket after this long with no subscription (reopened on demand). */
  idleCloseMs?: number;
  random?: () => number;
}

const OPEN = 1;

/**
 * Delay before reconnect attempt n (0-based): exponential with "equal jitter", half fixed and
 * half random, so that a server restart does not bring every client back in the same instant
 * and no client retries in a tight loop.
 */
export function backoffDelay(attempt: number, base: number, max: number, random: () => number): number {
  const cap = Math.min(max, base * 2 ** Math.min(attempt, 30));
  return Math.round(cap / 2 + (cap / 2) * random());
}

const pairKey = (channel: string, symbol: string) => `${channel}\u0000${symbol}`;
const splitKey = (k: string): [string, string] => {
  const i = k.indexOf('\u0000');
  return [k.slice(0, i), k.slice(i + 1)];
};

export class SocketManager {
  private readonly opts: Required<SocketOptions>;
  private ws: SocketLike | null = null;
  private statusValue: SocketStatus = 'idle';
  /** How many holders want each (channel, symbol) pair. */
  private readonly counts = new Map<string, number>();
  /** Pairs the server was told about on the current connection. */
  private sent = new Set<string>();
  private flushQueued = false;
  private attempt = 0;
  private connectedBefore = false;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private idleTimer: ReturnType<typeof setTimeout> | undefined;
  private readonly messageListeners = new Set<(m: ServerMessage) => void>();
  private readonly reconnectListeners = new Set<() => void>();
  private readonly statusListeners = new Set<(s: SocketStatus) => void>();
  /** Holders that want the socket open without a market pair (the session's pushes). */
  private holds = 0;
  private hello: (() => object | null) | null = null;

  constructor(opts: SocketOptions) {
    this.opts = {
      create: (url) => new WebSocket(url) as unknown as SocketLike,
      baseDelayMs: 500,
      maxDelayMs: 30_000,
      idleCloseMs: 30_000,
      random: Math.random,
      ...opts,
    };
  }

  get status(): SocketStatus {
    return this.statusValue;
  }

  /** Holders of a pair right now (tests, diagnostics). */
  refCount(symbol: string, channel: string): number {
    return this.counts.get(pairKey(channel, symbol)) ?? 0;
  }

  /**
   * Wants every (symbol, channel) pair until the returned function is called (once; later calls
   * do nothing). Changes within one task are netted before anything is sent.
   */
  subscribe(symbols: readonly string[], channels: readonly string[]): () => void {
    const keys = [...new Set(symbols.flatMap((s) => channels.map((c) => pairKey(c, s))))];
    for (const k of keys) this.counts.set(k, (this.counts.get(k) ?? 0) + 1);
    this.changed();
    let done = false;
    return () => {
      if (done) return;
      done = true;
      for (const k of keys) {
        const n = (this.counts.get(k) ?? 0) - 1;
        if (n > 0) this.counts.set(k, n);
        else this.counts.delete(k);
      }
      this.changed();
    };
  }

  /** Keeps the socket open until the returned function is called (once; later calls do nothing). */
  hold(): () => void {
    this.holds++;
    this.changed();
    let done = false;
    return () => {
      if (done) return;
      done = true;
      this.holds--;
      this.changed();
    };
  }

  /** What the socket sends first on every connection (null: nothing), and now if it is open. */
  setHello(fn: (() => object | null) | null): void {
    this.hello = fn;
    this.sendHello();
  }

  /** Sends msg if the socket is open; false when it is not (ephemeral messages are dropped). */
  send(msg: object): boolean {
    const ws = this.ws;
    if (!ws || ws.readyState !== OPEN) return false;
    ws.send(JSON.stringify(msg));
    return true;
  }

  onMessage(fn: (m: ServerMessage) => void): () => void {
    this.messageListeners.add(fn);
    return () => this.messageListeners.delete(fn);
  }

  /** Called after a connection other than the first opens (callers refetch what they missed). */
  onReconnect(fn: () => void): () => void {
    this.reconnectListeners.add(fn);
    return () => this.reconnectListeners.delete(fn);
  }

  onStatus(fn: (s: SocketStatus) => void): () => void {
    this.statusListeners.add(fn);
    return () => {
      this.statusListeners.delete(fn);
    };
  }

  /** Retry at once if waiting (the browser came back online, the page became visible). */
  retryNow(): void {
    if (this.statusValue !== 'waiting') return;
    clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    this.connect();
  }

  /** Closes the socket and forgets every subscription (tests, logout). */
  dispose(): void {
    this.counts.clear();
    this.holds = 0;
    clearTimeout(this.retryTimer);
    clearTimeout(this.idleTimer);
    this.retryTimer = this.idleTimer = undefined;
    this.closeSocket();
    this.setStatus('idle');
  }

  private setStatus(s: SocketStatus): void {
    if (s === this.statusValue) return;
    this.statusValue = s;
    this.statusListeners.forEach((l) => l(s));
  }

  private wanted(): boolean {
    return this.counts.size > 0 || this.holds > 0;
  }

  private sendHello(): void {
    const msg = this.hello?.();
    if (msg) this.send(msg);
  }

  private changed(): void {
    if (this.wanted()) {
      clearTimeout(this.idleTimer);
      this.idleTimer = undefined;
      if (this.statusValue === 'idle') this.connect();
    } else if (this.idleTimer === undefined && this.statusValue !== 'idle') {
      this.idleTimer = setTimeout(() => {
        this.idleTimer = undefined;
        if (!this.wanted()) {
          clearTimeout(this.retryTimer);
          this.retryTimer = undefined;
          this.closeSocket();
          this.setStatus('idle');
        }
      }, this.opts.idleCloseMs);
    }
    if (!this.flushQueued) {
      this.flushQueued = true;
      queueMicrotask(() => {
        this.flushQueued = false;
        this.flush();
      });
    }
  }

  /** Sends the difference between what is wanted and what the server was told. */
  private flush(): void {
    const ws = this.ws;
    if (!ws || ws.readyState !== OPEN) return;
    const add = new Map<string, string[]>();
    const remove = new Map<string, string[]>();
    const note = (m: Map<string, string[]>, k: string) => {
      const [channel, symbol] = splitKey(k);
      m.set(channel, [...(m.get(channel) ?? []), symbol]);
    };
    for (const k of this.counts.keys()) if (!this.sent.has(k)) note(add, k);
    for (const k of this.sent) if (!this.counts.has(k)) note(remove, k);
    const send = (op: 'subscribe' | 'unsubscribe', m: Map<string, string[]>) => {
      for (const [channel, symbols] of m) ws.send(JSON.stringify({ op, symbols, channels: [channel] }));
    };
    send('unsubscribe', remove);
    send('subscribe', add);
    this.sent = new Set(this.counts.keys());
  }

  private connect(): void {
    this.setStatus('connecting');
    let ws: SocketLike;
    try {
      ws = this.opts.create(this.opts.url());
    } catch {
      this.scheduleRetry();
      return;
    }
    this.ws = ws;
    this.sent = new Set();
    ws.onopen = () => {
      if (this.ws !== ws) return;
      this.setStatus('open');
      this.sendHello();
      this.flush();
      if (this.connectedBefore) this.reconnectListeners.forEach((l) => l());
      this.connectedBefore = true;
    };
    ws.onmessage = (ev) => {
      if (this.ws !== ws) return;
      // A message proves the connection works end to end: the next failure starts over.
      this.attempt = 0;
      const m = parseMessage(ev.data);
      if (m) this.messageListeners.forEach((l) => l(m));
    };
    ws.onerror = () => {
      // onclose follows; it decides about retrying.
    };
    ws.onclose = () => {
      if (this.ws !== ws) return;
      this.ws = null;
      this.sent = new Set();
      if (this.wanted()) {
        this.scheduleRetry();
        return;
      }
      clearTimeout(this.idleTimer);
      this.idleTimer = undefined;
      this.setStatus('idle');
    };
  }

  private scheduleRetry(): void {
    this.setStatus('waiting');
    const delay = backoffDelay(this.attempt, this.opts.baseDelayMs, this.opts.maxDelayMs, this.opts.random);
    this.attempt++;
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      this.connect();
    }, delay);
  }

  private closeSocket(): void {
    const ws = this.ws;
    this.ws = null;
    this.sent = new Set();
    if (ws) {
      ws.onopen = ws.onclose = ws.onerror = ws.onmessage = null;
      try {
        ws.close(1000, 'idle');
      } catch {
        // already closing
      }
    }
  }
}

/** Parses one frame; unknown shapes give null (the app ignores them rather than fail). */
export function parseMessage(raw: unknown): ServerMessage | null {
  if (typeof raw !== 'string') return null;
  let v: unknown;
  try {
    v = JSON.parse(raw);
  } catch {
    return null;
  }
  if (!v || typeof v !== 'object') return null;
  const m = v as Record<string, unknown>;
  const data = m.data as Record<string, unknown> | undefined;
  switch (m.type) {
    case 'quote':
      return data && typeof data.symbol === 'string' ? (m as ServerMessage) : null;
    case 'candle':
      return typeof m.symbol === 'string' && typeof m.interval === 'string' && data && typeof data === 'object' ? (m as ServerMessage) : null;
    case 'error':
      return typeof m.msg === 'string' ? (m as ServerMessage) : null;
    case 'chat':
      return typeof m.kind === 'string' && typeof m.account === 'string' ? (m as ServerMessage) : null;
    case 'alert':
      return m.alert && typeof m.alert === 'object' ? (m as ServerMessage) : null;
    default:
      return null;
  }
}
