// Issue 13's dividends in one language, at the phone viewport: the demo member opens "beneficiary
// stocks" from home, sees the ex-dividend calendar, opens a stock's dividend history from it,
// the ex-rights and high-yield lists, and their own dividends: one paid (cash and new shares) and
// one expected, with the published NHI and fee rule.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { login, openApp, screen } from './flows.mjs';
import { DEMO, tid, useFixture, waitHash, waitText } from './harness.mjs';

/** The texts these screens show, written out so that a wrong translation fails here. */
const D = {
  tw: {
    shortcut: '受益股票',
    calendar: '除權息行事曆',
    exRights: '除權（配股）',
    highYield: '高殖利率',
    receipts: '我的股利',
    history: '歷年股利',
    paid: '已發放',
    expected: '待發放',
    rules: '二代健保補充保費',
  },
  en: {
    shortcut: 'Beneficiary stocks',
    calendar: 'Ex-dividend calendar',
    exRights: 'Ex-rights (stock)',
    highYield: 'High yield',
    receipts: 'My dividends',
    history: 'Dividend history',
    paid: 'Paid',
    expected: 'Expected',
    rules: 'NHI supplementary premium',
  },
};

/**
 * Checks a screen with the instruments' names (data, Chinese where there is no English name)
 * taken out longest first, so that a name inside a longer one leaves nothing behind.
 */
async function shotWithNames(page, lang, name) {
  const names = (await page.locator('[data-testid=quote-name]').allInnerTexts()).sort((a, b) => b.length - a.length);
  await screen(page, lang, name, { userText: names });
}

async function title(page, text) {
  await waitText(page.locator('.adm-nav-bar-title').filter({ visible: true }), text);
}

export function dividendJourney(lang) {
  const X = D[lang];
  const fx = useFixture({ phone: true });

  test(`dividends: calendar, history, receipts (${lang})`, { timeout: 180_000 }, async (t) => {
    const { page } = fx.phone;
    const step = (name, fn) => fx.step(t, `${lang}-dividend-${name}`, page, fn);

    await step('calendar', async () => {
      await openApp(page, fx.server.base, lang);
      await tid(page, 'welcome-login').click();
      await login(page, lang, DEMO.member.account, DEMO.member.password);
      await waitText(tid(page, 'shortcut-beneficiaryStocks'), X.shortcut);
      await tid(page, 'shortcut-beneficiaryStocks').click();
      await waitHash(page, '/common/dividend');
      await title(page, X.calendar);
      await tid(page, 'dividend-event').first().waitFor();
      assert.ok((await tid(page, 'dividend-event').count()) > 3, 'the calendar lists upcoming distributions');
      await shotWithNames(page, lang, 'dividend-01-calendar');
    });

    await step('history', async () => {
      const first = tid(page, 'dividend-event').first();
      const symbol = await first.getAttribute('data-symbol');
      await first.getByTestId('dividend-event-link').click();
      await page.waitForFunction((s) => location.hash === `#/common/dividendInfo?code=${s}`, symbol);
      await tid(page, 'dividend-info').waitFor();
      await waitText(page.locator('.dividend-heading').filter({ visible: true }), X.history);
      await tid(page, 'dividend-history').getByTestId('dividend-event').first().waitFor();
      await shotWithNames(page, lang, 'dividend-02-history');
    });

    await step('lists', async () => {
      await tid(page, 'dividend-nav-dividend3').click();
      await waitHash(page, '/common/dividend3');
      await title(page, X.exRights);
      await tid(page, 'dividend-exrights').waitFor();
      for (const s of await tid(page, 'dividend-exrights').getByTestId('dividend-stock').all()) assert.ok((await s.innerText()).length > 0);
      await shotWithNames(page, lang, 'dividend-03-exrights');
      await tid(page, 'dividend-nav-dividend2').click();
      await waitHash(page, '/common/dividend2');
      await title(page, X.highYield);
      await tid(page, 'dividend-high-item').first().waitFor();
      assert.equal(await tid(page, 'dividend-high-item').count(), 50);
      await shotWithNames(page, lang, 'dividend-04-high-yield');
    });

    await step('receipts', async () => {
      await tid(page, 'dividend-nav-dividendOrder').click();
      await waitHash(page, '/common/dividendOrder');
      await title(page, X.receipts);
      const paid = tid(page, 'dividend-receipt').and(page.locator('[data-status=completed]'));
      const expected = tid(page, 'dividend-receipt').and(page.locator('[data-status=pending]'));
      await paid.first().waitFor();
      await waitText(paid.first().getByTestId('dividend-receipt-status'), X.paid);
      await waitText(expected.first().getByTestId('dividend-receipt-status'), X.expected);
      assert.ok((await paid.count()) >= 1 && (await expected.count()) >= 1);
      await waitText(tid(page, 'dividend-rules'), new RegExp(X.rules));
      await shotWithNames(page, lang, 'dividend-05-receipts');
    });
  });
}
