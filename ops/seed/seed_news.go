package seed

import (
	"context"
	"fmt"
	"time"

	"github.com/lotbook/lotbook/commands/news"
	"github.com/lotbook/lotbook/events"
)

func init() { Register("news", seedNews) }

// demoNews is the demo's articles and notices, oldest first; the last notice is scheduled
// (members see it from three hours after the first start), the others published.
var demoNews = []struct {
	key, kind string
	text      events.NewsText
	scheduled bool
}{
	{"hours", events.NewsKindArticle, events.NewsText{
		TitleTW: "台股交易時段一覽", TitleEN: "Taiwan stock market hours at a glance",
		BodyTW: "<p>集中市場與櫃買市場的<strong>一般交易</strong>時段為週一至週五 09:00–13:30（台北時間），13:25 起為收盤前的集合競價。</p>" +
			"<ul><li>盤後定價交易：14:00–14:30</li><li>零股交易：盤中 09:10–13:30，盤後 13:40–14:30</li></ul>" +
			`<p>詳細規定請見<a href="https://www.twse.com.tw/">臺灣證券交易所</a>。</p>`,
		BodyEN: "<p>The <strong>regular session</strong> of the TWSE and TPEx runs Monday to Friday 09:00–13:30 Taipei time, with the closing call auction from 13:25.</p>" +
			"<ul><li>After-hours fixed-price trading: 14:00–14:30</li><li>Odd lots: intraday 09:10–13:30, after hours 13:40–14:30</li></ul>" +
			`<p>See the <a href="https://www.twse.com.tw/en/">Taiwan Stock Exchange</a> for the full rules.</p>`,
	}, false},
	{"limits", events.NewsKindArticle, events.NewsText{
		TitleTW: "漲跌幅限制與最小升降單位", TitleEN: "Price limits and tick sizes",
		BodyTW: "<p>上市櫃股票每日漲跌幅以前一日收盤價的 <strong>10%</strong> 為限，委託價格須符合該價位區間的最小升降單位。</p>" +
			"<p>超出漲跌停或不符升降單位的委託將被拒絕，請於下單前留意報價頁的漲停價與跌停價。</p>",
		BodyEN: "<p>Listed and OTC shares may move at most <strong>10%</strong> from the previous close in a day, and an order's price must sit on the tick size of its price band.</p>" +
			"<p>Orders beyond the limits or off the tick are refused: check the limit-up and limit-down prices on the quote screen before you order.</p>",
	}, false},
	{"deposits", events.NewsKindNotice, events.NewsText{
		TitleTW: "儲值服務時段", TitleEN: "Deposit hours",
		BodyTW: "<p>儲值受理時段為週一至週五 09:30–19:30（台北時間），國定假日暫停受理。</p><p>儲值前請確認收款帳戶，並上傳轉帳憑證。</p>",
		BodyEN: "<p>Deposits are accepted Monday to Friday 09:30–19:30 Taipei time, closed on holidays.</p><p>Check the payee account before you transfer, and upload the transfer proof.</p>",
	}, false},
	{"maintenance", events.NewsKindNotice, events.NewsText{
		TitleTW: "系統維護通知", TitleEN: "Scheduled maintenance",
		BodyTW: "<p>本平台將於週六 02:00–04:00（台北時間）進行系統維護，期間暫停登入與儲值、提領服務。</p>",
		BodyEN: "<p>The platform will be under maintenance on Saturday 02:00–04:00 Taipei time; login, deposits and withdrawals pause meanwhile.</p>",
	}, true},
}

// seedNews drafts the demo's items and publishes or schedules them. Every command has its own
// deterministic key: a later start replays them, scheduling included, and writes nothing.
func seedNews(ctx context.Context, env Env) error {
	cmds := news.New(env.Kernel)
	for _, n := range demoNews {
		id, _, err := cmds.CreateDraft(ctx, Meta("news:draft:"+n.key), news.Draft{Kind: n.kind, Text: n.text})
		if err != nil {
			return fmt.Errorf("draft %s: %w", n.key, err)
		}
		if n.scheduled {
			_, err = cmds.Schedule(ctx, Meta("news:schedule:"+n.key), id, env.Now.Add(3*time.Hour))
		} else {
			_, err = cmds.Publish(ctx, Meta("news:publish:"+n.key), id)
		}
		if err != nil {
			return fmt.Errorf("publish %s: %w", n.key, err)
		}
	}
	return nil
}
