import { useQueryClient } from '@tanstack/react-query';
import { Button, TextArea } from 'antd-mobile';
import { PictureOutline } from 'antd-mobile-icons';
import { Fragment, useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { AuthedImage } from '@/components/AuthedImage';
import { ListLoading } from '@/components/ListState';
import { useAction } from '@/lib/action';
import { api } from '@/lib/api/client';
import { taipeiTime } from '@/lib/filters';
import { toastMessage } from '@/lib/toast';
import { checkImageFile } from '@/lib/validation';
import { lastFrom, refreshChats, tickOf, useChatSocket, useConversation, useTypingSender, useTypingShown, type ChatView, type Side, type Who } from './api';
import { useChatT } from './texts';
import { unreadKey } from './unread';
import './chat.css';

/** The longest text the server takes, once trimmed (commands/chat.MaxTextRunes). */
export const MAX_TEXT = 1000;

/** Checks a message before sending: the server's message key of what is wrong, or null. */
export function checkText(text: string): 'chat_message_empty' | 'chat_message_too_long' | null {
  const s = text.trim();
  if (s === '') return 'chat_message_empty';
  if ([...s].length > MAX_TEXT) return 'chat_message_too_long';
  return null;
}

function subscribeVisibility(cb: () => void) {
  document.addEventListener('visibilitychange', cb);
  return () => document.removeEventListener('visibilitychange', cb);
}
const pageVisible = () => document.visibilityState === 'visible';

/**
 * A conversation as one side sees it: the messages with their authors, images and, on my own,
 * how far the other side got (sent, delivered, read); an unread divider; the other side typing;
 * a composer for text and images (either side). Pushed frames and reconnects read what is new; what
 * the screen shows of the other side is marked read (delivered only while the page is hidden).
 */
export function ChatThread({ who, mySide }: { who: Who; mySide: Side }) {
  const t = useChatT();
  const qc = useQueryClient();
  const { q, catchUp, loadEarlier } = useConversation(who);
  const [loadingEarlier, setLoadingEarlier] = useState(false);
  const [typing, sawTyping] = useTypingShown();
  const sendTyping = useTypingSender(who.own ? undefined : who.account);
  const other: Side = mySide === 'member' ? 'ops' : 'member';
  const account = who.own ? undefined : who.account;
  useChatSocket(
    (f) => {
      if (account !== undefined && f.account !== account) {
        refreshChats(qc, f);
        return;
      }
      if (f.kind === 'typing') {
        if (f.side === other) sawTyping();
        return;
      }
      refreshChats(qc, f);
      void catchUp();
    },
    () => void catchUp(),
  );

  const v = q.data;
  const visible = useSyncExternalStore(subscribeVisibility, pageVisible, () => true);
  useMarks(who, mySide, v, visible, catchUp);

  // The unread divider stays where it was when the screen opened, as the server then said (not
  // as a cached read from an earlier visit said).
  const firstUnread = useRef<number | null>(null);
  if (v && q.isFetchedAfterMount && firstUnread.current === null) {
    const mine = mySide === 'member' ? v.member : v.ops;
    firstUnread.current = v.messages.find((m) => m.side === other && m.seq > mine.read)?.seq ?? 0;
  }
  const unreadCount = v ? v.messages.filter((m) => m.side === other && m.seq >= (firstUnread.current || Infinity)).length : 0;

  // New messages (not earlier ones loaded on top) bring the end into view.
  const end = useRef<HTMLDivElement>(null);
  const newest = v?.messages.at(-1)?.seq ?? 0;
  useEffect(() => {
    if (typeof end.current?.scrollIntoView === 'function') end.current.scrollIntoView({ block: 'end' });
  }, [newest, typing]);

  const [text, setText] = useState('');
  const send = useAction(
    (body: { text?: string; fileId?: string }, key: string) =>
      account === undefined
        ? api.post('/api/vue/chat/messages', body, { idempotencyKey: key })
        : api.post('/api/vue/ops/chats/{account}/messages', body, { params: { account }, idempotencyKey: key }),
    {
      onSuccess: (_, body) => {
        if (body.text !== undefined) setText('');
        sendTyping.done();
        void catchUp();
      },
    },
  );
  const submit = () => {
    const bad = checkText(text);
    if (bad) {
      toastMessage(bad);
      return;
    }
    send.run({ text: text.trim() });
  };

  const fileInput = useRef<HTMLInputElement>(null);
  const [uploading, setUploading] = useState(false);
  const sendImage = async (file: File) => {
    const bad = checkImageFile(file);
    if (bad) {
      toastMessage(bad);
      return;
    }
    setUploading(true);
    try {
      const { id } = await api.upload(file);
      send.run({ fileId: id });
    } catch {
      // request() toasted the server's reason
    } finally {
      setUploading(false);
    }
  };

  if (!v) return <ListLoading />;
  return (
    <div className="chat" data-testid="chat-thread" data-status={v.status}>
      <div className="chat-list" data-testid="chat-list">
        {(v.messages[0]?.seq ?? 0) > 1 ? (
          <Button
            size="mini"
            fill="none"
            className="chat-earlier"
            data-testid="chat-earlier"
            loading={loadingEarlier}
            onClick={() => {
              setLoadingEarlier(true);
              loadEarlier()
                .catch(() => {}) // request() toasted why
                .finally(() => setLoadingEarlier(false));
            }}
          >
            {t('earlier')}
          </Button>
        ) : null}
        {v.messages.length === 0 && mySide === 'member' ? <div className="chat-empty muted">{t('empty')}</div> : null}
        {v.messages.map((m) => {
          const mine = m.side === mySide;
          const tick = mine ? tickOf(m, v) : null;
          return (
            <Fragment key={m.seq}>
              {m.seq === firstUnread.current && unreadCount > 0 ? (
                <div className="chat-unread" data-testid="chat-unread">
                  {t('unread', { count: unreadCount })}
                </div>
              ) : null}
              <div className={mine ? 'chat-msg mine' : 'chat-msg theirs'} data-testid={`chat-message-${m.seq}`} data-side={m.side}>
                {/* Ops see which of them wrote each answer; the member sees who the other side is. */}
                {!mine || mySide === 'ops' ? (
                  <div className="chat-author muted">{m.side === 'ops' ? (mySide === 'ops' && m.by ? t('answeredBy', { by: m.by }) : t('service')) : t('member')}</div>
                ) : null}
                <div className="chat-bubble">
                  {m.fileId ? <AuthedImage id={m.fileId} testId={`chat-image-${m.seq}`} width={160} height={160} /> : null}
                  {m.text ? <div className="chat-text">{m.text}</div> : null}
                </div>
                <div className="chat-meta muted">
                  <span className="num">{taipeiTime(m.at)}</span>
                  {tick ? (
                    <span className={`chat-tick tick-${tick}`} data-testid={`chat-tick-${m.seq}`} data-tick={tick}>
                      {t(tick)}
                    </span>
                  ) : null}
                </div>
              </div>
            </Fragment>
          );
        })}
        {v.status === 'closed' ? (
          <div className="chat-closed muted" data-testid="chat-closed">
            {mySide === 'ops' && v.closedBy ? t('closedBy', { by: v.closedBy }) : t('closed')}
          </div>
        ) : null}
        {typing ? (
          <div className="chat-typing muted" data-testid="chat-typing">
            {t(other === 'ops' ? 'opsTyping' : 'memberTyping')}
          </div>
        ) : null}
        <div ref={end} />
      </div>
      <div className="chat-composer">
        <input
          ref={fileInput}
          type="file"
          accept="image/jpeg,image/png,image/webp"
          hidden
          data-testid="chat-image-input"
          onChange={(e) => {
            const f = e.target.files?.[0];
            e.target.value = '';
            if (f) void sendImage(f);
          }}
        />
        <Button fill="none" className="chat-image-btn" aria-label={t('image')} data-testid="chat-image" loading={uploading} onClick={() => fileInput.current?.click()}>
          <PictureOutline />
        </Button>
        <TextArea
          className="chat-input"
          data-testid="chat-input"
          placeholder={t('placeholder')}
          value={text}
          autoSize={{ minRows: 1, maxRows: 4 }}
          onChange={(s) => {
            setText(s);
            if (s.trim() !== '') sendTyping.typing();
          }}
        />
        <Button color="primary" size="small" className="chat-send" data-testid="chat-send" disabled={text.trim() === ''} loading={send.pending} onClick={submit}>
          {t('send')}
        </Button>
      </div>
    </div>
  );
}

/**
 * Marks what the screen shows of the other side: read while the page is visible, delivered
 * only while it is hidden. Each mark is sent once; the answer refreshes the unread count.
 */
function useMarks(who: Who, mySide: Side, v: ChatView | undefined, visible: boolean, catchUp: () => Promise<void>) {
  const qc = useQueryClient();
  const sent = useRef({ delivered: 0, read: 0 });
  const other: Side = mySide === 'member' ? 'ops' : 'member';
  const last = v ? lastFrom(v, other) : 0;
  const mine = v ? (mySide === 'member' ? v.member : v.ops) : undefined;
  const needRead = visible && mine !== undefined && last > mine.read && last > sent.current.read;
  const needDelivered = !visible && mine !== undefined && last > mine.delivered && last > sent.current.delivered;
  useEffect(() => {
    if (!needRead && !needDelivered) return;
    const body = needRead ? { delivered: last, read: last } : { delivered: last };
    sent.current = { delivered: Math.max(sent.current.delivered, last), read: needRead ? last : sent.current.read };
    const done = who.own
      ? api.post('/api/vue/chat/marks', body)
      : api.post('/api/vue/ops/chats/{account}/marks', body, { params: { account: who.account } });
    done.then(() => Promise.all([catchUp(), qc.invalidateQueries({ queryKey: unreadKey })])).catch(() => {
      sent.current = { delivered: 0, read: 0 }; // try again with the next change
    });
    // One mark per change of what is needed, not per render.
  }, [needRead, needDelivered, last]);
}
