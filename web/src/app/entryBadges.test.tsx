import { screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { chatRoutes } from '@/features/chat/routes';
import HomePage from '@/features/home/HomePage';
import UserCenterPage from '@/features/user/UserCenterPage';
import { registerEntries } from '@/lib/entries';
import { SocketManager } from '@/lib/socket/manager';
import { FakeSocket } from '@/test/fakeSocket';
import { envelope, renderPage } from '@/test/render';
import { useScreenTest } from '@/test/screen';

let socket: SocketManager;
vi.mock('@/lib/socket/socket', () => ({ appSocket: () => socket }));

// Home and mine show the count a feature's entry badge gives (chat's unread answers) without
// naming the feature, through a light read: no socket is opened for it.
describe('entry badges', () => {
  const ctx = useScreenTest({ account: '0912345678' });
  let unread = 3;
  beforeEach(() => {
    unread = 3;
    FakeSocket.reset();
    socket = new SocketManager({ url: () => 'ws://test/api/vue/ws', create: (u) => new FakeSocket(u), random: () => 0 });
    registerEntries(chatRoutes);
    ctx.server.on('/api/vue/user/info', () => envelope({ role: 'member', account: '0912345678', assets: { total: '0' } }));
    ctx.server.on('/api/vue/chat', () =>
      envelope({ account: '0912345678', status: 'open', lastSeq: 3, memberUnread: unread, opsUnread: 0, member: { delivered: 0, read: 0 }, ops: { delivered: 1, read: 1 }, messages: [] }),
    );
  });

  it("shows the member's unread answers on both home shortcuts, opening no socket", async () => {
    renderPage('/home/index', HomePage);
    expect(await screen.findByTestId('badge-customerService')).toHaveTextContent('3');
    expect(screen.getByTestId('badge-onlineService')).toHaveTextContent('3');
    expect(screen.getByTestId('shortcut-customerService')).toContainElement(screen.getByTestId('badge-customerService'));
    const chatReads = ctx.server.calls.filter((c) => c.url.includes('/api/vue/chat'));
    expect(chatReads.length).toBeGreaterThan(0);
    expect(chatReads.every((c) => c.url.includes('after='))).toBe(true); // the count, never the messages
    expect(FakeSocket.all).toHaveLength(0);
  });

  it('shows it on the mine menu item', async () => {
    renderPage('/user/usercenter', UserCenterPage);
    expect(await screen.findByTestId('badge-customer-service')).toHaveTextContent('3');
    expect(screen.getByTestId('menu-customer-service')).toContainElement(screen.getByTestId('badge-customer-service'));
    await waitFor(() => expect(FakeSocket.all).toHaveLength(0));
  });

  it('shows no badge when nothing is unread', async () => {
    unread = 0;
    renderPage('/home/index', HomePage);
    expect(await screen.findByTestId('shortcut-customerService')).toBeInTheDocument();
    await waitFor(() => expect(ctx.server.calls.some((c) => c.url.includes('/api/vue/chat'))).toBe(true));
    expect(screen.queryByTestId('badge-customerService')).toBeNull();
  });
});
