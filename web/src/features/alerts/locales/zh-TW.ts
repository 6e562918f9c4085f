const alerts = {
  title: '到價提醒',
  notifications: '通知',
  unread: '{{n}} 則未讀',
  markRead: '全部已讀',
  symbol: '股票代號',
  symbolPlaceholder: '例如 2330',
  kind: '條件',
  kinds: {
    price_above: '股價 ≥',
    price_below: '股價 ≤',
    rise_pct: '漲幅 ≥ %',
    fall_pct: '跌幅 ≥ %',
  },
  value: '價格或百分比',
  set: '設定提醒',
  active: '生效中 {{n}} / {{max}}',
  empty: '尚未設定提醒',
  notificationsEmpty: '沒有通知',
  status: { active: '生效中', triggered: '已觸發' },
  cancel: '取消',
  fired: '{{name}} {{kind}} {{value}}：成交價 {{price}}',
  firedAt: '觸發時間',
  symbolRequired: '請輸入股票代號',
};

export type AlertsMessages = typeof alerts;
export default alerts;
