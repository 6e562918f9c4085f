/** The bottom tabs whose features exist; trade and copy-trade join with their issues. */
export const TABS = [
  { key: 'home', path: '/home/index' },
  { key: 'market', path: '/market/market' },
  { key: 'mine', path: '/user/usercenter' },
] as const;

export const TAB_PATHS: readonly string[] = TABS.map((t) => t.path);
