import { useMemo } from 'react';
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
}

/** How many things wait behind an entry (see Entry.badge). */
export type BadgeHook = () => number | undefined;

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
