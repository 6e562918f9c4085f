package projtest_test

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"

	"github.com/lotbook/lotbook/events"
	"github.com/lotbook/lotbook/events/postgres/pgtest"
	"github.com/lotbook/lotbook/projections"
	_ "github.com/lotbook/lotbook/projections/copytrade"
	_ "github.com/lotbook/lotbook/projections/coupons"
	_ "github.com/lotbook/lotbook/projections/news"
	"github.com/lotbook/lotbook/projections/projtest"
	"github.com/lotbook/lotbook/projections/projtest/eventlog"
	_ "github.com/lotbook/lotbook/projections/quant"
	_ "github.com/lotbook/lotbook/projections/trading"
)

// tradingLog fills e's store with about LOTBOOK_BENCH_EVENTS (default 60,000) events of members
// who trade: each registers, deposits, checks in (a coupon), reads two news items and makes 8
// round trips (order placed and filled, twice); every tenth is a mentor, the next follows it
// (its orders mirrored into the follow), the next subscribes to AI quant. 20 news items.
func tradingLog(b *testing.B, e *projtest.Env) int64 {
	total := 60_000
	if v, err := strconv.Atoi(os.Getenv("LOTBOOK_BENCH_EVENTS")); err == nil && v > 0 {
		total = v
	}
	ctx, d := context.Background(), projtest.Dec
	at := time.Date(2026, 3, 2, 1, 0, 0, 0, time.UTC)
	appendAll := func(stream, actor string, ps ...events.Payload) {
		evs := make([]events.EventData, len(ps))
		for i, p := range ps {
			typ, data, err := events.Encode(p)
			if err != nil {
				b.Fatal(err)
			}
			at = at.Add(time.Millisecond)
			cmd := uuid.NewString()
			evs[i] = events.EventData{ID: events.EventID(cmd, stream, i), Type: typ, Data: data,
				Metadata: events.Metadata{CommandID: cmd, Actor: actor, ServerTime: at}}
		}
		if _, err := e.Store.Append(ctx, stream, events.AnyVersion, evs); err != nil {
			b.Fatal(err)
		}
	}
	news := func(i int) string { return fmt.Sprintf("0a1b2c3d-0000-5000-8000-%012d", i) }
	for i := range 20 {
		appendAll(events.NewsStream(news(i)), "ops:ops", events.NewsDrafted{ID: news(i), Kind: events.NewsKindArticle,
			NewsText: events.NewsText{TitleEN: "n", TitleTW: "n", BodyEN: "<p>n</p>", BodyTW: "<p>n</p>"}}, events.NewsPublished{At: at})
	}
	const perMember = 40
	var mentor string
	for i := range total / perMember {
		account := fmt.Sprintf("09%08d", i)
		id := events.MemberID(account)
		appendAll(events.MemberStream(id), "member:"+account, events.MemberRegistered{MemberID: id, Account: account, Role: events.RoleMember,
			PasswordHash: "x", InviteCode: "LOTBOOK", OwnInviteCode: "I" + account},
			events.NewsRead{ID: news(i % 20)}, events.NewsRead{ID: news((i + 7) % 20)})
		cash := func(amount decimal.Decimal) []events.Posting {
			if amount.IsNegative() {
				return events.Transfer(events.MemberAvailable(id), events.HouseTradeClearing, "TWD", amount.Neg())
			}
			return events.Transfer(events.HouseTradeClearing, events.MemberAvailable(id), "TWD", amount)
		}
		coupon := "c-" + account
		ps := []events.Payload{
			events.DepositRequested{OrderNo: "D" + account, ChannelID: "bank", ChannelName: "Bank", Currency: "TWD", Amount: d("1000000"), ProofFileID: "f"},
			events.DepositApproved{OrderNo: "D" + account, Currency: "TWD", Amount: d("1000000"),
				Postings: events.Transfer(events.HouseBankClearing, events.MemberAvailable(id), "TWD", d("1000000"))},
			events.CheckedIn{Day: "2026-03-02", Streak: 1, CycleDay: 1, CouponID: coupon},
			events.CouponGranted{CouponID: coupon, Kind: events.CouponCommissionDiscount, Value: d("5"), Uses: 1, ExpiryDay: "2026-03-09",
				ExpiresAt: at.Add(7 * 24 * time.Hour), Source: events.CouponFromCheckIn},
		}
		origin := ""
		switch i % 10 {
		case 0:
			mentor = id
			ps = append(ps, events.MentorProfileSet{DisplayName: "M" + account, MinAmount: d("10000"), WindowDays: 30, ProfitShare: d("10")})
		case 1:
			origin = "F" + account
			ps = append(ps, events.FollowStarted{FollowID: origin, MentorID: mentor, MentorName: "M", Amount: d("100000"), ProfitShare: d("10"),
				Days: 30, Ends: "2026-04-01T00:00:00Z", Postings: events.FollowPostings(id, "TWD", d("100000"), false)})
		case 2:
			ps = append(ps, events.QuantSubscribed{SubID: "Q" + account, Product: "momentum-0050", Currency: "TWD", Amount: d("150000"),
				Postings: events.Transfer(events.MemberAvailable(id), events.MemberFrozen(id), "TWD", d("150000"))})
		}
		for t := range (perMember - 3 - len(ps)) / 4 {
			no := fmt.Sprintf("T%s%02d", account, t)
			order := func(no, intent, side string) events.OrderPlaced {
				return events.OrderPlaced{OrderNo: no, PositionID: "T" + no[1:], Intent: intent, Symbol: "2884", Name: "2884", Kind: "stock",
					Side: side, Direction: events.DirectionLong, Type: events.OrderMarket, Shares: 1000, Price: d("30"), Leverage: d("1"),
					TradingDay: "2026-03-02", By: events.OrderByMember, Origin: origin}
			}
			fill := func(no, side string, cashAmount, basis, profit decimal.Decimal) events.OrderFilled {
				return events.OrderFilled{OrderNo: no, PositionID: "T" + no[1:], Seq: 1, Side: side, Shares: 1000, Amount: d("30000"),
					Commission: d("43"), Basis: basis, Cash: cashAmount, Profit: profit, Postings: cash(cashAmount)}
			}
			sell := "S" + no[1:]
			ps = append(ps, order(no, events.IntentOpen, events.SideBuy), fill(no, events.SideBuy, d("-30043"), d("30043"), decimal.Zero),
				order(sell, events.IntentClose, events.SideSell), fill(sell, events.SideSell, d("30900"), d("30043"), d("857")))
		}
		appendAll(events.AccountStream(id), "member:"+account, ps...)
	}
	head := e.Head()
	b.Logf("appended %d events", head)
	return head
}

// BenchmarkCatchUpTrading times every read model of this binary (the core's, trading,
// copytrade, coupons, quant, news) catching up on tradingLog into a fresh PostgreSQL read
// database, with one runner and with two partitions (two runners, as two projector instances
// would be, timed until both reach the head), and reports events/s and events per CPU second of
// the process.
func BenchmarkCatchUpTrading(b *testing.B) {
	e := projtest.SQLite(b)
	head := tradingLog(b, e)
	for _, parts := range []int{1, 2} {
		b.Run(fmt.Sprintf("partitions=%d", parts), func(b *testing.B) {
			var elapsed, cpu time.Duration
			for b.Loop() {
				b.StopTimer()
				dsn := pgtest.NewDatabase(b)
				runners := make([]*projections.Runner, parts)
				for i := range runners {
					db, err := projections.OpenReadDB(context.Background(), "", dsn)
					if err != nil {
						b.Fatal(err)
					}
					b.Cleanup(func() { db.Close() })
					runners[i] = projections.NewRunner(db, e.Store, nil, nil)
					runners[i].SetPartition(projections.Partition{Index: i, Count: parts}, false)
				}
				b.StartTimer()
				took, used := eventlog.CatchUp(b, runners, head)
				elapsed, cpu = elapsed+took, cpu+used
			}
			rate, perCPU := float64(head)*float64(b.N)/elapsed.Seconds(), float64(head)*float64(b.N)/cpu.Seconds()
			b.ReportMetric(rate, "events/s")
			b.ReportMetric(perCPU, "events/cpu-s")
			fmt.Printf("catch-up trading log, partitions %d (%d read models) %d events: %.0f events/s (%.0f events per CPU second of this process)\n",
				parts, len(projections.Registered()), head, rate, perCPU)
		})
	}
}
