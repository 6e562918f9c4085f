// News and notices (issue 13.2) against the real server, in both languages at the phone
// viewport: ops write a notice whose HTML carries a script, an onerror attribute and a
// javascript: link, and publish it; the member sees it as home's notice with an unread count and
// a badge on the news tab, opens it (nothing of the script runs, the link is gone), and the count
// drops. The demo's articles are on the news tab.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { login, openApp, screen } from './flows.mjs';
import { DEMO, dialogButton, newPhone, nextResponse, openRoute, tid, useFixture, waitHash, waitText, waitToast } from './harness.mjs';

// Written out, not imported from the app: a wrong translation fails here.
const T = {
  tw: { saved: '已儲存', published: '已發布', publish: '立即發布', stateDraft: '草稿', statePublished: '已發布', notices: '公告', unread: /^(\d+) 則未讀$/, tabNews: '資訊', article: '台股交易時段一覽' },
  en: { saved: 'Saved', published: 'Published', publish: 'Publish now', stateDraft: 'Draft', statePublished: 'Published', notices: 'Notices', unread: /^(\d+) unread$/, tabNews: 'News', article: 'Taiwan stock market hours at a glance' },
};

const fx = useFixture();

/** The number in an unread count's text, 0 when it is not shown. */
async function unreadOf(locator, re) {
  if ((await locator.count()) === 0) return 0;
  const m = re.exec((await locator.innerText()).trim());
  assert.ok(m, `unread count text ${await locator.innerText()}`);
  return Number(m[1]);
}

for (const lang of ['tw', 'en']) {
  test(`publish a notice and read it (${lang})`, { timeout: 150_000 }, async (t) => {
    const L = T[lang];
    const stamp = Date.now().toString(36);
    const title = { tw: `颱風停止交易公告 ${stamp}`, en: `Typhoon closure ${stamp}` };
    const ops = await newPhone(fx.browser);
    const member = await newPhone(fx.browser);
    let id = '';

    await t.test('ops write and publish a notice', async () => {
      const page = ops.page;
      await openApp(page, fx.server.base, lang);
      await login(page, lang, DEMO.ops.account, DEMO.ops.password, { hash: '/ops/console', testId: 'ops-console-page' });
      await openRoute(page, '/home/index');
      await tid(page, 'shortcut-opsNews').click();
      await waitHash(page, '/ops/news');
      await tid(page, 'ops-news-list').waitFor();
      await tid(page, 'ops-news-create').click();
      await waitHash(page, '/ops/newsEdit');
      await tid(page, 'ops-news-kind-input').selectOption('notice');
      await tid(page, 'ops-news-titleTw').fill(title.tw);
      await tid(page, 'ops-news-titleEn').fill(title.en);
      await tid(page, 'ops-news-bodyTw').fill('<p>今日颱風，<strong>停止交易</strong>。<script>window.__xss = 1</script></p><img src="x" onerror="window.__xss = 2">');
      await tid(page, 'ops-news-bodyEn').fill('<p>Trading is <strong>closed</strong> today.</p><a href="javascript:window.__xss = 3">details</a>');
      const drafted = nextResponse(page, 'POST', '/api/vue/ops/news');
      await tid(page, 'ops-news-save').click();
      const res = await drafted;
      assert.equal(res.status, 200, JSON.stringify(res.body));
      id = res.body.data.id;
      await waitToast(page, L.saved);
      await waitHash(page, `/ops/newsEdit?id=${id}`);
      await waitText(tid(page, 'ops-news-state'), L.stateDraft);
      // What the server stored: the script, the image and the javascript: link are gone.
      await page.waitForFunction(
        (want) => [...document.querySelectorAll('[data-testid=ops-news-bodyTw]')].some((e) => e.value === want),
        '<p>今日颱風，<strong>停止交易</strong>。</p>',
      );
      assert.equal(await tid(page, 'ops-news-bodyEn').inputValue(), '<p>Trading is <strong>closed</strong> today.</p>details');
      await tid(page, 'ops-news-publish').click();
      const published = nextResponse(page, 'POST', `/api/vue/ops/news/${id}/publish`);
      await dialogButton(page, L.publish);
      assert.equal((await published).status, 200);
      await waitToast(page, L.published);
      await waitText(tid(page, 'ops-news-state'), L.statePublished);
      await tid(page, 'ops-news-history').getByText(DEMO.ops.account, { exact: false }).nth(1).waitFor();
      await screen(page, lang, 'news-01-ops-published', { userText: [title.tw, title.en, '今日颱風，', '停止交易', '。'] });
    });

    await t.test('the member sees it on home, reads it, and the count drops', async () => {
      const page = member.page;
      await openApp(page, fx.server.base, lang);
      await login(page, lang, DEMO.member.account, DEMO.member.password);
      const latest = tid(page, 'home-notice-latest');
      await waitText(latest, new RegExp(`^${title[lang]}`));
      await waitText(tid(page, 'home-notice-unread'), L.unread);
      const before = await unreadOf(tid(page, 'home-notice-unread'), L.unread);
      assert.ok(before >= 1, 'the new notice is unread');
      await waitText(tid(page, 'tab-news'), new RegExp(`${L.tabNews}$`));
      assert.ok(Number(await tid(page, 'tab-badge-news').innerText()) >= before, 'the news tab counts the unread notices');
      await screen(page, lang, 'news-02-home-notice', { userText: [title[lang]] });

      const read = nextResponse(page, 'POST', `/api/vue/news/items/${id}/read`);
      await latest.click();
      await waitHash(page, `/home/noticeDetail?id=${id}`);
      await waitText(tid(page, 'news-title'), title[lang]);
      const body = tid(page, 'news-body');
      await waitText(body, lang === 'tw' ? '今日颱風，停止交易。' : 'Trading is closed today. details');
      assert.equal(await body.locator('script, img, [onerror], a').count(), 0, 'no script, image, handler or link survived');
      assert.equal((await read).status, 200, 'opening the notice marks it read');
      assert.equal(await page.evaluate(() => window.__xss), undefined, 'nothing of the article ran');
      await screen(page, lang, 'news-03-notice', { userText: [title[lang]] });

      await page.goBack();
      await waitHash(page, '/home/index');
      await page.waitForFunction(
        ([b, re]) => {
          const el = [...document.querySelectorAll('[data-testid=home-notice-unread]')].find((e) => e.checkVisibility());
          const n = el ? Number(new RegExp(re).exec(el.textContent.trim())?.[1] ?? -1) : 0;
          return n === b - 1;
        },
        [before, L.unread.source],
        { timeout: 10_000 },
      );

      await tid(page, 'home-notice-more').click();
      await waitHash(page, '/home/notice');
      const row = tid(page, `news-row-${id}`);
      await waitText(row, new RegExp(title[lang]));
      assert.equal(await row.getByTestId('news-unread-dot').count(), 0, 'the read notice has no unread mark');
      await screen(page, lang, 'news-04-notices', { userText: [title.tw, title.en, '颱風停止交易公告', 'Typhoon closure'] });

      await openRoute(page, '/home/index');
      await tid(page, 'tab-news').click();
      await waitHash(page, '/home/moreNews');
      await tid(page, 'news-list-article').getByText(L.article).waitFor();
      assert.match(await tid(page, 'tab-news').getAttribute('class'), /\bnavActive\b/);
      await screen(page, lang, 'news-05-tab');
    });
    await ops.context.close();
    await member.context.close();
  });
}
