// Issue 11's IPO auction at the phone viewport, in both languages: ops list an auction open now;
// a verified member with money opens it from home's shortcut, types a price and lots, sees the
// deposit the bid freezes, confirms, and sees the bid waiting for the award on the detail screen
// and in the bid records; a bid over the per-bidder cap is refused on the screen.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { login, openApp, screen } from './flows.mjs';
import { call, verifiedMember } from './api.mjs';
import { dialogButton, freshMobile, newPhone, nextResponse, openRoute, tid, useFixture, waitHash, waitText, waitToast } from './harness.mjs';

/** The texts these screens show, written out so that a wrong translation fails here. */
const X = {
  tw: { shortcut: '競價拍賣', open: '投標中', bid: '投標', placed: '投標成功', waiting: '待開標', deposit: '凍結保證金 NT$9,000.00', capped: '超過每人可申請張數上限', notRevealed: '開標時公開' },
  en: { shortcut: 'IPO auction', open: 'Bidding', bid: 'Bid', placed: 'Bid placed', waiting: 'Awaiting award', deposit: 'Deposit frozen NT$9,000.00', capped: 'More lots than one member may apply for in all', notRevealed: 'Revealed at the award' },
};
/** The code each language's auction is of (one auction per code and opening day). */
const CODE = { tw: '1216', en: '1301' };

/** A date in Taipei days from now. */
function taipeiDate(days) {
  return new Date(Date.now() + 8 * 3600_000 + days * 86_400_000).toISOString().slice(0, 10);
}

const fx = useFixture();

for (const lang of ['tw', 'en']) {
  test(`auction bid (${lang})`, { timeout: 180_000 }, async (t) => {
    const T = X[lang];
    const member = { account: freshMobile(), password: 'Pass1234word' };
    const { page, context } = await newPhone(fx.browser);
    const step = (name, fn) => fx.step(t, `${lang}-auction-${name}`, page, fn);
    let auctionId = '';
    try {
      await step('ops list an auction open now', async () => {
        const { ops } = await verifiedMember(fx.server.base, member, ['100000']);
        const listed = await call(fx.server.base, 'POST', '/api/vue/ops/auction/auctions', {
          session: ops,
          body: {
            symbol: CODE[lang], lots: 20, minPrice: '25', maxLotsPerBidder: 3, depositRate: '15',
            opensAt: new Date(Date.now() - 3600_000).toISOString(), closesAt: new Date(Date.now() + 86_400_000).toISOString(),
            awardDate: taipeiDate(2), listingDate: taipeiDate(5),
          },
        });
        auctionId = listed.id;
        assert.match(listed.commitment, /^[0-9a-f]{64}$/);
      });

      await step('open the auction from home', async () => {
        await openApp(page, fx.server.base, lang);
        await tid(page, 'welcome-login').click();
        await login(page, lang, member.account, member.password);
        await waitText(tid(page, 'shortcut-auction'), T.shortcut);
        await tid(page, 'shortcut-auction').click();
        await waitHash(page, '/market/subscribeJp');
        const card = page.locator(`[data-testid=auction-item][data-auction="${auctionId}"]`).filter({ visible: true });
        await card.waitFor();
        await waitText(card.getByTestId('auction-state'), T.open);
        await screen(page, lang, 'auction-01-list');
        await card.click();
        await waitHash(page, `/market/subscribeDetailJp?id=${auctionId}`);
      });

      await step('bid a price and lots', async () => {
        await waitText(tid(page, 'auction-seed'), T.notRevealed);
        await tid(page, 'auction-price').fill('30');
        await tid(page, 'auction-lots').fill('2');
        // 30 × 2,000 shares × 15 % = 9,000, shown before the bid is sent.
        await waitText(tid(page, 'auction-deposit-preview'), T.deposit);
        await tid(page, 'auction-price').fill('45.5');
        await tid(page, 'auction-lots').fill('4');
        await tid(page, 'auction-bid-submit').click();
        await waitText(tid(page, 'form-error'), T.capped);
        await tid(page, 'auction-lots').fill('2');
        await screen(page, lang, 'auction-02-form');
        await tid(page, 'auction-bid-submit').click();
        const placed = nextResponse(page, 'POST', `/api/vue/auction/auctions/${auctionId}/bid`);
        await dialogButton(page, T.bid);
        const res = await placed;
        assert.equal(res.status, 200, JSON.stringify(res.body));
        assert.equal(res.body.data.deposit, '13650.00'); // 45.5 × 2,000 × 15 %
        await waitToast(page, T.placed);
        const bid = tid(page, 'auction-bid').first();
        await waitText(bid.getByTestId('auction-bid-state'), T.waiting);
        await waitText(tid(page, 'auction-my-lots'), '2');
        await screen(page, lang, 'auction-03-placed');
      });

      await step('the bid is in the records', async () => {
        await openRoute(page, '/market/subscribeJpRecord');
        const bid = page.locator(`[data-testid=auction-bid]`).filter({ visible: true }).first();
        await bid.waitFor();
        assert.equal(await bid.getAttribute('data-state'), 'bidding');
        await waitText(bid.getByTestId('auction-bid-deposit'), '13,650.00');
        await screen(page, lang, 'auction-04-records');
      });
    } finally {
      await context.close();
    }
  });
}
