import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { envelope, renderPage } from '@/test/render';
import { useScreenTest } from '@/test/screen';
import OpsChipGrabPage from './OpsChipGrabPage';
import ChipGrabPositionTab from './PositionTab';

const claim = (over: Record<string, unknown> = {}) => ({
  orderNo: 'G1',
  offeringId: 'c3a1e2f4-5b6d-4c7e-8f90-1a2b3c4d5e6f',
  symbol: '2884',
  name: '玉山金',
  price: '31.00',
  lots: 2,
  amount: '62044.00',
  status: 'frozen',
  reason: '',
  createdAt: '2026-11-24T01:00:00Z',
  updatedAt: '2026-11-24T01:00:00Z',
  ...over,
});

const ctx = useScreenTest({ account: 'ops' });

describe('chip bidding position tab', () => {
  it('lists the claims with their state: allotted, frozen, given back', async () => {
    ctx.server.on('/api/vue/chipgrab/claims', () =>
      envelope({ items: [claim({ orderNo: 'G3', status: 'allotted' }), claim(), claim({ orderNo: 'G0', status: 'released', reason: 'insufficient_balance', amount: '0.00' })], page: 1, hasMore: false }),
    );
    renderPage('/position/position', ChipGrabPositionTab);
    const rows = await screen.findAllByTestId('chipgrab-claim');
    expect(rows.map((r) => r.getAttribute('data-status'))).toEqual(['allotted', 'frozen', 'released']);
    expect(rows[0]).toHaveTextContent('已配售');
    expect(rows[1]).toHaveTextContent('62,044.00');
    expect(rows[2]).toHaveTextContent('餘額不足');
  });

  it('says so when there are none', async () => {
    ctx.server.on('/api/vue/chipgrab/claims', () => envelope({ items: [], page: 1, hasMore: false }));
    renderPage('/position/position', ChipGrabPositionTab);
    expect(await screen.findByTestId('list-empty')).toBeInTheDocument();
  });
});

describe('ops chip grab claims', () => {
  it('names each claimant by account and verified name', async () => {
    ctx.server.on('/api/vue/ops/chipgrab/c3a1e2f4-5b6d-4c7e-8f90-1a2b3c4d5e6f/claims', () =>
      envelope({ items: [claim({ account: '0911000001', memberName: '王小明' }), claim({ orderNo: 'G2', account: '0911000002', memberName: '' })], page: 1, hasMore: false }),
    );
    ctx.server.on('/api/vue/ops/chipgrab', () =>
      envelope([
        { offeringId: 'c3a1e2f4-5b6d-4c7e-8f90-1a2b3c4d5e6f', symbol: '2884', name: '玉山金', price: '31.00', quotaLots: 500, remainingLots: 496, maxLotsPerMember: 5, opensAt: '2026-11-24T00:00:00Z', closesAt: '2026-11-27T00:00:00Z', status: 'open' },
      ]),
    );
    renderPage('/ops/chipgrab', OpsChipGrabPage);
    fireEvent.click(await screen.findByTestId('ops-chipgrab-claims-toggle'));
    const rows = await screen.findAllByTestId('ops-chipgrab-claim');
    expect(rows.map((r) => r.getAttribute('data-account'))).toEqual(['0911000001', '0911000002']);
    expect(rows[0]).toHaveTextContent('王小明');
    expect(rows[1]).toHaveTextContent('未實名');
  });
});
