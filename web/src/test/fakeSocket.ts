import type { SocketLike } from '@/lib/socket/manager';

/** A WebSocket stand-in: records what the app sends; the test opens, pushes and closes. */
export class FakeSocket implements SocketLike {
  static all: FakeSocket[] = [];
  readyState = 0;
  sent: unknown[] = [];
  closed = false;
  onopen: ((ev: unknown) => void) | null = null;
  onclose: ((ev: unknown) => void) | null = null;
  onerror: ((ev: unknown) => void) | null = null;
  onmessage: ((ev: { data: unknown }) => void) | null = null;

  constructor(readonly url: string) {
    FakeSocket.all.push(this);
  }

  static last(): FakeSocket {
    const s = FakeSocket.all[FakeSocket.all.length - 1];
    if (!s) throw new Error('no socket was opened');
    return s;
  }

  static reset(): void {
    FakeSocket.all = [];
  }

  send(data: string): void {
    this.sent.push(JSON.parse(data));
  }

  close(): void {
    this.closed = true;
    this.readyState = 3;
  }

  /** The server accepts the connection. */
  open(): void {
    this.readyState = 1;
    this.onopen?.({});
  }

  /** The server pushes one frame. */
  push(msg: unknown): void {
    this.onmessage?.({ data: JSON.stringify(msg) });
  }

  /** The connection drops. */
  drop(): void {
    this.readyState = 3;
    this.onclose?.({});
  }

  /** Sent frames since the last call. */
  take(): unknown[] {
    const out = this.sent;
    this.sent = [];
    return out;
  }
}
