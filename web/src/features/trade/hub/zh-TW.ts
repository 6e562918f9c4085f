const hub = {
  title: '交易',
  search: '輸入代號或名稱下單',
  searchEmpty: '查無符合的股票',
  buy: '買進',
  sell: '賣出',
  holdings: '持倉摘要',
  holdingCount: '持有檔數',
  marketValue: '市值',
  unrealised: '未實現損益',
  toPositions: '查看持倉',
  todayOrders: '今日委託',
  todayFills: '今日成交',
  noOrders: '今日尚無委託',
  noFills: '今日尚無成交',
  filledAt: '成交 {{shares}} 股，均價 {{price}}',
  orderLine: '{{side}} {{shares}} 股 @ {{price}}',
  fee: '手續費',
  tax: '交易稅',
  amount: '成交金額',
  side: { buy: '買進', sell: '賣出' },
  status: { pending: '委託中', partial: '部分成交', filled: '完全成交', cancelled: '已撤單', expired: '已失效' },
};

export type HubMessages = typeof hub;
export default hub;
