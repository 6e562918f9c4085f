package copytrade

import (
	"context"
	"fmt"
	"testing"

	"github.com/shopspring/decimal"

	"github.com/lotbook/lotbook/events"
	"github.com/lotbook/lotbook/projections/projtest"
)

// trader writes a member's orders and fills on its account stream as trading's commands do; an
// order of a follow carries the follow as its origin.
type trader struct {
	e             *projtest.Env
	id, acct, key string
}

func register(e *projtest.Env, account string) trader {
	id := e.Register(account)
	return trader{e: e, id: id, acct: events.AccountStream(id), key: account}
}

func (m trader) place(no, position, intent, side, origin string) {
	d := projtest.Dec
	m.e.Add(m.acct, "member:"+m.key, events.OrderPlaced{OrderNo: no, PositionID: position, Intent: intent, Symbol: "2884", Name: "2884",
		Kind: "stock", Side: side, Direction: events.DirectionLong, Type: events.OrderMarket, Shares: 1000, Price: d("30"), Leverage: d("1"),
		TradingDay: "2026-03-02", By: events.OrderByMember, Origin: origin})
}

func (m trader) fill(no, position, side string, cash, profit decimal.Decimal) {
	postings := events.Transfer(events.HouseTradeClearing, events.MemberAvailable(m.id), "TWD", cash)
	if cash.IsNegative() {
		postings = events.Transfer(events.MemberAvailable(m.id), events.HouseTradeClearing, "TWD", cash.Neg())
	}
	m.e.Add(m.acct, "system", events.OrderFilled{OrderNo: no, PositionID: position, Seq: 1, Side: side, Shares: 1000,
		Amount: projtest.Dec("30000"), Basis: projtest.Dec("30043"), Cash: cash, Profit: profit, Postings: postings})
}

// commit and spend are the postings of cash going into a follow's commitment and out of it to
// pay for a mirrored order.
func (m trader) commit(amount decimal.Decimal) []events.Posting {
	return events.FollowPostings(m.id, "TWD", amount, false)
}

func (m trader) spend(amount decimal.Decimal) []events.Posting {
	return events.FollowPostings(m.id, "TWD", amount, true)
}

// mentorBuys has the mentor opt in (once) and buy a lot: its own order and fill.
func (m trader) mentorBuys(no string) {
	m.e.Deposit(m.id, "D"+m.key, "100000")
	m.e.Add(m.acct, "member:"+m.key, events.MentorProfileSet{DisplayName: "Mentor " + m.key, MinAmount: projtest.Dec("10000"),
		WindowDays: 30, ProfitShare: projtest.Dec("10")})
	m.place(no, no, events.IntentOpen, events.SideBuy, "")
	m.fill(no, no, events.SideBuy, projtest.Dec("-30043"), decimal.Zero)
}

// follows has the follower follow mentor, and the process mirror the mentor's buy ref into it:
// the commitment spent, the mirrored order placed and filled, the reservation's rest returned;
// and a second mirrored order refused.
func (f trader) follows(mentor trader, ref string) string {
	d, follow, no := projtest.Dec, "F"+f.key, "C"+f.key
	f.e.Deposit(f.id, "D"+f.key, "200000")
	f.e.Add(f.acct, "member:"+f.key, events.FollowStarted{FollowID: follow, MentorID: mentor.id, MentorName: "Mentor " + mentor.key,
		Amount: d("100000"), ProfitShare: d("10"), Days: 30, Ends: "2026-04-01T00:00:00Z", Postings: f.commit(d("100000"))})
	f.e.Add(f.acct, "system", events.CopyFundsSpent{FollowID: follow, Ref: ref, Symbol: "2884", Shares: 1000, Price: d("30"), Amount: d("30100"),
		Postings: f.spend(d("30100"))})
	f.place(no, no, events.IntentOpen, events.SideBuy, follow)
	f.fill(no, no, events.SideBuy, d("-30043"), decimal.Zero)
	f.e.Add(f.acct, "system", events.CopyFundsReturned{FollowID: follow, Ref: no, Amount: d("57"), Reason: events.CopyReturnOrderDone,
		Postings: f.commit(d("57"))},
		events.CopyFundsSpent{FollowID: follow, Ref: ref + "-2", Symbol: "2884", Shares: 1000, Price: d("30"), Amount: d("30100"),
			Postings: f.spend(d("30100"))},
		events.CopyFundsReturned{FollowID: follow, Ref: ref + "-2", Amount: d("30100"), Reason: "insufficient_balance", Symbol: "2884",
			Direction: events.DirectionLong, Shares: 1000, Postings: f.commit(d("30100"))})
	return follow
}

// closes has the mentor sell its lot, the follower's mirrored sale follow it, and the follower
// stop the follow: the mentor receives the profit share on its own stream.
func (f trader) closes(mentor trader, mentorNo, follow string) {
	d := projtest.Dec
	mentor.place("X"+mentor.key, mentorNo, events.IntentClose, events.SideSell, "")
	mentor.fill("X"+mentor.key, mentorNo, events.SideSell, d("32900"), d("2857"))
	no, position := "Y"+f.key, "C"+f.key
	f.place(no, position, events.IntentClose, events.SideSell, follow)
	f.fill(no, position, events.SideSell, d("32900"), d("2857"))
	f.e.Add(f.acct, "system", events.CopyFundsReturned{FollowID: follow, Ref: no, Amount: d("32900"), Reason: events.CopyReturnSold,
		Postings: f.commit(d("32900"))})
	f.e.Add(f.acct, "member:"+f.key, events.FollowStopRequested{FollowID: follow})
	f.e.Add(f.acct, "system", events.FollowStopped{FollowID: follow, MentorID: mentor.id, State: events.FollowCancelled,
		Released: d("102857"), Profit: d("2857"), Share: d("285.7"), Postings: events.StopPostings(f.id, "TWD", d("102857"), d("285.7"))})
	mentor.e.Add(mentor.acct, "system", events.ProfitShareReceived{FollowID: follow, FollowerID: f.id, Amount: d("285.7"),
		Postings: events.ShareIncomePostings(mentor.id, "TWD", d("285.7"))})
}

// TestCopyTradeSplitLikeOne: three mentors and six followers, over both partitions of two (a
// follower's partition is mostly not its mentor's), give two partitions the same rows as one
// runner: the mentors buy and are followed, their buys mirrored (one mirrored order refused);
// then, applied by partitions that already hold the mentors, follows and orders, the mentors
// sell, the sales are mirrored, the follows stop and the mentors receive their profit shares.
func TestCopyTradeSplitLikeOne(t *testing.T) {
	projtest.Backends(t, func(t *testing.T, e *projtest.Env) {
		var mentors, followers []trader
		var follows []string
		buy := func(m trader) string { return "M" + m.key }
		e.SplitLikeOne(t, projector, func() {
			for i := range 3 {
				m := register(e, fmt.Sprintf("09666666%02d", i))
				m.mentorBuys(buy(m))
				mentors = append(mentors, m)
			}
			for i := range 6 {
				f := register(e, fmt.Sprintf("09777777%02d", i))
				follows = append(follows, f.follows(mentors[i%3], buy(mentors[i%3])))
				followers = append(followers, f)
			}
		}, func() {
			for i, f := range followers {
				if i < 3 { // each mentor sells once, mirrored into its first follower's follow
					f.closes(mentors[i], buy(mentors[i]), follows[i])
				}
			}
		})
		// What the mentors' page shows from the rows of both partitions: each mentor's two
		// followers' commitments, one of them still following.
		db := e.Open()
		ms, err := Mentors(context.Background(), db.Reader)
		if err != nil || len(ms) != 3 {
			t.Fatalf("mentors %+v %v", ms, err)
		}
		for _, m := range ms {
			if !m.CopyAmount.Equal(projtest.Dec("200000")) || m.Followers != 1 || !m.Income.Equal(projtest.Dec("285.7")) || len(m.Fills) != 2 {
				t.Errorf("mentor %s: copied %s by %d followers, income %s, %d fills", m.MemberID, m.CopyAmount, m.Followers, m.Income, len(m.Fills))
			}
		}
	})
}
