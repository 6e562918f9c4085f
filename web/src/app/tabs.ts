/** The bottom tabs whose features exist; copy-trade joins with its issue. */
export const TABS = [
  { key: 'home', path: '/home/index' },
  { key: 'market', path: '/market/market' },
  { key: 'trade', path: '/position/position' },
  { key: 'mine', path: '/user/usercenter' },
  { key: 'news', path: '/home/moreNews' },
] as const;

export const TAB_PATHS: readonly string[] = TABS.map((t) => t.path);
