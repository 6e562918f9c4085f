import { SocketManager } from './manager';

/** The socket's address on this origin (ws: or wss: as the page). */
export function socketUrl(loc: { protocol: string; host: string } = window.location): string {
  return `${loc.protocol === 'https:' ? 'wss' : 'ws'}://${loc.host}/api/vue/ws`;
}

let shared: SocketManager | undefined;

/** The app's one socket manager, made on first use (screens that show prices load it lazily). */
export function appSocket(): SocketManager {
  if (shared) return shared;
  const m = new SocketManager({ url: () => socketUrl() });
  // Back online or back on screen: do not wait out the backoff.
  window.addEventListener('online', () => m.retryNow());
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible') m.retryNow();
  });
  shared = m;
  return m;
}
