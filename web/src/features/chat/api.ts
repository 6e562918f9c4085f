import { useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { api, noteSeenPosition, type DataOf } from '@/lib/api/client';
import { getSession } from '@/lib/session';
import { appSocket } from '@/lib/socket/socket';

export type ChatView = DataOf<'/api/vue/chat', 'get'>;
export type ChatMessage = ChatView['messages'][number];
export type ChatSummary = DataOf<'/api/vue/ops/chats', 'get'>['items'][number];
export type Side = ChatMessage['side'];
export type Tick = 'sent' | 'delivered' | 'read';

/** A pushed chat frame (WsChatFrame of the HTTP contract). */
export interface ChatFrame {
  type: 'chat';
  kind: 'message' | 'marks' | 'closed' | 'typing';
  account: string;
  side?: Side;
  message?: ChatMessage;
  position?: number;
}

/** Whose conversation a screen shows: the member's own, or (ops) the member's of that account. */
export type Who = { own: true } | { own: false; account: string };

export const chatKeys = {
  all: ['chat'] as const,
  view: (who: Who) => (who.own ? (['chat', 'own'] as const) : (['chat', 'ops', who.account] as const)),
  queue: (status: 'open' | 'closed') => ['chat', 'queue', status] as const,
};

/** Which messages a read asks for: after a seq (what is new), before one (scrolling back), else the latest. */
type Window = { after: number } | { before: number } | Record<string, never>;

function fetchView(who: Who, query: Window, signal?: AbortSignal): Promise<ChatView> {
  return who.own
    ? api.get('/api/vue/chat', { query, signal })
    : api.get('/api/vue/ops/chats/{account}', { params: { account: who.account }, query, signal });
}

/**
 * Merges a read of the messages after some seq into what the screen holds: messages by seq (a
 * message the screen has is kept once), the conversation's state and marks from the fresh read.
 */
export function mergeView(old: ChatView | undefined, fresh: ChatView): ChatView {
  if (!old) return fresh;
  const bySeq = new Map(old.messages.map((m) => [m.seq, m]));
  for (const m of fresh.messages) bySeq.set(m.seq, m);
  return { ...fresh, messages: [...bySeq.values()].sort((a, b) => a.seq - b.seq) };
}

/** The last seq the screen holds (0: none). */
export function lastSeq(v: ChatView | undefined): number {
  return v?.messages.at(-1)?.seq ?? 0;
}

/** How far the other side got with my message: read, delivered (its app has it) or only sent. */
export function tickOf(m: ChatMessage, v: ChatView): Tick {
  const marks = m.side === 'member' ? v.ops : v.member;
  if (marks.read >= m.seq) return 'read';
  if (marks.delivered >= m.seq) return 'delivered';
  return 'sent';
}

/** The last message of the other side than mine (0: none). */
export function lastFrom(v: ChatView, side: Side): number {
  for (let i = v.messages.length - 1; i >= 0; i--) if (v.messages[i]!.side === side) return v.messages[i]!.seq;
  return 0;
}

/** Reads the conversation, then keeps it current: a pushed frame or a reconnect reads what is new. */
export function useConversation(who: Who) {
  const qc = useQueryClient();
  const key = chatKeys.view(who);
  const q = useQuery({ queryKey: key, queryFn: ({ signal }) => fetchView(who, {}, signal), staleTime: 0 });
  const catchUp = useCallback(async () => {
    const held = qc.getQueryData<ChatView>(key);
    if (!held) {
      await qc.invalidateQueries({ queryKey: key });
      return;
    }
    const fresh = await fetchView(who, { after: lastSeq(held) });
    qc.setQueryData<ChatView>(key, (old) => mergeView(old, fresh));
    // who is a new object each render; its identity is own and account.
  }, [qc, who.own, who.own ? '' : who.account]);
  const loadEarlier = useCallback(async () => {
    const first = qc.getQueryData<ChatView>(key)?.messages[0]?.seq ?? 0;
    if (first <= 1) return;
    const earlier = await fetchView(who, { before: first });
    qc.setQueryData<ChatView>(key, (old) => mergeView(old, earlier));
  }, [qc, who.own, who.own ? '' : who.account]);
  return { q, catchUp, loadEarlier };
}

/** Refreshes every chat read (ops' queue and open conversations) on a frame, waiting for its position. */
export function refreshChats(qc: QueryClient, f: ChatFrame) {
  if (f.position) noteSeenPosition(f.position);
  void qc.invalidateQueries({ queryKey: ['chat', 'queue'] });
}

const TYPING_SHOWN_MS = 4000;
const TYPING_SENT_EVERY_MS = 2000;

/**
 * The session's chat pushes while the screen is up: holds the socket open, binds it to the
 * session on every connection, and hands each chat frame to onFrame; onReconnect runs after a
 * reconnection (the screen reads what it missed).
 */
export function useChatSocket(onFrame: (f: ChatFrame) => void, onReconnect: () => void) {
  const frame = useRef(onFrame);
  const reconnect = useRef(onReconnect);
  frame.current = onFrame;
  reconnect.current = onReconnect;
  useEffect(() => {
    const sock = appSocket();
    sock.setHello(() => {
      const { token, account } = getSession();
      return token ? { op: 'auth', token, account } : null;
    });
    const release = sock.hold();
    const off = sock.onMessage((m) => {
      if (m.type === 'chat') frame.current(m as unknown as ChatFrame);
    });
    const offReconnect = sock.onReconnect(() => reconnect.current());
    return () => {
      off();
      offReconnect();
      release();
    };
  }, []);
}

/** Whether the other side is typing, from typing frames: shown for a few seconds after each. */
export function useTypingShown(): [boolean, () => void] {
  const [shown, setShown] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const saw = useCallback(() => {
    setShown(true);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setShown(false), TYPING_SHOWN_MS);
  }, []);
  return [shown, saw];
}

/**
 * Tells the other side that this user types, at most every couple of seconds; never stored.
 * done (a message went out) lets the next keystroke tell again at once.
 */
export function useTypingSender(account?: string): { typing: () => void; done: () => void } {
  const last = useRef(0);
  const typing = useCallback(() => {
    const now = Date.now();
    if (now - last.current < TYPING_SENT_EVERY_MS) return;
    last.current = now;
    appSocket().send(account ? { op: 'typing', account } : { op: 'typing' });
  }, [account]);
  const done = useCallback(() => {
    last.current = 0;
  }, []);
  return { typing, done };
}
