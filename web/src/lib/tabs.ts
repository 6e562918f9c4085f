import { useTranslation } from 'react-i18next';

/**
 * A bottom tab a feature declares on the route of its tab root (FeatureRoute.tab), with its own
 * label in both languages, so that a capability adds its tab (copy trading, later) without the
 * tab bar being edited. The route must be in the tabs zone.
 */
export interface TabDecl {
  /** names the tab: data-testid tab-<key> */
  key: string;
  /** where it sits, left to right (the spec's order: home 10, trade 20, market 30, copy-trade 40, mine 50, news 60, fund records 70) */
  order: number;
  label: { tw: string; en: string };
  /** an icon of the tab bar by name (app/TabsLayout.tsx) */
  icon: string;
}

/** A tab with the screen it opens. */
export interface PlacedTab extends TabDecl {
  path: string;
}

let registered: PlacedTab[] = [];

/** Takes the tabs of the app's routes, ordered; the app's router calls it once. */
export function registerTabs(routes: readonly { path: string; zone?: string; tab?: TabDecl }[]): void {
  const out: PlacedTab[] = [];
  for (const r of routes) {
    if (!r.tab) continue;
    if (r.zone !== undefined && r.zone !== 'tabs') throw new Error(`tab ${r.tab.key}: /${r.path} is not in the tabs zone`);
    if (out.some((t) => t.key === r.tab?.key)) throw new Error(`tab ${r.tab.key} declared twice`);
    out.push({ ...r.tab, path: `/${r.path}` });
  }
  registered = out.sort((a, b) => a.order - b.order);
}

/** The registered tabs, left to right. */
export function tabs(): readonly PlacedTab[] {
  return registered;
}

/** Whether pathname is a tab's root (each keeps one scroll position). */
export function isTabPath(pathname: string): boolean {
  return registered.some((t) => t.path === pathname);
}

/** The tabs with their labels in the current language. */
export function useTabs(): (PlacedTab & { text: string })[] {
  const { i18n } = useTranslation();
  const lang = i18n.language === 'en' ? 'en' : 'tw';
  return registered.map((t) => ({ ...t, text: t.label[lang] }));
}
