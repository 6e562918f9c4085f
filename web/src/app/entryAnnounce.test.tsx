import { act, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { alertsRoutes } from '@/features/alerts/routes';
import UserCenterPage from '@/features/user/UserCenterPage';
import { EntryAnnouncers, registerEntries } from '@/lib/entries';
import { SocketManager } from '@/lib/socket/manager';
import { FakeSocket } from '@/test/fakeSocket';
import { envelope, renderPage } from '@/test/render';
import { useScreenTest } from '@/test/screen';

let socket: SocketManager;
vi.mock('@/lib/socket/socket', () => ({ appSocket: () => socket }));

const alert = (id: string, at: number) => ({
  id,
  symbol: '2330',
  name: '台積電',
  nameEn: 'Taiwan Semiconductor Manufacturing',
  kind: 'price_below',
  value: '1100',
  status: 'triggered',
  price: '1085.00',
  createdAt: '2026-03-02T02:00:00Z',
  position: at - 3,
  firedPosition: at,
});

function MinePage() {
  return (
    <>
      <EntryAnnouncers />
      <UserCenterPage />
    </>
  );
}

// A price alert that fires reaches the member on a screen that is not the alerts' (mine here):
// a toast, and the unread count on the notifications entry; by polling, no socket opened. The
// shell runs the hook through the entries (EntryAnnouncers), never naming the feature.
describe('entry announcements', () => {
  const ctx = useScreenTest({ account: '0912345678' });
  let items: ReturnType<typeof alert>[] = [];
  beforeEach(() => {
    items = [alert('old', 10)];
    FakeSocket.reset();
    socket = new SocketManager({ url: () => 'ws://test/api/vue/ws', create: (u) => new FakeSocket(u), random: () => 0 });
    registerEntries(alertsRoutes);
    ctx.server.on('/api/vue/user/info', () => envelope({ role: 'member', account: '0912345678', assets: { total: '0' } }));
    ctx.server.on('/api/vue/alerts/notifications', () => envelope({ items, unread: items.length, through: 0 }));
  });

  it('toasts an alert that fires while the member is elsewhere, once, and badges the notifications entry', async () => {
    const { client } = renderPage('/user/usercenter', MinePage);
    expect(await screen.findByTestId('badge-notifications', {}, { timeout: 5000 })).toHaveTextContent('1');
    // What fired before the app looked is in the notifications, not toasted (mine's other reads,
    // unanswered here, may toast their own errors).
    const told = () => ctx.shown.filter((s) => s.startsWith('到價提醒'));
    expect(told()).toEqual([]);
    items = [alert('new', 20), ...items];
    await act(async () => {
      await client.invalidateQueries({ queryKey: ['alerts'] });
    });
    await waitFor(() => expect(told()).toEqual(['到價提醒：台積電 成交價 1085.00']), { timeout: 5000 });
    expect(screen.getByTestId('badge-notifications')).toHaveTextContent('2');
    await act(async () => {
      await client.invalidateQueries({ queryKey: ['alerts'] });
    });
    expect(told()).toHaveLength(1);
    expect(FakeSocket.all).toHaveLength(0);
  });
});
