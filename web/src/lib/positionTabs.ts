import { type ComponentType, lazy, type LazyExoticComponent, useMemo } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * A tab of the positions screen that another feature fills: its key (data-testid pos-tab-<key>),
 * its label in both languages, where it sits among the tabs (order, lower first; trade's own tabs
 * sit at ETF 30, holdings 40, terminated 50, orders 70) and its list, loaded with the tab.
 *
 * A feature declares its tab in its routes.ts (loaded with the app), so that the positions screen
 * shows every capability's records without naming any, and no feature imports another.
 */
export interface PositionTabDecl {
  key: string;
  label: { tw: string; en: string };
  order: number;
  load: () => Promise<{ default: ComponentType }>;
}

/** A declared tab with its list as a lazily loaded component. */
export interface PositionTab extends PositionTabDecl {
  Component: LazyExoticComponent<ComponentType>;
}

const tabs = new Map<string, PositionTab>();

/** Declares a feature's position tab; declaring a key again replaces it. */
export function declarePositionTab(tab: PositionTabDecl): void {
  tabs.set(tab.key, { ...tab, Component: lazy(tab.load) });
}

/** The declared tabs in their order, each with its label in lang. */
export function positionTabs(lang: 'tw' | 'en'): (PositionTab & { text: string })[] {
  return [...tabs.values()].sort((a, b) => a.order - b.order || a.key.localeCompare(b.key)).map((t) => ({ ...t, text: t.label[lang] }));
}

/** positionTabs in the current language. */
export function usePositionTabs(): (PositionTab & { text: string })[] {
  const { i18n } = useTranslation();
  const lang = i18n.language === 'en' ? 'en' : 'tw';
  return useMemo(() => positionTabs(lang), [lang]);
}
