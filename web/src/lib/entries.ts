import { createElement, Fragment, type ReactElement, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { Role } from './session';
import { useRole } from './user';

/** Where a feature offers a way in on another feature's screen: home's shortcuts, mine's menu. */
export type EntryPlace = 'home' | 'mine';

/**
 * A way into one of a feature's screens from a shared screen. A feature declares its entries on
 * its routes (FeatureRoute.entries), with its own label in both languages, so that home and mine
 * list every capability without being edited for each one.
 */
export interface Entry {
  place: EntryPlace;
  /** names the entry: data-testid shortcut-<key> on home, menu-<key> in mine */
  key: string;
  label: { tw: string; en: string };
  /** who sees it; everyone with a session when absent */
  roles?: readonly Role[];
  /** an icon of components/EntryIcon by name */
  icon?: string;
  /**
   * A hook of the feature's: how many things wait behind the entry (unread messages, say),
   * shown as a badge on it; none when 0 or not known yet. Keep it light (a small query, no
   * socket, nothing of the feature's screens): home and mine run it on every visit.
   */
  badge?: BadgeHook;
  /**
   * A hook of the feature's that tells the member of something new behind the entry wherever
   * they are in the app (a toast when a price alert fires), run once on every screen while the
   * user may see the entry (EntryAnnouncers). As light as a badge: no socket, nothing of the
   * feature's screens.
   */
  announce?: AnnounceHook;
}

/** How many things wait behind an entry (see Entry.badge). */
export type BadgeHook = () => number | undefined;

/** Tells the member of something new behind an entry (see Entry.announce). */
export type AnnounceHook = () => void;

/** An entry with the screen it opens. */
export interface PlacedEntry extends Entry {
  to: string;
}

let registered: PlacedEntry[] = [];

/** Takes the entries of the app's routes, in their order; the app's router calls it once. */
export function registerEntries(routes: readonly { path: string; entries?: readonly Entry[] }[]): void {
  registered = routes.flatMap((r) => (r.entries ?? []).map((e) => ({ ...e, to: `/${r.path}` })));
}

/** The entries at place that role may see, each with its label in lang. */
export function entriesFor(place: EntryPlace, role: Role | '', lang: 'tw' | 'en'): (PlacedEntry & { text: string })[] {
  return registered.filter((e) => e.place === place && (!e.roles || (role !== '' && e.roles.includes(role)))).map((e) => ({ ...e, text: e.label[lang] }));
}

/** The entries at place that the signed-in user's role may see, each with its label in the current language. */
export function useEntries(place: EntryPlace): (PlacedEntry & { text: string })[] {
  const role = useRole();
  const { i18n } = useTranslation();
  const lang = i18n.language === 'en' ? 'en' : 'tw';
  return useMemo(() => entriesFor(place, role, lang), [place, role, lang]);
}

function Announcer({ use }: { use: AnnounceHook }): null {
  use();
  return null;
}

/**
 * Runs the announce hooks of the entries the signed-in user may see, each hook once however many
 * entries share it; the root shell renders it, so it never names a feature.
 */
export function EntryAnnouncers(): ReactElement {
  const role = useRole();
  const hooks = useMemo(() => {
    // Keyed by the first entry naming the hook: a component always runs the same hook.
    const seen = new Map<AnnounceHook, string>();
    for (const place of ['home', 'mine'] as const) {
      for (const e of entriesFor(place, role, 'tw')) if (e.announce && !seen.has(e.announce)) seen.set(e.announce, `${place}-${e.key}`);
    }
    return [...seen];
  }, [role]);
  return createElement(Fragment, null, ...hooks.map(([use, key]) => createElement(Announcer, { key, use })));
}
