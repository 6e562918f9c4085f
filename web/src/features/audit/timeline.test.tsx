import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { resetClientState } from '@/lib/api/client';
import { saveSession } from '@/lib/session';
import { apiMock, envelope, renderPage } from '@/test/render';
import TimelinePage, { ledgerKey } from './TimelinePage';

let server: ReturnType<typeof apiMock>;
beforeEach(() => {
  resetClientState();
  saveSession({ token: 'tok', account: 'audit' });
  server = apiMock();
  vi.stubGlobal('fetch', server.fetch);
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const registered = { position: 3, stream: 'member-x', version: 1, type: 'MemberRegistered.v1', time: '2026-01-02T01:00:00Z', actor: 'system', commandId: 'c1', summary: { account: '0912345678' }, postings: [], balances: {} };

it("shows an account's events with the balance after each", async () => {
  const user = userEvent.setup();
  server.on('/api/vue/audit/accounts/', () =>
    envelope({
      account: '0912345678',
      items: [
        registered,
        {
          position: 9,
          stream: 'account-x',
          version: 2,
          type: 'DepositApproved.v1',
          time: '2026-01-02T02:00:00Z',
          actor: 'ops:ops',
          commandId: 'c2',
          summary: { orderNo: 'D1' },
          postings: [
            { account: 'house:bank_clearing', currency: 'TWD', amount: '-5000' },
            { account: 'member:x:available', currency: 'TWD', amount: '5000' },
          ],
          balances: { TWD: { available: '5000', frozen: '0' } },
        },
      ],
    }),
  );
  renderPage('/audit/timeline', TimelinePage);
  await user.type(screen.getByTestId('audit-account'), ' 0912345678 ');
  await user.click(screen.getByTestId('audit-search'));
  const events = await screen.findAllByTestId('timeline-event');
  expect(events).toHaveLength(2);
  expect(server.calls[0]!.url).toBe('/api/vue/audit/accounts/0912345678/timeline?size=50');
  expect(screen.getByTestId('audit-count')).toHaveTextContent('共 2 筆事件');
  const bal = screen.getByTestId('timeline-balance-TWD');
  expect(bal).toHaveAttribute('data-available', '5000');
  expect(bal).toHaveTextContent('TWD 可用 5,000.00 · 凍結 0.00');
  expect(events[1]).toHaveTextContent('-5,000.00');
  // Ledger accounts read as names, the raw account stays available on hover.
  expect(events[1]).toHaveTextContent('銀行清算');
  expect(events[1]).toHaveTextContent('會員可用資金');
  expect(screen.getByTitle('member:x:available')).toBeInTheDocument();
});

it('loads the next page after the cursor and keeps the running balances the server sent', async () => {
  const user = userEvent.setup();
  const deposit = {
    position: 9,
    stream: 'account-x',
    version: 1,
    type: 'DepositApproved.v1',
    time: '2026-01-02T02:00:00Z',
    actor: 'ops:ops',
    commandId: 'c2',
    summary: {},
    postings: [
      { account: 'house:bank_clearing', currency: 'TWD', amount: '-5000' },
      { account: 'member:x:available', currency: 'TWD', amount: '5000' },
    ],
    balances: { TWD: { available: '5000.00', frozen: '0.00' } },
  };
  const withdrawal = {
    ...deposit,
    position: 14,
    version: 2,
    type: 'WithdrawalRequested.v1',
    commandId: 'c3',
    postings: [
      { account: 'member:x:available', currency: 'TWD', amount: '-100' },
      { account: 'member:x:frozen', currency: 'TWD', amount: '100' },
    ],
    balances: { TWD: { available: '4900.00', frozen: '100.00' } },
  };
  // jsdom lays nothing out: give the scroll sentinel a parent so that it counts as on screen.
  vi.spyOn(HTMLElement.prototype, 'offsetParent', 'get').mockImplementation(function (this: HTMLElement) {
    return this.parentElement;
  });
  server.reply(envelope({ account: '0912345678', items: [registered, deposit], nextCursor: '9' }));
  server.reply(envelope({ account: '0912345678', items: [withdrawal] }));
  renderPage('/audit/timeline', TimelinePage);
  await user.type(screen.getByTestId('audit-account'), '0912345678');
  await user.click(screen.getByTestId('audit-search'));
  await screen.findByText('沒有更多了');
  const events = screen.getAllByTestId('timeline-event');
  expect(events.map((e) => e.dataset.position)).toEqual(['3', '9', '14']);
  expect(server.calls.map((c) => c.url)).toEqual([
    '/api/vue/audit/accounts/0912345678/timeline?size=50',
    '/api/vue/audit/accounts/0912345678/timeline?cursor=9&size=50',
  ]);
  expect(screen.getByTestId('audit-count')).toHaveTextContent('共 3 筆事件');
  const last = screen.getAllByTestId('timeline-balance-TWD').at(-1)!;
  expect(last).toHaveAttribute('data-frozen', '100.00');
  expect(last).toHaveTextContent('TWD 可用 4,900.00 · 凍結 100.00');
});

it.each([
  ['member:6f7c8c38-67c4-5e87-b229-97feed470669:available', 'audit.ledger.available'],
  ['member:abc:frozen', 'audit.ledger.frozen'],
  ['house:bank_clearing', 'audit.ledger.bank_clearing'],
  ['house:exchange_clearing', 'audit.ledger.exchange_clearing'],
  ['member:abc:loans', undefined],
  ['bank', undefined],
])('ledgerKey(%s) = %s', (account, key) => {
  expect(ledgerKey(account)).toBe(key);
});
