// The navigation of issues 12 and 13 (item 6 of each) in one language, at the 375 px phone with
// Debian's fonts: a member whose identity ops verified logs in by ID number from the login
// screen; the tab bar holds the seven tabs of the spec (home, trade, market, copy trade, mine, news, records),
// each label whole; the trade tab's hub finds a stock and opens the order ticket, lists
// today's orders and fills and sums the holdings; the wallet names why cash is frozen; the
// monthly statement's CSV downloads with a byte-order mark and adds up to the month's cash.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { test } from 'node:test';
import { call, freshTaiwanID, memberWithBalance } from './api.mjs';
import { openApp, screen } from './flows.mjs';
import { DEMO, freshMobile, newPhone, nextResponse, openRoute, proofPng, tid, useFixture, waitHash, waitText, waitToast } from './harness.mjs';
import { TEXTS } from './texts.mjs';

/** The texts checked, written out so that a wrong translation fails here. */
const H = {
  tw: {
    tabs: ['首頁', '交易', '行情', '跟單', '我的', '資訊', '資金紀錄'],
    idTitle: '身分證字號登入',
    phoneTitle: '手機號碼登入',
    hubTitle: '交易',
    openOrder: '委託中的訂單',
    walletTitle: '我的錢包',
    statementTitle: '對帳單',
    csvHeader: '日期時間,類型,單號,幣別,金額,狀態,代號,備註',
    tradesHeader: '日期時間,單號,代號,名稱,買賣,股數,幣別,金額,手續費,交易稅,融資,擔保品,交割日',
    deposit: '儲值',
  },
  en: {
    tabs: ['Home', 'Trade', 'Market', 'Copy', 'Mine', 'News', 'Records'],
    idTitle: 'Log in with your ID number',
    phoneTitle: 'Log in with your phone',
    hubTitle: 'Trade',
    openOrder: 'Open order',
    walletTitle: 'Wallet',
    statementTitle: 'Monthly statement',
    csvHeader: 'Date,Type,Order no.,Currency,Amount,Status,Symbol,Remark',
    tradesHeader: 'Date,Order no.,Symbol,Name,Side,Shares,Currency,Amount,Fee,Tax,Financing,Collateral,Settles on',
    deposit: 'Deposit',
  },
};

/** A member with TWD 5,000,000 and a verified identity of idNumber; resolves with the session. */
async function verifiedWithId(base, member, idNumber) {
  const session = await memberWithBalance(base, member, ['1000000', '1000000', '1000000', '1000000', '1000000']);
  const photo = async () => {
    const form = new FormData();
    form.append('file', new Blob([proofPng()], { type: 'image/png' }), 'id.png');
    return (await call(base, 'POST', '/api/vue/files', { session, form })).id;
  };
  await call(base, 'POST', '/api/vue/user/realname', { session, body: { name: '王小明', idNumber, frontFileId: await photo(), backFileId: await photo() } });
  const ops = await call(base, 'POST', '/api/vue/user/login', { body: { account: DEMO.ops.account, password: DEMO.ops.password } });
  await call(base, 'POST', `/api/vue/ops/realname/${member.account}/approve`, { session: ops, body: {} });
  return session;
}

/** Sums decimal strings to the cent. */
function cents(vs) {
  return vs.reduce((s, v) => {
    const [i, f = ''] = v.replace('-', '').split('.');
    const c = BigInt(i) * 100n + BigInt((f + '00').slice(0, 2));
    return s + (v.startsWith('-') ? -c : c);
  }, 0n);
}

/** Parses our CSV (fields quoted only when needed). */
function parseCsv(text) {
  const rows = [];
  let row = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      row.push(cell);
      cell = '';
    } else if (ch === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i++;
    } else cell += ch;
  }
  return rows;
}

export function hubJourney(lang) {
  const fx = useFixture();
  const L = H[lang];
  test(`login by ID number, seven tabs at 375 px, trading hub, wallet, statement CSV (${lang})`, { timeout: 240_000 }, async (t) => {
    const member = { account: freshMobile(), password: 'Pass1234word' };
    const idNumber = freshTaiwanID();
    const base = fx.server.base;
    const session = await verifiedWithId(base, member, idNumber);
    // One lot bought at market (a fill today) and one resting at the day's limit-down price (an open order).
    const bought = await call(base, 'POST', '/api/vue/trade/orders', { session, body: { symbol: '2330', direction: 'long', type: 'market', lots: 1 } });
    const q = await call(base, 'GET', '/api/vue/market/stocks/2330');
    const resting = await call(base, 'POST', '/api/vue/trade/orders', {
      session,
      body: { symbol: '2330', direction: 'long', type: 'limit', lots: 1, price: q.limitDown },
    });
    assert.equal(resting.status, 'pending', JSON.stringify(resting));

    const { page, context, pageErrors } = await newPhone(fx.browser);
    const step = (name, fn) => t.test(name, fn);
    try {
      await step('login by phone and by ID number are reached from the login screen', async () => {
        await openApp(page, base, lang);
        await openRoute(page, '/login/login');
        await tid(page, 'to-logon').click();
        await waitHash(page, '/login/logon');
        await waitText(page.locator('.auth-title'), L.phoneTitle);
        await screen(page, lang, 'nav-01-logon');
        await tid(page, 'to-logon2').click();
        await waitHash(page, '/login/logon2');
        await waitText(page.locator('.auth-title'), L.idTitle);
        await tid(page, 'login-id-number').fill(idNumber.toLowerCase());
        await tid(page, 'login-password').fill('wrongpass1');
        await tid(page, 'login-agree').check();
        let res = nextResponse(page, 'POST', '/api/vue/user/loginById');
        await tid(page, 'login-submit').click();
        assert.equal((await res).status, 422);
        await waitToast(page, TEXTS[lang].msg.account_or_password_wrong);
        await screen(page, lang, 'nav-02-logon2', { toasts: true });
        await tid(page, 'login-password').fill(member.password);
        res = nextResponse(page, 'POST', '/api/vue/user/loginById');
        await tid(page, 'login-submit').click();
        const ok = await res;
        assert.equal(ok.status, 200, JSON.stringify(ok.body));
        assert.equal(ok.body.data.account, member.account);
        await waitHash(page, '/home/index');
        await tid(page, 'home-page').waitFor();
      });

      await step('the tab bar: seven tabs in the spec order, each label whole at 375 px', async () => {
        const bar = tid(page, 'tab-bar');
        const labels = await bar.locator('.tab-label').allInnerTexts();
        assert.deepEqual(labels, L.tabs);
        const cut = await bar.locator('.tab-item').evaluateAll((els) =>
          els
            .map((el) => {
              const label = el.querySelector('.tab-label');
              const r = label.getBoundingClientRect();
              const box = el.getBoundingClientRect();
              return { text: label.textContent, cut: label.scrollWidth > label.clientWidth + 1 || r.left < box.left - 0.5 || r.right > box.right + 0.5 };
            })
            .filter((x) => x.cut),
        );
        assert.deepEqual(cut, [], 'a tab label does not fit its tab');
        assert.ok((await bar.boundingBox()).width <= 375);
        await screen(page, lang, 'nav-03-tabs');
        await tid(page, 'tab-records').click();
        await waitHash(page, '/user/FundingDetails');
        await tid(page, 'funding-details-page').waitFor();
        assert.match((await tid(page, 'tab-records').getAttribute('class')) ?? '', /navActive/);
      });

      await step("the trade tab: today's orders and fills, holdings, search to the ticket", async () => {
        await tid(page, 'tab-trade').click();
        await waitHash(page, '/trading/trading');
        await tid(page, 'trading-hub-page').waitFor();
        const order = tid(page, 'hub-order').and(page.locator(`[data-order-no="${resting.orderNo}"]`));
        await order.waitFor();
        assert.equal(await order.getAttribute('data-status'), 'pending');
        const fill = tid(page, 'hub-fill').and(page.locator(`[data-order-no="${bought.orderNo}"]`));
        await fill.waitFor();
        await waitText(fill.getByTestId('hub-fill-fee'), /^[1-9][\d,]*\.\d\d$/);
        await waitText(tid(page, 'hub-holding-count'), '1');
        assert.notEqual(await tid(page, 'hub-market-value').innerText(), '0.00');
        await screen(page, lang, 'nav-04-hub');
        await tid(page, 'hub-search').locator('input').fill('2330');
        const result = tid(page, 'hub-result').and(page.locator('[data-symbol="2330"]'));
        await result.waitFor();
        await screen(page, lang, 'nav-05-hub-search');
        await result.getByTestId('hub-buy').click();
        await waitHash(page, '/market/marketBuy?symbol=2330&side=buy');
        await tid(page, 'ticket-page').waitFor();
        await tid(page, 'tab-trade').count(); // the ticket is no tab root
        await openRoute(page, '/trading/trading');
        await tid(page, 'hub-to-positions').click();
        await waitHash(page, '/position/position');
      });

      await step('every home shortcut opens a screen without error; withdraw, day trading and the order box among them', async () => {
        await openRoute(page, '/home/index');
        await tid(page, 'home-page').waitFor();
        const keys = await page
          .locator('[data-testid^="shortcut-"]')
          .filter({ visible: true })
          .evaluateAll((els) => els.map((el) => el.getAttribute('data-testid').slice('shortcut-'.length)));
        for (const k of ['deposit', 'withdraw', 'fundRecords', 'dayTrading', 'orderBox']) assert.ok(keys.includes(k), `shortcut ${k} in ${keys}`);
        await screen(page, lang, 'nav-05b-shortcuts');
        for (const k of keys) {
          await openRoute(page, '/home/index');
          await tid(page, 'home-page').waitFor();
          await tid(page, `shortcut-${k}`).click();
          await page.waitForFunction(() => location.hash !== '#/home/index', null, { polling: 50 });
          await page.locator('.page').filter({ visible: true }).first().waitFor();
          await page.waitForLoadState('networkidle').catch(() => {});
          const hash = await page.evaluate(() => location.hash);
          assert.equal(await page.getByTestId('not-found').filter({ visible: true }).count(), 0, `shortcut ${k} (${hash}) opens no screen`);
          assert.equal(await page.getByTestId('route-error').filter({ visible: true }).count(), 0, `shortcut ${k} (${hash}) fails`);
          assert.deepEqual(pageErrors.map(String), [], `shortcut ${k} (${hash}) throws`);
        }
        await openRoute(page, '/home/index');
        await tid(page, 'shortcut-dayTrading').click();
        await waitHash(page, '/common/dayTrading');
        await tid(page, 'day-trading-page').waitFor();
        await screen(page, lang, 'nav-05c-day-trading');
        await openRoute(page, '/home/index');
        await tid(page, 'shortcut-orderBox').click();
        await waitHash(page, '/trading/trading');
        await tid(page, 'trading-hub-page').waitFor();
        await openRoute(page, '/home/index');
        await tid(page, 'shortcut-withdraw').click();
        await waitHash(page, '/user/withdraw');
      });

      await step('the wallet: frozen cash and why, ways to move money', async () => {
        await openRoute(page, '/user/usercenter');
        await tid(page, 'menu-wallet').click();
        await waitHash(page, '/wallet/index');
        const twd = tid(page, 'wallet-TWD');
        await twd.waitFor();
        const hold = twd.getByTestId('wallet-hold').and(page.locator(`[data-ref="${resting.orderNo}"]`));
        await hold.waitFor();
        assert.equal(await hold.getAttribute('data-reason'), 'trade');
        await waitText(hold.getByTestId('wallet-hold-reason'), L.openOrder);
        assert.equal(await twd.getAttribute('data-frozen'), await hold.getAttribute('data-amount'));
        await screen(page, lang, 'nav-06-wallet');
        await tid(page, 'wallet-exchange').click();
        await waitHash(page, '/user/exchange');
        await tid(page, 'exchange-page').waitFor();
      });

      await step('the monthly statement: lines, fills and CSV exports that add up', async () => {
        await openRoute(page, '/user/usercenter');
        await tid(page, 'menu-statement').click();
        await waitHash(page, '/user/pj');
        await tid(page, 'stmt-trades').getByTestId('stmt-trade').first().waitFor();
        const cash = tid(page, 'stmt-cash').getByTestId('stmt-cash-TWD');
        const opening = await cash.getAttribute('data-opening');
        const closing = await cash.getAttribute('data-closing');
        await screen(page, lang, 'nav-07-statement');

        const got = page.waitForEvent('download');
        await tid(page, 'stmt-csv-funds').click();
        const dl = await got;
        assert.match(dl.suggestedFilename(), /^statement-\d{4}-\d{2}-funds\.csv$/);
        const text = await readFile(await dl.path(), 'utf8');
        assert.equal(text.charCodeAt(0), 0xfeff, 'the CSV starts with a byte-order mark');
        const rows = parseCsv(text.slice(1));
        assert.equal(rows[0].join(','), L.csvHeader);
        const amounts = rows.slice(1).filter((r) => r[3] === 'TWD' && !/^(pending|rejected|待審核|已拒絕|Pending|Rejected)$/.test(r[5])).map((r) => r[4]);
        assert.equal(cents([opening, ...amounts]), cents([closing]), 'opening plus the lines is closing');
        assert.ok(rows.some((r) => r[1] === L.deposit), 'the deposits are listed');

        const got2 = page.waitForEvent('download');
        await tid(page, 'stmt-csv-trades').click();
        const trades = parseCsv((await readFile(await (await got2).path(), 'utf8')).slice(1));
        assert.equal(trades[0].join(','), L.tradesHeader);
        const row = trades.find((r) => r[1] === bought.orderNo);
        assert.ok(row, 'the fill is in the trades CSV');
        assert.equal(row[2], '2330');
        assert.equal(row[5], '1000');
        assert.ok(Number(row[8]) < 0, `the fee is a charge: ${row[8]}`);
      });
    } finally {
      await context.close();
    }
  });
}
