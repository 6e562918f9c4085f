// Issue 13's customer service chat in one language, at the phone viewport, with two phones open at
// once: a new member reaches online service from the welcome screen's contact us (through login)
// and from home's shortcut, writes text and sends an image; ops, on the other phone, sees the
// conversation unread in their queue, opens it (the image shows, the member's ticks turn read),
// sees the member typing, and answers; the answer reaches the member's open screen over the
// socket. Ops answer with an image while the member is away: mine's item and home's shortcuts
// badge the unread count, and the member sees the image. Then ops close it and the member's
// screen says so.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { login, openApp, screen } from './flows.mjs';
import { call } from './api.mjs';
import { DEMO, dialogButton, freshMobile, imageShown, newPhone, nextResponse, openRoute, proofPng, tid, title, useFixture, waitHash, waitText } from './harness.mjs';

/** The texts these screens show, written out so that a wrong translation fails here. */
const C = {
  tw: {
    onlineService: '在線客服',
    shortcut: '客服',
    title: '客服',
    opsTitle: '客服對話',
    read: '已讀',
    memberTyping: '會員正在輸入…',
    unread: '1 則未讀訊息',
    question: '您好，我的入金還沒到帳',
    answer: '已收到您的截圖，正在為您確認。',
    close: '結束對話',
    closedBy: '已由 ops 結束對話',
    closed: '本次對話已結束；再發送訊息即可重新開始。',
  },
  en: {
    onlineService: 'Online service',
    shortcut: 'Customer service',
    title: 'Customer service',
    opsTitle: 'Customer chats',
    read: 'Read',
    memberTyping: 'The member is typing…',
    unread: '1 unread',
    question: 'Hello, my deposit has not arrived',
    answer: 'We have your screenshot and are checking it.',
    close: 'Close',
    closedBy: 'Closed by ops',
    closed: 'This conversation was closed; send a message to start again.',
  },
};

/** The demo conversation's last message (ops/seed/seed_chat.go), data in the queue, not app text. */
const DEMO_LAST = '不客氣，有任何問題歡迎隨時詢問。';


export function chatJourney(lang) {
  const X = C[lang];
  const member = { account: freshMobile(), password: 'Pass1234word' };
  const fx = useFixture();

  test(`a chat round trip with an image (${lang})`, { timeout: 180_000 }, async (t) => {
    const m = await newPhone(fx.browser);
    const o = await newPhone(fx.browser);
    const step = (name, page, fn) => fx.step(t, `${lang}-chat-${name}`, page, fn);
    const mp = m.page;
    const op = o.page;

    await step('contact us leads to online service', mp, async () => {
      await call(fx.server.base, 'POST', '/api/vue/user/register', {
        body: { account: member.account, password: member.password, confirmPassword: member.password, inviteCode: 'LOTBOOK' },
      });
      await openApp(mp, fx.server.base, lang);
      await tid(mp, 'welcome-contact').click();
      await dialogButton(mp, X.onlineService);
      // No session yet: online service asks to log in first.
      await waitHash(mp, '/login/login');
      // After logging in the member lands where they were going: online service.
      await login(mp, lang, member.account, member.password, { hash: '/chat', testId: 'chat-page' });
      await openRoute(mp, '/home/index');
      await waitText(tid(mp, 'shortcut-customerService'), X.shortcut);
      await waitText(tid(mp, 'shortcut-onlineService'), X.onlineService);
      await tid(mp, 'shortcut-onlineService').click();
      await waitHash(mp, '/chat');
      await title(mp, X.title);
      await tid(mp, 'chat-thread').waitFor();
      await screen(mp, lang, 'chat-01-empty');
    });

    await step('ops open their queue', op, async () => {
      await openApp(op, fx.server.base, lang);
      await tid(op, 'welcome-login').click();
      await login(op, lang, DEMO.ops.account, DEMO.ops.password, { hash: '/ops/console', testId: 'ops-console-page' });
      await openRoute(op, '/home/index');
      await tid(op, 'shortcut-opsChats').click();
      await waitHash(op, '/ops/chats');
      await title(op, X.opsTitle);
      await tid(op, 'ops-chats-open').waitFor();
    });

    await step('the member writes and sends an image', mp, async () => {
      await tid(mp, 'chat-input').locator('textarea:not([aria-hidden])').fill(X.question);
      const sent = nextResponse(mp, 'POST', '/api/vue/chat/messages');
      await tid(mp, 'chat-send').click();
      assert.equal((await sent).status, 200);
      await waitText(tid(mp, 'chat-message-1').locator('.chat-text'), X.question);
      const up = nextResponse(mp, 'POST', '/api/vue/files');
      const img = nextResponse(mp, 'POST', '/api/vue/chat/messages');
      await mp.locator('[data-testid=chat-image-input]').setInputFiles({ name: 'receipt.png', mimeType: 'image/png', buffer: proofPng(120, 90) });
      assert.equal((await up).status, 200);
      assert.equal((await img).status, 200);
      await imageShown(mp, tid(mp, 'chat-image-2'));
      await screen(mp, lang, 'chat-02-member-sent', { userText: [X.question] });
    });

    await step('ops see it unread, open it and answer', op, async () => {
      // The queue reads again when the socket pushes the member's messages.
      const row = tid(op, `ops-chat-${member.account}`);
      await waitText(row.getByTestId(`ops-chat-unread-${member.account}`), '2');
      await screen(op, lang, 'chat-03-ops-queue', { userText: [X.question, DEMO_LAST] });
      await row.click();
      await waitHash(op, `/ops/chats/${member.account}`);
      await waitText(tid(op, 'chat-message-1').locator('.chat-text'), X.question);
      await imageShown(op, tid(op, 'chat-image-2'));
      // Ops read both: the member's ticks turn read on the member's open screen.
      await waitText(tid(mp, 'chat-tick-2'), X.read);
      await waitText(tid(mp, 'chat-tick-1'), X.read);
      // The member types; ops see it.
      await tid(mp, 'chat-input').locator('textarea:not([aria-hidden])').fill('…');
      await waitText(tid(op, 'chat-typing'), X.memberTyping);
      await tid(mp, 'chat-input').locator('textarea:not([aria-hidden])').fill('');
      await tid(op, 'chat-input').locator('textarea:not([aria-hidden])').fill(X.answer);
      const sent = nextResponse(op, 'POST', `/api/vue/ops/chats/${member.account}/messages`);
      await tid(op, 'chat-send').click();
      assert.equal((await sent).status, 200);
      await waitText(tid(op, 'chat-message-3').locator('.chat-text'), X.answer);
      await screen(op, lang, 'chat-04-ops-conversation', { userText: [X.question, X.answer] });
    });

    await step('the answer reaches the member live, and is read', mp, async () => {
      await waitText(tid(mp, 'chat-message-3').locator('.chat-text'), X.answer);
      await waitText(tid(op, 'chat-tick-3'), X.read);
      await screen(mp, lang, 'chat-05-member-answered', { userText: [X.question, X.answer] });
    });

    await step('ops answer with an image; the member sees it unread on the ways in', mp, async () => {
      // Ops send an image while the member is elsewhere; mine and home badge it before the
      // member opens the chat, and back on the screen a divider counts it and the image shows.
      await tid(mp, 'chat-page').locator('.adm-nav-bar-back').click();
      await waitHash(mp, '/home/index');
      const up = nextResponse(op, 'POST', '/api/vue/files');
      const sent = nextResponse(op, 'POST', `/api/vue/ops/chats/${member.account}/messages`);
      await op.locator('[data-testid=chat-image-input]').setInputFiles({ name: 'steps.png', mimeType: 'image/png', buffer: proofPng(100, 80) });
      assert.equal((await up).status, 200);
      assert.equal((await sent).status, 200);
      await imageShown(op, tid(op, 'chat-image-4'));
      await tid(mp, 'tab-mine').click();
      await waitText(tid(mp, 'badge-customer-service'), '1');
      await tid(mp, 'tab-home').click();
      await waitText(tid(mp, 'badge-customerService'), '1');
      await waitText(tid(mp, 'badge-onlineService'), '1');
      await screen(mp, lang, 'chat-05b-home-badge');
      await tid(mp, 'shortcut-customerService').click();
      await waitHash(mp, '/chat');
      await waitText(tid(mp, 'chat-unread'), X.unread);
      await imageShown(mp, tid(mp, 'chat-image-4'));
      await waitText(tid(op, 'chat-tick-4'), X.read);
    });

    await step('ops close the conversation', op, async () => {
      await tid(op, 'ops-chat-close').click();
      const closed = nextResponse(op, 'POST', `/api/vue/ops/chats/${member.account}/close`);
      await dialogButton(op, X.close);
      assert.equal((await closed).status, 200);
      await waitText(tid(op, 'chat-closed'), X.closedBy);
      await waitText(tid(mp, 'chat-closed'), X.closed);
      await screen(mp, lang, 'chat-06-member-closed', { userText: [X.question, X.answer] });
      assert.deepEqual([...m.pageErrors, ...o.pageErrors], []);
    });
    await m.context.close();
    await o.context.close();
  });
}
