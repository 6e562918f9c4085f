import type { ChipGrabMessages } from './zh-TW';

const chipgrab: ChipGrabMessages = {
  title: 'Chip grabbing',
  records: 'My chip bids',
  empty: 'No chip grab offerings at the moment',
  recordsEmpty: 'No chip bids yet',
  price: 'Price',
  quota: 'Quota left',
  quotaOf: '{{left}} / {{total}} lot(s)',
  perMember: 'Per member',
  lotsUnit: '{{n}} lot(s)',
  window: 'Open',
  status: { upcoming: 'Not started', open: 'Open', closed: 'Closed', allotted: 'Allotted' },
  claimStatus: { claimed: 'Processing', frozen: 'Awaiting allotment', released: 'Not successful', allotted: 'Allotted' },
  lots: 'Lots',
  claim: 'Grab now',
  cost: 'Freezes about {{amount}} with the fee',
  amount: 'Frozen',
  reason: 'Reason',
  time: 'Time',
  orderNo: 'Order no.',
  ops: {
    title: 'Chip grabbing',
    offerTitle: 'Offer a quota',
    symbol: 'Symbol',
    price: 'Price',
    quota: 'Quota (lots)',
    perMember: 'Per member (lots)',
    days: 'Open for (days)',
    offer: 'Offer',
    offered: 'Offered',
    allot: 'Allot',
    allotConfirm: 'Close the offering and allot every paid claim?',
    allotted: '{{lots}} lot(s) allotted',
  },
};

export default chipgrab;
