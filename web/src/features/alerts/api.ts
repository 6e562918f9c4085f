import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { api, noteSeenPosition, request } from '@/lib/api/client';
import type { components } from '@/lib/api/schema';
import { getSession } from '@/lib/session';
import { appSocket } from '@/lib/socket/socket';
import { alertKeys } from './notices';

// Price alerts' calls, typed by the schema generated from api/openapi.yaml.

type S = components['schemas'];
export type PriceAlert = S['PriceAlert'];
export type AlertKind = S['PriceAlertKind'];
export type AlertFrame = S['WsAlertFrame'];

export const KINDS: AlertKind[] = ['price_above', 'price_below', 'rise_pct', 'fall_pct'];

export { alertKeys, useNotifications } from './notices';

export const alertsApi = {
  set: (body: S['PriceAlertRequest'], idempotencyKey: string) => api.post('/api/vue/alerts', body, { idempotencyKey }),
  cancel: (id: string, idempotencyKey: string) =>
    request<S['PriceAlertResult']>({ method: 'DELETE', url: `/api/vue/alerts/${encodeURIComponent(id)}`, idempotencyKey }),
  read: (through: number, idempotencyKey: string) => api.post('/api/vue/alerts/notifications/read', { through }, { idempotencyKey }),
};

export function useAlerts() {
  return useQuery({ queryKey: alertKeys.list, queryFn: ({ signal }) => api.get('/api/vue/alerts', { signal }) });
}


/**
 * Fired alerts pushed to this session while the screen is up: binds the socket to the session,
 * refreshes the alerts and hands each frame to onAlert.
 */
export function useAlertSocket(onAlert: (f: AlertFrame) => void) {
  const qc = useQueryClient();
  const cb = useRef(onAlert);
  cb.current = onAlert;
  useEffect(() => {
    const sock = appSocket();
    sock.setHello(() => {
      const { token, account } = getSession();
      return token ? { op: 'auth', token, account } : null;
    });
    const release = sock.hold();
    const off = sock.onMessage((m) => {
      if (m.type !== 'alert') return;
      const f = m as unknown as AlertFrame;
      if (f.position) noteSeenPosition(f.position);
      void qc.invalidateQueries({ queryKey: alertKeys.all });
      cb.current(f);
    });
    const offReconnect = sock.onReconnect(() => void qc.invalidateQueries({ queryKey: alertKeys.all }));
    return () => {
      off();
      offReconnect();
      release();
    };
  }, [qc]);
}
