import type { HubMessages } from './zh-TW';

const hub: HubMessages = {
  title: 'Trade',
  search: 'Code or name to place an order',
  searchEmpty: 'No matching stock',
  buy: 'Buy',
  sell: 'Sell',
  holdings: 'Holdings',
  holdingCount: 'Stocks held',
  marketValue: 'Market value',
  unrealised: 'Unrealised P/L',
  toPositions: 'Positions',
  todayOrders: "Today's orders",
  todayFills: "Today's fills",
  noOrders: 'No orders today',
  noFills: 'No fills today',
  filledAt: '{{shares}} sh. filled, avg {{price}}',
  orderLine: '{{side}} {{shares}} sh. @ {{price}}',
  fee: 'Fee',
  tax: 'Tax',
  amount: 'Amount',
  side: { buy: 'Buy', sell: 'Sell' },
  status: { pending: 'Working', partial: 'Part filled', filled: 'Filled', cancelled: 'Cancelled', expired: 'Expired' },
};

export default hub;
