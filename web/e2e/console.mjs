// Issue 13.1 in one language, at the phone viewport: a production deployment from nothing. A
// fresh server WITHOUT --demo; the operator makes the first ops user with the command line; that
// user, only through the ops console, creates an invite code and a deposit channel with its
// payee; a member registers with the code and sees the payee on the deposit screen.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { login, openApp, screen, submitRegister } from './flows.mjs';
import { freshMobile, launchBrowser, newPhone, nextResponse, openRoute, runCli, startServer, tid, waitHash, waitText, waitToast } from './harness.mjs';

/** The texts these screens show, written out so that a wrong translation fails here. */
const C = {
  tw: {
    created: (code) => `已建立邀請碼 ${code}`,
    saved: '已儲存',
    queueDeposits: '儲值審核',
    payeeTitle: '匯款帳戶',
    channelName: '臨櫃匯款',
    payee: { bank: '台灣銀行', branch: '館前分行', account: '004-12345678', name: '樂簿股份有限公司' },
    inviterMissing: '邀請人不存在',
  },
  en: {
    created: (code) => `Invite code ${code} created`,
    saved: 'Saved',
    queueDeposits: 'Deposits',
    payeeTitle: 'Transfer to',
    channelName: 'Wire transfer',
    payee: { bank: 'Bank of Taiwan', branch: 'Guanqian branch', account: '004-87654321', name: 'Lotbook Ltd' },
    inviterMissing: 'The inviter does not exist',
  },
};

export function consoleJourney(lang) {
  const L = C[lang];
  const fx = {};
  before(async () => {
    fx.server = await startServer({ demo: false });
    fx.browser = await launchBrowser();
  });
  after(async () => {
    await fx.browser?.close().catch(() => {});
    await fx.server?.stop();
  });

  test(`a deployment from nothing, set up in the ops console (${lang})`, { timeout: 180_000 }, async (t) => {
    const stamp = Date.now().toString(36).toUpperCase().slice(-6);
    const code = `GO${stamp}`;
    const channelId = `wire-${stamp.toLowerCase()}`;
    const staff = { account: `chief${stamp.toLowerCase()}`, password: 'opsfirst1' };
    const member = { account: freshMobile(), password: 'member123' };
    const ops = await newPhone(fx.browser);
    const guest = await newPhone(fx.browser);

    await t.test('the command line makes the first ops user', async () => {
      const out = await runCli(['user', 'add', '--role', 'ops', staff.account, '--password-stdin'], { data: fx.server.data, stdin: `${staff.password}\n` });
      assert.match(out, new RegExp(`ops user ${staff.account} added`));
    });

    await t.test('nobody can register before ops make a code', async () => {
      const page = guest.page;
      await openApp(page, fx.server.base, lang);
      await openRoute(page, '/login/register');
      const res = await submitRegister(page, { ...member, invite: code });
      assert.equal(res.status, 422, JSON.stringify(res.body));
      assert.equal(res.body.msg, 'inviter_not_exist');
      await waitToast(page, L.inviterMissing);
    });

    await t.test('ops open the console: every queue, all empty', async () => {
      const page = ops.page;
      await openApp(page, fx.server.base, lang);
      await login(page, lang, staff.account, staff.password, { hash: '/ops/console', testId: 'ops-console-page' });
      await waitHash(page, '/ops/console');
      await tid(page, 'ops-console-page').waitFor();
      await waitText(tid(page, 'queue-deposits'), new RegExp(`^${L.queueDeposits}\\s*0$`));
      for (const id of ['withdrawals', 'realname', 'blockApplications', 'chats', 'newsDrafts']) await tid(page, `queue-${id}-count`).waitFor();
      await screen(page, lang, 'console-01-home');
    });

    await t.test('ops create the invite code', async () => {
      const page = ops.page;
      await tid(page, 'console-nav-invites').click();
      await waitHash(page, '/ops/invites');
      await tid(page, 'invite-code').fill(code.toLowerCase());
      const created = nextResponse(page, 'POST', '/api/vue/ops/invites');
      await tid(page, 'invite-create').click();
      const res = await created;
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.body.data.code, code);
      await waitToast(page, L.created(code));
      await page.locator(`[data-testid=ops-invite][data-code=${code}][data-disabled=false]`).waitFor();
      await screen(page, lang, 'console-02-invites', { userText: [code] });
    });

    await t.test('ops define the deposit channel with its payee', async () => {
      const page = ops.page;
      await tid(page, 'console-nav-channels').click();
      await waitHash(page, '/ops/channels');
      await tid(page, 'channel-new').click();
      await tid(page, 'channel-id').fill(channelId);
      await tid(page, 'channel-name').fill(L.channelName);
      await tid(page, 'channel-min').fill('1000');
      await tid(page, 'channel-max').fill('500000');
      // Open around the clock, so that the test passes at any hour.
      await tid(page, 'channel-alwaysOpen').check();
      await tid(page, 'channel-password').fill('chan9876');
      await tid(page, 'channel-bank').fill(L.payee.bank);
      await tid(page, 'channel-branch').fill(L.payee.branch);
      await tid(page, 'channel-account').fill(L.payee.account);
      await tid(page, 'channel-holder').fill(L.payee.name);
      const saved = nextResponse(page, 'POST', '/api/vue/ops/channels');
      await tid(page, 'channel-save').click();
      const res = await saved;
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.deepEqual(res.body.data.payee, L.payee);
      await waitToast(page, L.saved);
      await page.locator(`[data-testid=ops-channel][data-id=${channelId}][data-enabled=true]`).waitFor();
      await screen(page, lang, 'console-03-channels', { userText: [channelId] });
    });

    await t.test('the history names who changed what', async () => {
      const page = ops.page;
      await tid(page, 'console-nav-changes').click();
      await waitHash(page, '/ops/changes');
      const change = page.locator(`[data-testid=config-change][data-kind=deposit_channel][data-subject=${channelId}]`);
      await change.waitFor();
      await waitText(change.getByTestId('config-change-actor'), `ops:${staff.account}`);
      assert.doesNotMatch(await change.innerText(), /argon2|chan9876/, 'the history never shows the channel password or its hash');
      await page.locator(`[data-testid=config-change][data-kind=invite_created][data-subject=${code}]`).waitFor();
    });

    await t.test('a member registers with the code and sees where to transfer', async () => {
      const page = guest.page;
      await openRoute(page, '/login/register');
      const res = await submitRegister(page, { ...member, invite: code });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      await waitHash(page, '/home/index');
      await openRoute(page, `/user/rechargeChannel?id=${channelId}`);
      const box = tid(page, 'payee');
      await box.waitFor();
      await waitText(box.locator('strong').first(), L.payeeTitle);
      await waitText(tid(page, 'payee-bank'), L.payee.bank);
      await waitText(tid(page, 'payee-branch'), L.payee.branch);
      await waitText(tid(page, 'payee-account'), L.payee.account);
      await waitText(tid(page, 'payee-name'), L.payee.name);
      await screen(page, lang, 'console-04-deposit-payee');
    });

    await t.test('ops see the member under the code', async () => {
      const page = ops.page;
      await tid(page, 'console-nav-invites').click();
      await waitHash(page, '/ops/invites');
      const item = page.locator(`[data-testid=ops-invite][data-code=${code}]`);
      await item.getByTestId('invite-uses-toggle').click();
      await waitText(item.getByTestId('invite-uses').locator('li').first(), new RegExp(`^${member.account}`));
    });
  });
}
