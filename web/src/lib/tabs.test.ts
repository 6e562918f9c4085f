import { describe, expect, it } from 'vitest';
import { isTabPath, registerTabs, tabs } from './tabs';

// Each test file has its own modules: registering here replaces only this file's tabs.
describe('tabs', () => {
  const tab = (key: string, order: number) => ({ key, order, label: { tw: key, en: key }, icon: key });

  it('orders the declared tabs and ignores routes without one', () => {
    registerTabs([
      { path: 'c/c', zone: 'tabs', tab: tab('c', 30) },
      { path: 'a/a', zone: 'tabs', tab: tab('a', 10) },
      { path: 'x/x', zone: 'session' },
      { path: 'b/b', zone: 'tabs', tab: tab('b', 20) },
    ]);
    expect(tabs().map((t) => `${t.key} ${t.path}`)).toEqual(['a /a/a', 'b /b/b', 'c /c/c']);
    expect(isTabPath('/b/b')).toBe(true);
    expect(isTabPath('/x/x')).toBe(false);
  });

  it('adds a tab a new feature declares without anything else changing', () => {
    const base = [
      { path: 'a/a', zone: 'tabs', tab: tab('a', 10) },
      { path: 'b/b', zone: 'tabs', tab: tab('b', 50) },
    ];
    registerTabs([...base, { path: 'n/n', zone: 'tabs', tab: tab('new', 40) }]);
    expect(tabs().map((t) => t.key)).toEqual(['a', 'new', 'b']);
  });

  it('refuses a tab outside the tabs zone and a key declared twice', () => {
    expect(() => registerTabs([{ path: 'a/a', zone: 'session', tab: tab('a', 10) }])).toThrow(/tabs zone/);
    expect(() =>
      registerTabs([
        { path: 'a/a', zone: 'tabs', tab: tab('a', 10) },
        { path: 'b/b', zone: 'tabs', tab: tab('a', 20) },
      ]),
    ).toThrow(/twice/);
  });
});
