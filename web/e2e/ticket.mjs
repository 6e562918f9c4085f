// Issue 14's order ticket in Taiwan terms, in one language, at the phone viewport: a member places
// each trade condition (現股, 融資, 融券, 現股當沖 buying first and selling first) in the regular
// session with each time in force, reading the broker's confirmation (symbol, side, condition,
// session, quantity with its unit, price, estimated amount, fee, tax, a day trade's offset); reads
// the day-trade rules on the rules screen; places an intraday odd lot that stays pending until its
// 5-second call auction matches it; and places orders in the after-hours sessions, which the demo
// market takes around the clock (the ticket says so) and auctions every minute: the after-hours
// odd lot at the limit-up price is matched in the next minute's auction, 盤後定價 is taken at the
// last price. The exchange's hours (13:40/14:00–14:30, one auction at 14:30) are tested over HTTP
// with a controlled clock (api/ticket_scenario_test.go).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { login, openApp, screen } from './flows.mjs';
import { call, memberWithBalance } from './api.mjs';
import { dialogButton, freshMobile, nextResponse, openRoute, tid, useFixture, waitHash, waitText } from './harness.mjs';

/** The texts these screens show, written out so that a wrong translation fails here. */
const X = {
  tw: {
    place: '確認下單',
    buy: '買進',
    sell: '賣出',
    cond: { cash: '現股', margin: '融資', short: '融券', day_trade: '現股當沖' },
    dt: { buy: '現股當沖・先買後賣', sell: '現股當沖・先賣後買' },
    offset: { buy: '今日賣出 1 張；13:25 仍未沖銷者以市價賣出', sell: '今日買回 1 張；13:25 仍未買回者以市價買回' },
    rulesClose: /先賣者買回/,
    sess: { regular: '整股', odd_intraday: '盤中零股', odd_after_hours: '盤後零股', fixed_price: '盤後定價' },
    lots: '張',
    shares: '股',
    demoHint: { odd_after_hours: '示範環境：全天接受委託，每 1 分鐘集合競價一次', fixed_price: '示範環境：全天以最新成交價接受委託，每 1 分鐘撮合一次' },
  },
  en: {
    place: 'Place order',
    buy: 'Buy',
    sell: 'Sell',
    cond: { cash: 'Cash', margin: 'Margin buy', short: 'Short sale', day_trade: 'Day trade' },
    dt: { buy: 'Day trade · Buy first', sell: 'Day trade · Sell first' },
    offset: { buy: 'Sell 1 lots today; sold at market if still open at 13:25', sell: 'Buy back 1 lots today; bought back at market if still open at 13:25' },
    rulesClose: /sold first, it is bought back/,
    sess: { regular: 'Board lot', odd_intraday: 'Intraday odd lot', odd_after_hours: 'After-hours odd lot', fixed_price: 'After-hours fixed price' },
    lots: 'lots',
    shares: 'shares',
    demoHint: {
      odd_after_hours: 'Demo: orders around the clock, a call auction every 1 min',
      fixed_price: 'Demo: orders around the clock at the last price, matched every 1 min',
    },
  },
};
const MONEY = /^-?[\d,]+\.\d{2}$/;
const SYMBOL = '2603';

export function ticketJourney(lang) {
  const T = X[lang];
  const member = { account: freshMobile(), password: 'Pass1234word' };
  const fx = useFixture({ phone: true });

  test(`ticket: each condition, session and time in force; odd lots in their call auctions (${lang})`, { timeout: 300_000 }, async (t) => {
    const { page } = fx.phone;
    const step = (name, fn) => fx.step(t, `${lang}-ticket-${name}`, page, fn);
    let session;

    const openTicket = async () => {
      await openRoute(page, `/market/marketBuy?symbol=${SYMBOL}&side=buy`);
      await tid(page, 'ticket-page').waitFor();
      await waitText(tid(page, 'est-marketValue'), MONEY);
    };
    // Sends the ticket as it stands and reads the confirmation before placing it.
    const confirmAndPlace = async (want) => {
      await tid(page, 'ticket-submit').click();
      await tid(page, 'ticket-confirm').waitFor();
      await waitText(tid(page, 'confirm-side'), want.side);
      await waitText(tid(page, 'confirm-condition'), want.condition);
      await waitText(tid(page, 'confirm-session'), want.session);
      await waitText(tid(page, 'confirm-quantity'), want.quantity);
      if (want.offset) await waitText(tid(page, 'confirm-offset'), want.offset);
      for (const id of ['confirm-amount', 'confirm-fee', 'confirm-tax']) await waitText(tid(page, id), MONEY);
      if (want.shot) await screen(page, lang, want.shot);
      const placed = nextResponse(page, 'POST', '/api/vue/trade/orders');
      await dialogButton(page, T.place);
      return placed;
    };

    // The member's order once it reaches status, or as it stands when within ms it has not.
    const orderWhen = async (orderNo, status, ms) => {
      const deadline = Date.now() + ms;
      for (;;) {
        const p = await call(fx.server.base, 'GET', '/api/vue/trade/orders?status=all', { session });
        const o = p.items.find((x) => x.orderNo === orderNo);
        if (o?.status === status || Date.now() > deadline) return o;
        await new Promise((r) => setTimeout(r, 500));
      }
    };
    // The order's row on its position's detail (an opening order names its position): the ticket
    // in the member's terms and the filled quantity.
    const seeFilled = async (orderNo, ticket, filled, shot) => {
      await openRoute(page, `/position/positionDetail?id=${orderNo}`);
      const row = tid(page, 'pd-order').and(page.locator(`[data-order-no="${orderNo}"]`));
      await row.waitFor();
      assert.equal(await row.getAttribute('data-status'), 'filled');
      await waitText(row.getByTestId('pd-order-ticket'), ticket);
      await waitText(row.getByTestId('pd-order-filled'), filled);
      await screen(page, lang, shot);
    };

    await step('log in', async () => {
      session = await memberWithBalance(fx.server.base, member, ['1000000', '1000000', '1000000']);
      await openApp(page, fx.server.base, lang);
      await tid(page, 'welcome-login').click();
      await login(page, lang, member.account, member.password);
    });

    const regular = [
      { cond: 'cash', tif: 'IOC' },
      { cond: 'margin', tif: 'FOK' },
      { cond: 'short', tif: 'ROD' },
      { cond: 'day_trade', tif: 'ROD', way: 'buy' },
      { cond: 'day_trade', tif: 'ROD', way: 'sell' },
    ];
    for (const { cond, tif, way } of regular) {
      await step(`regular ${cond}${way ? ` ${way} first` : ''} ${tif}`, async () => {
        await openTicket();
        await tid(page, `ticket-cond-${cond}`).click();
        if (way) {
          await tid(page, `ticket-dt-${way}`).click();
          await waitText(tid(page, 'ticket-dt-hint'), /13:25/);
        }
        await waitText(tid(page, 'ticket-unit'), T.lots);
        await tid(page, 'ticket-market').click();
        await tid(page, `ticket-tif-${tif}`).click();
        await tid(page, 'ticket-qty').fill('1');
        if (cond === 'margin') await waitText(tid(page, 'ticket-leverage'), /2\.5/);
        if (cond === 'short') await waitText(tid(page, 'ticket-leverage'), /1\.11/);
        const res = await confirmAndPlace({
          side: cond === 'short' || way === 'sell' ? T.sell : T.buy,
          condition: way ? T.dt[way] : T.cond[cond],
          offset: way ? T.offset[way] : undefined,
          session: `${T.sess.regular} · ${tif}`,
          quantity: `1 ${T.lots}`,
          shot: cond === 'cash' ? 'ticket-01-confirm' : way === 'sell' ? 'ticket-01b-sell-first-confirm' : undefined,
        });
        assert.equal(res.status, 200, JSON.stringify(res.body));
        if (way === 'sell') {
          const o = (await call(fx.server.base, 'GET', '/api/vue/trade/orders?status=all', { session })).items.find((x) => x.orderNo === res.body.data.orderNo);
          assert.ok(o && o.side === 'sell' && o.dayTrade && o.condition === 'day_trade', JSON.stringify(o));
        }
        assert.ok(['filled', 'cancelled', 'partial'].includes(res.body.data.status), JSON.stringify(res.body));
        await waitHash(page, '/position/position');
      });
    }

    // The after-hours odd lot goes first: its auction is a minute away at most, which the steps
    // between use.
    const afterHours = {};
    for (const sess of ['odd_after_hours', 'fixed_price']) {
      await step(`${sess} taken around the clock in the demo`, async () => {
        const q = await call(fx.server.base, 'GET', `/api/vue/market/stocks/${SYMBOL}`);
        assert.equal(q.session.afterHoursAuctionEvery, 60, JSON.stringify(q.session));
        await openTicket();
        await tid(page, `ticket-sess-${sess}`).click();
        const odd = sess === 'odd_after_hours';
        await waitText(tid(page, 'ticket-unit'), odd ? T.shares : T.lots);
        await waitText(tid(page, 'ticket-session-hint'), T.demoHint[sess]);
        if (odd) await tid(page, 'ticket-price').fill(q.limitUp);
        else await waitText(tid(page, 'ticket-close-price'), /^[\d,.]+$/);
        await tid(page, 'ticket-qty').fill(odd ? '10' : '1');
        if (!odd) await screen(page, lang, 'ticket-04-fixed-price');
        const res = await confirmAndPlace({
          side: T.buy,
          condition: T.cond.cash,
          session: `${T.sess[sess]} · ROD`,
          quantity: odd ? `10 ${T.shares}` : `1 ${T.lots}`,
        });
        assert.equal(res.status, 200, JSON.stringify(res.body));
        // Not matched at entry: in its session's next auction.
        assert.equal(res.body.data.status, 'pending', JSON.stringify(res.body));
        afterHours[sess] = res.body.data.orderNo;
        await waitHash(page, '/position/position');
      });
    }

    await step('the rules screen explains selling first', async () => {
      await openTicket();
      await tid(page, 'ticket-rules').click();
      await tid(page, 'rules-day-trade').waitFor();
      await waitText(tid(page, 'rules-day-trade-tax'), /0\.15 %/);
      await waitText(tid(page, 'rules-day-trade-close'), T.rulesClose);
      await screen(page, lang, 'ticket-04-day-trade-rules');
    });

    let oddNo;
    await step('intraday odd lot waits for its call auction', async () => {
      const q = await call(fx.server.base, 'GET', `/api/vue/market/stocks/${SYMBOL}`);
      await openTicket();
      await tid(page, 'ticket-sess-odd_intraday').click();
      await waitText(tid(page, 'ticket-unit'), T.shares);
      assert.equal(await tid(page, 'ticket-market').count(), 0, 'odd lots take limit orders only');
      assert.equal(await tid(page, 'ticket-cond-margin').count(), 0, 'odd lots trade for cash only');
      await tid(page, 'ticket-qty').fill('10');
      await tid(page, 'ticket-price').fill(q.limitUp);
      await screen(page, lang, 'ticket-02-odd-lot');
      const res = await confirmAndPlace({ side: T.buy, condition: T.cond.cash, session: `${T.sess.odd_intraday} · ROD`, quantity: `10 ${T.shares}` });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.body.data.status, 'pending', 'an odd lot is not matched at entry');
      oddNo = res.body.data.orderNo;
      await waitHash(page, '/position/position');
    });

    await step('the intraday auction matches it within seconds', async () => {
      const o = await orderWhen(oddNo, 'filled', 30_000);
      assert.equal(o?.status, 'filled', JSON.stringify(o));
      assert.equal(o.session, 'odd_intraday');
      await seeFilled(oddNo, `${T.cond.cash} · ${T.sess.odd_intraday} · ROD`, '10 / 10', 'ticket-03-odd-lot-filled');
    });

    await step('the after-hours auction of the minute matches the after-hours odd lot', async () => {
      const no = afterHours.odd_after_hours;
      const o = await orderWhen(no, 'filled', 75_000);
      assert.equal(o?.status, 'filled', JSON.stringify(o));
      assert.equal(o.session, 'odd_after_hours');
      await seeFilled(no, `${T.cond.cash} · ${T.sess.odd_after_hours} · ROD`, '10 / 10', 'ticket-05-after-hours-filled');
      // 盤後定價 is listed in the member's orders with its session, at the last price of its entry,
      // working until an auction's last price reaches it (or filled already).
      const p = await call(fx.server.base, 'GET', '/api/vue/trade/orders?status=all', { session });
      const fixed = p.items.find((x) => x.orderNo === afterHours.fixed_price);
      assert.equal(fixed?.session, 'fixed_price', JSON.stringify(fixed));
      assert.ok(['pending', 'filled'].includes(fixed.status), JSON.stringify(fixed));
    });
  });
}
