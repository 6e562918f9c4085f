import type { AlertsMessages } from './zh-TW';

const alerts: AlertsMessages = {
  title: 'Price alerts',
  notifications: 'Notifications',
  unread: '{{n}} unread',
  markRead: 'Mark all read',
  symbol: 'Stock code',
  symbolPlaceholder: 'e.g. 2330',
  kind: 'When',
  kinds: {
    price_above: 'Price ≥',
    price_below: 'Price ≤',
    rise_pct: 'Up ≥ %',
    fall_pct: 'Down ≥ %',
  },
  value: 'Price or percent',
  set: 'Set alert',
  active: 'Active {{n}} / {{max}}',
  empty: 'No alerts yet',
  notificationsEmpty: 'No notifications',
  status: { active: 'Active', triggered: 'Triggered' },
  cancel: 'Cancel',
  fired: '{{name}} {{kind}} {{value}}: traded at {{price}}',
  firedAt: 'Fired at',
  symbolRequired: 'Enter a stock code',
};

export default alerts;
