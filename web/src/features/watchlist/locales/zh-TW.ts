const watchlist = {
  title: '自選群組',
  defaultName: '預設自選',
  newGroup: '新增群組',
  groupName: '群組名稱',
  create: '建立',
  rename: '重新命名',
  remove: '刪除群組',
  removeConfirm: '刪除群組「{{name}}」及其中的股票？',
  addSymbol: '加入股票',
  symbolPlaceholder: '股票代號，例如 2330',
  add: '加入',
  alsoIn: '同時加入其他群組',
  empty: '群組中還沒有股票',
  up: '上移',
  down: '下移',
  pin: '置頂',
  unpin: '取消置頂',
  drop: '移除',
  count: '{{n}} / {{max}} 檔',
  groups: '{{n}} / {{max}} 個群組',
  favorites: '自選股',
};

export type WatchlistMessages = typeof watchlist;
export default watchlist;
