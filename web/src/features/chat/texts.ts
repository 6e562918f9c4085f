import { lazyTexts, useScopedT, type Leaves } from '@/lib/i18n/lazy';

// Customer service chat's texts, under chat., loaded with its screens (lib/i18n/lazy.ts).

const tw = {
  title: '客服',
  opsTitle: '客服對話',
  placeholder: '輸入訊息…',
  send: '發送',
  image: '傳送圖片',
  memberTyping: '會員正在輸入…',
  opsTyping: '客服正在輸入…',
  sent: '已送出',
  delivered: '已送達',
  read: '已讀',
  unread: '{{count}} 則未讀訊息',
  empty: '有任何問題，請留言給我們，客服會在這裡回覆您。',
  closed: '本次對話已結束；再發送訊息即可重新開始。',
  closedBy: '已由 {{by}} 結束對話',
  close: '結束對話',
  closeConfirm: '確定結束此對話？會員再發送訊息時會重新開啟。',
  open: '進行中',
  closedTab: '已結束',
  service: '客服',
  answeredBy: '客服 {{by}}',
  member: '會員',
  imageMessage: '[圖片]',
  earlier: '載入更早的訊息',
};

type ChatMessages = typeof tw;

const en: ChatMessages = {
  title: 'Customer service',
  opsTitle: 'Customer chats',
  placeholder: 'Type a message…',
  send: 'Send',
  image: 'Send an image',
  memberTyping: 'The member is typing…',
  opsTyping: 'Customer service is typing…',
  sent: 'Sent',
  delivered: 'Delivered',
  read: 'Read',
  unread: '{{count}} unread',
  empty: 'Ask us anything: customer service answers you here.',
  closed: 'This conversation was closed; send a message to start again.',
  closedBy: 'Closed by {{by}}',
  close: 'Close',
  closeConfirm: 'Close this conversation? It opens again when the member writes.',
  open: 'Open',
  closedTab: 'Closed',
  service: 'Customer service',
  answeredBy: 'Service {{by}}',
  member: 'Member',
  imageMessage: '[Image]',
  earlier: 'Load earlier messages',
};

export const ensureChatTexts = lazyTexts('chat', tw, en);

export type ChatKey = Leaves<ChatMessages>;

/** t for chat's texts. */
export function useChatT() {
  return useScopedT<ChatKey>('chat', ensureChatTexts);
}

export const chatTexts = { tw, en };
