/** The bottom tabs whose features exist; market, trade and copy-trade join with their issues. */
export const TABS = [
  { key: 'home', path: '/home/index' },
  { key: 'mine', path: '/user/usercenter' },
] as const;

export const TAB_PATHS: readonly string[] = TABS.map((t) => t.path);
