import type { WatchlistMessages } from './zh-TW';

const watchlist: WatchlistMessages = {
  title: 'Watchlist groups',
  defaultName: 'Favourites',
  newGroup: 'New group',
  groupName: 'Group name',
  create: 'Create',
  rename: 'Rename',
  remove: 'Delete group',
  removeConfirm: 'Delete the group "{{name}}" and its stocks?',
  addSymbol: 'Add a stock',
  symbolPlaceholder: 'Stock code, e.g. 2330',
  add: 'Add',
  alsoIn: 'Also add to',
  empty: 'No stocks in this group yet',
  up: 'Move up',
  down: 'Move down',
  pin: 'Pin to top',
  unpin: 'Unpin',
  drop: 'Remove',
  count: '{{n}} / {{max}} stocks',
  groups: '{{n}} / {{max}} groups',
  favorites: 'Favourites',
};

export default watchlist;
