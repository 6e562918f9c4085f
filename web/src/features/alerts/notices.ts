import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { api } from '@/lib/api/client';
import type { components } from '@/lib/api/schema';
import { i18n } from '@/lib/i18n';
import { useSession } from '@/lib/session';
import { toast } from '@/lib/toast';

// What of price alerts runs on every screen (the entries' badge and announce hooks, lib/entries):
// the member's notifications read by polling, and the toast of an alert that fired. It stays out
// of the socket and the alerts' screens and texts, so the first route does not carry them.

type PriceAlert = components['schemas']['PriceAlert'];

/** Every alerts query lives under ['alerts']; a command or a pushed alert invalidates them all. */
export const alertKeys = {
  all: ['alerts'] as const,
  list: ['alerts', 'list'] as const,
  notifications: ['alerts', 'notifications'] as const,
};

/** How often a screen without the alerts' socket looks for alerts that fired. */
export const NOTICES_EVERY_MS = 15_000;

/** The member's notifications (fired alerts, newest first) and how many are unread. */
export function useNotifications(poll = false) {
  return useQuery({
    queryKey: alertKeys.notifications,
    queryFn: ({ signal }) => api.get('/api/vue/alerts/notifications', { signal }),
    ...(poll ? { staleTime: 0, refetchInterval: NOTICES_EVERY_MS } : {}),
  });
}

// The alerts this page has told the member of, whichever way each arrived (the socket on the
// alerts' screens, the poll elsewhere), so none is toasted twice.
const told = new Set<string>();
// Per account, the newest fired position when the app first looked: alerts that fired before are
// in the notifications (unread, badged), not toasted at every start.
const baselines = new Map<string, number>();

// The toast's words in both languages, here rather than in the alerts' texts: those load with the
// alerts' screens, and this runs on every screen (as an entry's label is written on its route).
const firedText = {
  tw: (a: PriceAlert) => `到價提醒：${a.name} 成交價 ${a.price ?? ''}`,
  en: (a: PriceAlert) => `Price alert: ${a.nameEn} traded at ${a.price ?? ''}`,
};

/** Toasts a fired alert in the app's language, once. */
export function tellFired(a: PriceAlert): void {
  if (told.has(a.id)) return;
  told.add(a.id);
  toast.show(firedText[i18n.language === 'en' ? 'en' : 'tw'](a), 4000);
}

/**
 * Which of the account's notifications (newest first) fired since the app first looked, oldest
 * first, moving the baseline past them; none at the first look.
 */
export function freshlyFired(account: string, items: readonly PriceAlert[]): PriceAlert[] {
  const newest = items.reduce((m, a) => Math.max(m, a.firedPosition ?? 0), 0);
  const since = baselines.get(account);
  baselines.set(account, Math.max(since ?? 0, newest));
  if (since === undefined) return [];
  return items.filter((a) => (a.firedPosition ?? 0) > since).reverse();
}

/** Entry.announce of the notifications: a toast on any screen when one of the member's alerts fires. */
export function useAlertAnnounce(): void {
  const { account } = useSession();
  const items = useNotifications(true).data?.items;
  useEffect(() => {
    if (items) for (const a of freshlyFired(account, items)) tellFired(a);
  }, [account, items]);
}

/** Entry.badge of the notifications: how many are unread. */
export function useUnreadNotices(): number | undefined {
  return useNotifications(true).data?.unread;
}
