import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { SocketManager } from '@/lib/socket/manager';
import { FakeSocket } from '@/test/fakeSocket';
import { envelope, renderPage } from '@/test/render';
import { useScreenTest } from '@/test/screen';
import { lastFrom, mergeView, tickOf, type ChatMessage, type ChatView } from './api';
import ChatPage from './ChatPage';
import { checkText } from './ChatThread';
import OpsChatListPage from './OpsChatListPage';

let socket: SocketManager;
vi.mock('@/lib/socket/socket', () => ({ appSocket: () => socket }));

const msg = (seq: number, side: 'member' | 'ops', text: string, extra: Partial<ChatMessage> = {}): ChatMessage => ({
  seq,
  side,
  text,
  at: '2026-03-02T02:00:00Z',
  ...extra,
});

const view = (messages: ChatMessage[], over: Partial<ChatView> = {}): ChatView => ({
  account: '0912345678',
  status: 'open',
  lastSeq: messages.at(-1)?.seq ?? 0,
  memberUnread: 0,
  opsUnread: 0,
  member: { delivered: 0, read: 0 },
  ops: { delivered: 0, read: 0 },
  messages,
  ...over,
});

describe('chat rules', () => {
  it('merges a read of what is new by seq, taking the state of the fresh read', () => {
    const old = view([msg(1, 'member', 'a'), msg(2, 'ops', 'b')]);
    const fresh = view([msg(2, 'ops', 'b'), msg(3, 'member', 'c')], { status: 'closed', member: { delivered: 2, read: 2 } });
    const got = mergeView(old, fresh);
    expect(got.messages.map((m) => m.seq)).toEqual([1, 2, 3]);
    expect(got.status).toBe('closed');
    expect(got.member.read).toBe(2);
    expect(mergeView(undefined, fresh)).toBe(fresh);
  });

  it("ticks my message by the other side's marks", () => {
    const v = view([msg(1, 'member', 'a'), msg(2, 'member', 'b'), msg(3, 'member', 'c'), msg(4, 'ops', 'd')], { ops: { delivered: 2, read: 1 } });
    expect(v.messages.map((m) => tickOf(m, v))).toEqual(['read', 'delivered', 'sent', 'sent']);
    expect(lastFrom(v, 'ops')).toBe(4);
    expect(lastFrom(v, 'member')).toBe(3);
    expect(lastFrom(view([]), 'ops')).toBe(0);
  });

  it.each([
    ['a word', 'hello', null],
    ['only spaces', '   ', 'chat_message_empty'],
    ['1000 characters', '字'.repeat(1000), null],
    ['1000 characters and spaces around', ` ${'字'.repeat(1000)} `, null],
    ['1001 characters', '字'.repeat(1001), 'chat_message_too_long'],
  ])('checks %s', (_, text, want) => {
    expect(checkText(text)).toBe(want);
  });
});

describe('member chat screen', () => {
  const ctx = useScreenTest({ account: '0912345678', objectUrls: true });
  beforeEach(() => {
    FakeSocket.reset();
    socket = new SocketManager({ url: () => 'ws://test/api/vue/ws', create: (u) => new FakeSocket(u), random: () => 0 });
  });

  it('shows the conversation with ticks and the unread divider, binds the socket, marks read, sends, and reads on after a push', async () => {
    // The server's conversation, as the test moves it on.
    const all = [msg(1, 'member', 'hi', { fileId: 'f1' }), msg(2, 'ops', 'hello', { by: 'ops' }), msg(3, 'ops', 'anything else?', { by: 'ops' })];
    const state: Partial<ChatView> = { ops: { delivered: 1, read: 1 }, member: { delivered: 2, read: 2 }, memberUnread: 1 };
    ctx.server.on('/api/vue/chat/marks', () => envelope({ position: 40 }));
    ctx.server.on('/api/vue/chat/messages', () => {
      all.push(msg(4, 'member', 'no, thanks'));
      state.ops = { delivered: 4, read: 4 };
      return envelope({ seq: 4, position: 41 });
    });
    ctx.server.on('/api/vue/chat?after=', () => {
      const after = Number(ctx.server.calls.at(-1)!.url.split('after=')[1]);
      return envelope(view(all.filter((m) => m.seq > after), state));
    });
    ctx.server.on('/api/vue/chat', () => envelope(view(all, state)));
    ctx.server.on('/api/vue/files/', () => new Response(new Blob([new Uint8Array([1])], { type: 'image/png' })));
    renderPage('/chat', ChatPage);

    expect(await screen.findByTestId('chat-message-3')).toHaveTextContent('anything else?');
    expect(screen.getByTestId('chat-tick-1')).toHaveAttribute('data-tick', 'read');
    expect(screen.queryByTestId('chat-tick-2')).toBeNull(); // not mine
    expect(screen.getByTestId('chat-unread')).toHaveTextContent('1 則未讀訊息');
    expect(screen.getByTestId('chat-image-1')).toBeInTheDocument();

    // The socket binds to the session when it opens.
    const ws = FakeSocket.last();
    act(() => ws.open());
    expect(ws.take()).toEqual([{ op: 'auth', token: 'tok', account: '0912345678' }]);

    // What the screen shows of customer service is marked read.
    await waitFor(() => expect(ctx.server.calls.some((c) => c.url === '/api/vue/chat/marks')).toBe(true));
    const mark = ctx.server.calls.find((c) => c.url === '/api/vue/chat/marks')!;
    expect(JSON.parse(String(mark.init.body))).toEqual({ delivered: 3, read: 3 });

    // Send: the text goes trimmed; the answer reads what is new.
    await userEvent.type(screen.getByTestId('chat-input').querySelector('textarea')!, '  no, thanks ');
    expect(ws.take()).toEqual([{ op: 'typing' }]);
    await userEvent.click(screen.getByTestId('chat-send'));
    await waitFor(() => expect(screen.getByTestId('chat-message-4')).toHaveTextContent('no, thanks'));
    const sent = ctx.server.calls.find((c) => c.url === '/api/vue/chat/messages')!;
    expect(JSON.parse(String(sent.init.body))).toEqual({ text: 'no, thanks' });
    expect(sent.init.headers['Idempotency-Key']).toBeTruthy();
    expect(screen.getByTestId('chat-tick-4')).toHaveAttribute('data-tick', 'read');

    // Customer service types, then answers: the push reads on from the last seq, at its position.
    act(() => ws.push({ type: 'chat', kind: 'typing', account: '0912345678', side: 'ops' }));
    expect(await screen.findByTestId('chat-typing')).toHaveTextContent('客服正在輸入');
    all.push(msg(5, 'ops', 'bye', { by: 'ops' }));
    act(() => ws.push({ type: 'chat', kind: 'message', account: '0912345678', position: 77, message: msg(5, 'ops', 'bye') }));
    expect(await screen.findByTestId('chat-message-5')).toHaveTextContent('bye');
    const read = ctx.server.calls.findLast((c) => c.url === '/api/vue/chat?after=4')!;
    expect(read.init.headers['Lotbook-Position']).toBe('77');
  });

  it('loads earlier messages on top when the conversation is longer than the first page', async () => {
    ctx.server.on('/api/vue/chat?before=100', () => envelope(view([msg(98, 'member', 'older'), msg(99, 'ops', 'oldest answer')])));
    ctx.server.on('/api/vue/chat', () => envelope(view([msg(100, 'member', 'latest'), msg(101, 'ops', 'reply')], { member: { delivered: 101, read: 101 } })));
    renderPage('/chat', ChatPage);
    await screen.findByTestId('chat-message-101');
    await userEvent.click(screen.getByTestId('chat-earlier'));
    expect(await screen.findByTestId('chat-message-98')).toHaveTextContent('older');
    const seqs = [...document.querySelectorAll('[data-testid^=chat-message-]')].map((e) => e.getAttribute('data-testid'));
    expect(seqs).toEqual(['chat-message-98', 'chat-message-99', 'chat-message-100', 'chat-message-101']);
  });

  it('refuses an over-long message before sending, with the translated reason', async () => {
    ctx.server.on('/api/vue/chat', () => envelope(view([])));
    renderPage('/chat', ChatPage);
    const input = (await screen.findByTestId('chat-input')).querySelector('textarea')!;
    fireEvent.change(input, { target: { value: '字'.repeat(1001) } });
    await userEvent.click(screen.getByTestId('chat-send'));
    expect(ctx.shown).toEqual(['訊息最多 1000 字']);
    expect(ctx.server.calls.some((c) => c.url === '/api/vue/chat/messages')).toBe(false);
  });
});

describe('ops chat queue', () => {
  const ctx = useScreenTest({ account: 'ops' });
  beforeEach(() => {
    FakeSocket.reset();
    socket = new SocketManager({ url: () => 'ws://test/api/vue/ws', create: (u) => new FakeSocket(u), random: () => 0 });
  });

  it('lists conversations with unread counts and reads the queue again on a push', async () => {
    let unread = 1;
    const row = () => ({ account: '0912345678', status: 'open', lastSeq: 1, lastSide: 'member', lastText: '', hasImage: true, lastAt: '2026-03-02T02:00:00Z', opsUnread: unread });
    ctx.server.on('/api/vue/ops/chats?', () => envelope({ items: [row()], page: 1, hasMore: false }));
    renderPage('/ops/chats', OpsChatListPage);
    expect(await screen.findByTestId('ops-chat-0912345678')).toHaveTextContent('[圖片]');
    expect(screen.getByTestId('ops-chat-unread-0912345678')).toHaveTextContent('1');
    act(() => FakeSocket.last().open());
    unread = 2;
    act(() => FakeSocket.last().push({ type: 'chat', kind: 'message', account: '0912345678', position: 9, message: msg(2, 'member', 'more') }));
    await waitFor(() => expect(screen.getByTestId('ops-chat-unread-0912345678')).toHaveTextContent('2'));
  });
});
