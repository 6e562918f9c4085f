package copytrade

import (
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/lotbook/lotbook/commands"
	"github.com/lotbook/lotbook/commands/commandstest"
	"github.com/lotbook/lotbook/events"
)

var d = decimal.RequireFromString

var t0 = time.Date(2026, 3, 2, 2, 0, 0, 0, time.UTC)

func account(ps ...events.Payload) *commands.Account {
	return commandstest.Build(commands.NewAccount("m1"), nil, ps...)
}

func cash(amount string) events.Payload {
	return events.DepositApproved{OrderNo: "D1", Currency: "TWD", Amount: d(amount),
		Postings: events.Transfer(events.HouseAccount("bank_clearing"), events.MemberAvailable("m1"), "TWD", d(amount))}
}

func started(amount string) events.Payload {
	return events.FollowStarted{FollowID: "F1", MentorID: "mentor", MentorName: "Ann", Amount: d(amount), ProfitShare: d("10"),
		Days: 30, Ends: t0.AddDate(0, 0, 30).Format(time.RFC3339), Postings: events.FollowPostings("m1", "TWD", d(amount), false)}
}

func TestValidateProfile(t *testing.T) {
	for _, c := range []struct {
		name string
		in   ProfileInput
		key  string
	}{
		{"ok", ProfileInput{DisplayName: "Ann", MinAmount: "10000", WindowDays: 30, ProfitShare: "10"}, ""},
		{"zero share", ProfileInput{DisplayName: "Ann", MinAmount: "10000", WindowDays: 30, ProfitShare: "0"}, ""},
		{"no name", ProfileInput{DisplayName: " ", MinAmount: "10000", WindowDays: 30, ProfitShare: "10"}, KeyMentorNameRequired},
		{"share over cap", ProfileInput{DisplayName: "Ann", MinAmount: "10000", WindowDays: 30, ProfitShare: "20.01"}, KeyProfitShareInvalid},
		{"negative share", ProfileInput{DisplayName: "Ann", MinAmount: "10000", WindowDays: 30, ProfitShare: "-1"}, KeyProfitShareInvalid},
		{"minimum below floor", ProfileInput{DisplayName: "Ann", MinAmount: "999", WindowDays: 30, ProfitShare: "10"}, KeyMinimumAmountInvalid},
		{"window too long", ProfileInput{DisplayName: "Ann", MinAmount: "10000", WindowDays: 366, ProfitShare: "10"}, KeyWindowInvalid},
		{"window zero", ProfileInput{DisplayName: "Ann", MinAmount: "10000", WindowDays: 0, ProfitShare: "10"}, KeyWindowInvalid},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, e := validateProfile(c.in)
			var err error
			if e != nil {
				err = e
			}
			commandstest.WantKey(t, err, c.key)
		})
	}
}

func TestDecideFollow(t *testing.T) {
	pr := &Profile{DisplayName: "Ann", MinAmount: d("10000"), WindowDays: 30, ProfitShare: d("10")}
	no := func(int) string { return "F1" }
	for _, c := range []struct {
		name   string
		pr     *Profile
		amount string
		days   int
		key    string
	}{
		{"ok", pr, "10000", 0, ""},
		{"no mentor", nil, "10000", 0, KeyMentorNotExist},
		{"below minimum", pr, "9999", 0, KeyBelowMinimum},
		{"window too long", pr, "10000", 31, KeyTimeLimitExceeded},
		{"more than available", pr, "50001", 0, commands.KeyInsufficientBalance},
	} {
		t.Run(c.name, func(t *testing.T) {
			out, err := decideFollow(account(cash("50000")), "mentor", c.pr, d(c.amount), c.days, t0, no)
			commandstest.WantKey(t, err, c.key)
			if err == nil {
				e := out[0].(events.FollowStarted)
				if e.Ends != "2026-04-01T02:00:00Z" || !e.Amount.Equal(d(c.amount)) {
					t.Errorf("got %+v", e)
				}
			}
		})
	}
}

func TestDecideSpendNeverExceedsCommitment(t *testing.T) {
	a := account(cash("100000"), started("50000"))
	in := Spend{FollowID: "F1", Symbol: "2330", Price: d("20"), Value: d("500000"), MentorEquity: d("1000000")}
	spent := decimal.Zero
	for i := range 10 {
		in.Ref = string(rune('a' + i))
		out, err := decideSpend(a, in, t0)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range out {
			a.Apply(events.RecordedEvent{}, p)
			spent = spent.Add(p.(events.CopyFundsSpent).Amount)
		}
	}
	if spent.GreaterThan(d("50000")) || spent.IsZero() {
		t.Fatalf("spent %s of 50000", spent)
	}
	// the same ref again spends nothing; an ended window spends nothing
	if out, _ := decideSpend(a, in, t0); len(out) != 0 {
		t.Errorf("ref spent twice: %v", out)
	}
	if out, _ := decideSpend(account(cash("100000"), started("50000")), Spend{FollowID: "F1", Ref: "x", Price: d("20"), Value: d("100000"),
		MentorEquity: d("1000000")}, t0.AddDate(0, 0, 31)); len(out) != 0 {
		t.Errorf("spent after the window: %v", out)
	}
}

func TestDecideStop(t *testing.T) {
	fill := func(side string, shares int64, basis, profit string) []events.Payload {
		return []events.Payload{events.OrderFilled{OrderNo: "T1", PositionID: "T1", Side: side, Shares: shares, Basis: d(basis), Profit: d(profit)}}
	}
	placed := events.OrderPlaced{OrderNo: "T1", PositionID: "T1", Intent: events.IntentOpen, Direction: events.DirectionLong, Symbol: "2330", Origin: "F1"}
	spend := events.CopyFundsSpent{FollowID: "F1", Ref: "r", Amount: d("20028"), Postings: events.FollowPostings("m1", "TWD", d("20028"), true)}
	base := []events.Payload{cash("100000"), started("50000"), spend, placed}
	base = append(base, fill(events.SideBuy, 1000, "20028", "0")...)
	won := append(append([]events.Payload{}, base...), fill(events.SideSell, 1000, "0", "5000")...)
	for _, c := range []struct {
		name                   string
		ps                     []events.Payload
		at                     time.Time
		state, released, share string
		key                    string
	}{
		{"cancel with profit", won, t0, events.FollowCancelled, "29972", "500", ""},
		{"cancel holding", base, t0, events.FollowCancelled, "29972", "0", ""},
		{"window over", base, t0.AddDate(0, 0, 30), events.FollowEnded, "29972", "0", ""},
		{"stopped already", append(append([]events.Payload{}, base...), events.FollowStopped{FollowID: "F1", State: events.FollowCancelled}), t0, "", "", "", KeyFollowNotInProgress},
	} {
		t.Run(c.name, func(t *testing.T) {
			out, err := decideStop(account(c.ps...), "F1", false, c.at)
			commandstest.WantKey(t, err, c.key)
			if err != nil {
				return
			}
			e := out[0].(events.FollowStopped)
			if e.State != c.state || !e.Released.Equal(d(c.released)) || !e.Share.Equal(d(c.share)) {
				t.Errorf("got %+v", e)
			}
		})
	}
	if _, err := decideStop(account(cash("1")), "F9", false, t0); err == nil {
		t.Error("unknown follow stopped")
	}
}

// A stop request first takes back into the commitment what the follow's orders gave back and the
// mirror has not reclaimed yet (a mirrored sale's proceeds, a cancelled buy's reservation), each
// with its reason, and never more than is available; from then on nothing goes back into the
// commitment (a closing sale after it stays available), so the stop releases one amount whatever
// the mirror has read. A second request answers nothing; a stopped follow refuses it.
func TestDecideStopRequest(t *testing.T) {
	spend := events.CopyFundsSpent{FollowID: "F1", Ref: "r", Amount: d("40056"), Postings: events.FollowPostings("m1", "TWD", d("40056"), true)}
	buy := events.OrderPlaced{OrderNo: "T1", PositionID: "P1", Intent: events.IntentOpen, Direction: events.DirectionLong, Symbol: "2330", Origin: "F1"}
	bought := events.OrderFilled{OrderNo: "T1", PositionID: "P1", Side: events.SideBuy, Shares: 2000, Cash: d("-40056"), Remaining: 0}
	sale := func(no string, cash string) []events.Payload {
		return []events.Payload{
			events.OrderPlaced{OrderNo: no, PositionID: "P1", Intent: events.IntentClose, Side: events.SideSell, Direction: events.DirectionLong, Symbol: "2330", Origin: "F1"},
			events.OrderFilled{OrderNo: no, PositionID: "P1", Side: events.SideSell, Shares: 1000, Cash: d(cash), Profit: d("1875"), Remaining: 0},
		}
	}
	buy2 := events.OrderPlaced{OrderNo: "T3", PositionID: "P3", Intent: events.IntentOpen, Direction: events.DirectionLong, Symbol: "2603", Origin: "F1"}
	released := events.TradeCashReleased{OrderNo: "T3", Amount: d("500"), Postings: events.FollowPostings("m1", "TWD", d("500"), true)}
	log := append([]events.Payload{cash("100000"), started("50000"), spend, buy, bought}, sale("T2", "21903")...)
	log = append(log, buy2, events.TradeCashFrozen{OrderNo: "T3", Amount: d("500"), Postings: events.FollowPostings("m1", "TWD", d("500"), false)}, released)
	a := account(log...)
	out, err := decideStopRequest(a, "F1", true)
	if err != nil || len(out) != 3 {
		t.Fatalf("request %v %v", out, err)
	}
	for i, want := range []struct{ ref, reason, amount string }{{"order:T2", events.CopyReturnSold, "21903"}, {"order:T3", events.CopyReturnOrderDone, "500"}} {
		e, ok := out[i].(events.CopyFundsReturned)
		if !ok || e.Ref != want.ref || e.Reason != want.reason || !e.Amount.Equal(d(want.amount)) || events.CheckBalanced(e.Postings) != nil {
			t.Fatalf("return %d: %+v", i, out[i])
		}
	}
	if e, ok := out[2].(events.FollowStopRequested); !ok || e.FollowID != "F1" || !e.ClosePositions {
		t.Fatalf("request %+v", out[2])
	}
	for _, e := range out {
		a.Apply(events.RecordedEvent{}, e)
	}
	// 50,000 − 40,056 + 21,903 + 500; the mirror's late reclaim of T2 finds nothing due
	if f := copyPart.Of(a).follows["F1"]; f.state != events.FollowStopping || !f.remaining().Equal(d("32347")) {
		t.Fatalf("after the request: %s, remaining %s", f.state, f.remaining())
	}
	if out, _ := decideReclaim(a, "T2", events.CopyReturnSold); len(out) != 0 {
		t.Errorf("reclaimed twice %v", out)
	}
	if out, err := decideStopRequest(a, "F1", true); err != nil || len(out) != 0 {
		t.Errorf("second request %v %v", out, err)
	}
	// the stop's own closing sale: its proceeds stay available
	for _, e := range sale("T4", "22000") {
		a.Apply(events.RecordedEvent{}, e)
	}
	if out, _ := decideReclaim(a, "T4", events.CopyReturnSold); len(out) != 0 {
		t.Errorf("closing sale reclaimed while stopping %v", out)
	}
	out, err = decideStop(a, "F1", true, t0)
	if err != nil || len(out) != 1 {
		t.Fatalf("stop %v %v", out, err)
	}
	if e := out[0].(events.FollowStopped); e.State != events.FollowCancelled || !e.Released.Equal(d("32347")) {
		t.Fatalf("stop %+v", e)
	}
	a.Apply(events.RecordedEvent{}, out[0])
	if _, err := decideStopRequest(a, "F1", true); err == nil {
		t.Error("stopped follow requested again")
	}
	// never more than is available: the member spent all but 1,000 meanwhile
	short := account(append(append([]events.Payload{}, log...), events.TradeCashFrozen{OrderNo: "T9", Amount: d("89056"),
		Postings: events.FollowPostings("m1", "TWD", d("89056"), false)})...)
	out, _ = decideStopRequest(short, "F1", false)
	if len(out) != 2 || !out[0].(events.CopyFundsReturned).Amount.Equal(d("1000")) {
		t.Errorf("request with 1,000 available %+v", out)
	}
}

// A mirrored buy reserves 20,028 of the spend; cancelled, trading gives it back to available
// cash, and while the follow is in progress that cash goes back into the commitment, once.
// After the stop it stays available. A filled order is no longer working.
func TestDecideReclaim(t *testing.T) {
	spend := events.CopyFundsSpent{FollowID: "F1", Ref: "r", Amount: d("20028"), Postings: events.FollowPostings("m1", "TWD", d("20028"), true)}
	placed := events.OrderPlaced{OrderNo: "T1", PositionID: "T1", Intent: events.IntentOpen, Direction: events.DirectionLong, Symbol: "2330", Origin: "F1"}
	own := events.OrderPlaced{OrderNo: "T2", PositionID: "T2", Intent: events.IntentOpen, Direction: events.DirectionLong, Symbol: "2330"}
	frozen := events.TradeCashFrozen{OrderNo: "T1", Amount: d("20028"), Postings: events.FollowPostings("m1", "TWD", d("20028"), false)}
	released := events.TradeCashReleased{OrderNo: "T1", Amount: d("20028"), Postings: events.FollowPostings("m1", "TWD", d("20028"), true)}
	base := []events.Payload{cash("100000"), started("50000"), spend, placed, own, frozen}
	if got := workingOrders(copyPart.Of(account(base...)), "F1"); len(got) != 1 || got[0] != "T1" {
		t.Fatalf("working %v", got)
	}
	cancelled := append(append([]events.Payload{}, base...), events.OrderCancelled{OrderNo: "T1", PositionID: "T1", Shares: 1000}, released)
	a := account(cancelled...)
	if got := workingOrders(copyPart.Of(a), "F1"); len(got) != 0 {
		t.Fatalf("cancelled order still working %v", got)
	}
	out, err := decideReclaim(a, "T1", events.CopyReturnOrderDone)
	if err != nil || len(out) != 1 {
		t.Fatalf("reclaim %v %v", out, err)
	}
	e := out[0].(events.CopyFundsReturned)
	if e.FollowID != "F1" || !e.Amount.Equal(d("20028")) || events.CheckBalanced(e.Postings) != nil {
		t.Fatalf("reclaim %+v", e)
	}
	a.Apply(events.RecordedEvent{}, e)
	if f := copyPart.Of(a).follows["F1"]; !f.remaining().Equal(d("50000")) {
		t.Errorf("remaining %s after the reclaim", f.remaining())
	}
	if out, _ := decideReclaim(a, "T1", events.CopyReturnOrderDone); len(out) != 0 {
		t.Errorf("reclaimed twice %v", out)
	}
	if out, _ := decideReclaim(account(cancelled...), "T2", events.CopyReturnOrderDone); len(out) != 0 {
		t.Errorf("own order reclaimed %v", out)
	}
	stopped := append(append([]events.Payload{}, cancelled...), events.FollowStopped{FollowID: "F1", State: events.FollowCancelled})
	if out, _ := decideReclaim(account(stopped...), "T1", events.CopyReturnOrderDone); len(out) != 0 {
		t.Errorf("reclaimed after the stop %v", out)
	}
	filled := append(append([]events.Payload{}, base...), events.OrderFilled{OrderNo: "T1", PositionID: "T1", Side: events.SideBuy, Shares: 1000,
		Basis: d("20000"), Remaining: 0})
	if got := workingOrders(copyPart.Of(account(filled...)), "F1"); len(got) != 0 {
		t.Errorf("filled order still working %v", got)
	}
}

// A mirrored sale's net proceeds (and a cover's released margin and profit) go back into the
// follow's commitment while it is in progress, once and never more than is available; a member's
// own sale of the follow's position, or a sale after the stop, leaves its proceeds available.
func TestDecideReclaimSold(t *testing.T) {
	spend := events.CopyFundsSpent{FollowID: "F1", Ref: "r", Amount: d("20028"), Postings: events.FollowPostings("m1", "TWD", d("20028"), true)}
	buy := events.OrderPlaced{OrderNo: "T1", PositionID: "P1", Intent: events.IntentOpen, Direction: events.DirectionLong, Symbol: "2330", Origin: "F1"}
	bought := events.OrderFilled{OrderNo: "T1", PositionID: "P1", Side: events.SideBuy, Shares: 1000, Cash: d("-20028"), Remaining: 0}
	sale := func(no, origin string) []events.Payload {
		return []events.Payload{
			events.OrderPlaced{OrderNo: no, PositionID: "P1", Intent: events.IntentClose, Side: events.SideSell, Direction: events.DirectionLong, Symbol: "2330", Origin: origin},
			// 22,000 less commission 31 and tax 66
			events.OrderFilled{OrderNo: no, PositionID: "P1", Side: events.SideSell, Shares: 1000, Cash: d("21903"), Profit: d("1875"), Remaining: 0},
		}
	}
	short := []events.Payload{
		events.CopyFundsSpent{FollowID: "F1", Ref: "s", Amount: d("19800"), Direction: events.DirectionShort, Postings: events.FollowPostings("m1", "TWD", d("19800"), true)},
		events.OrderPlaced{OrderNo: "S1", PositionID: "Q1", Intent: events.IntentOpen, Side: events.SideSell, Direction: events.DirectionShort, Symbol: "2603", Origin: "F1"},
		events.OrderFilled{OrderNo: "S1", PositionID: "Q1", Side: events.SideSell, Shares: 1000, Cash: d("-19800"), Remaining: 0},
		events.OrderPlaced{OrderNo: "C1", PositionID: "Q1", Intent: events.IntentClose, Side: events.SideBuy, Direction: events.DirectionShort, Symbol: "2603", Origin: "F1"},
		// margin 19,800 released plus 1,950 profit
		events.OrderFilled{OrderNo: "C1", PositionID: "Q1", Side: events.SideBuy, Shares: 1000, Cash: d("21750"), Profit: d("1950"), Remaining: 0},
	}
	base := []events.Payload{cash("100000"), started("50000"), spend, buy, bought}
	join := func(pss ...[]events.Payload) []events.Payload {
		var out []events.Payload
		for _, ps := range pss {
			out = append(out, ps...)
		}
		return out
	}
	// the member spent all but 1,000 of its available cash meanwhile
	spentMeanwhile := events.TradeCashFrozen{OrderNo: "T9", Amount: d("19028"), Postings: events.FollowPostings("m1", "TWD", d("19028"), false)}
	for _, c := range []struct {
		name      string
		log       []events.Payload
		order     string
		want      string // "" nothing
		remaining string
	}{
		{"mirrored sale", join(base, sale("T2", "F1")), "T2", "21903", "51875"},
		{"mirrored cover", join([]events.Payload{cash("100000"), started("50000")}, short), "C1", "21750", "51950"},
		{"own sale of the follow's position", join(base, sale("T2", "")), "T2", "", ""},
		{"after the stop", join(base, sale("T2", "F1"), []events.Payload{events.FollowStopped{FollowID: "F1", State: events.FollowCancelled}}), "T2", "", ""},
		{"not more than available", join([]events.Payload{cash("50000"), started("50000"), spend, buy, bought}, sale("T2", "F1"), []events.Payload{spentMeanwhile}), "T2", "1000", "30972"},
	} {
		t.Run(c.name, func(t *testing.T) {
			a := account(c.log...)
			out, err := decideReclaim(a, c.order, events.CopyReturnSold)
			if err != nil {
				t.Fatal(err)
			}
			if c.want == "" {
				if len(out) != 0 {
					t.Fatalf("returned %v", out)
				}
				return
			}
			if len(out) != 1 {
				t.Fatalf("reclaim %v", out)
			}
			e := out[0].(events.CopyFundsReturned)
			if e.FollowID != "F1" || e.Reason != events.CopyReturnSold || e.Ref != reclaimPrefix+c.order || !e.Amount.Equal(d(c.want)) ||
				events.CheckBalanced(e.Postings) != nil {
				t.Fatalf("reclaim %+v", e)
			}
			a.Apply(events.RecordedEvent{}, e)
			if f := copyPart.Of(a).follows["F1"]; !f.remaining().Equal(d(c.remaining)) {
				t.Errorf("remaining %s, want %s", f.remaining(), c.remaining)
			}
			if out, _ := decideReclaim(a, c.order, events.CopyReturnSold); len(out) != 0 {
				t.Errorf("returned twice %v", out)
			}
		})
	}
}

// A mirrored short sale takes its margin at the limit-up from the commitment, never more than is
// left; a refusal gives it back naming the refused short; the short's position counts for the
// follow until the cover closes it.
func TestShortSpendReturnAndPosition(t *testing.T) {
	a := account(cash("100000"), started("50000"))
	in := Spend{FollowID: "F1", Ref: "r1", Symbol: "2603", Price: d("20"), LimitUp: d("22"), Value: d("1000000"), MentorEquity: d("1000000"),
		Short: true}
	spent := decimal.Zero
	var first events.CopyFundsSpent
	for i := range 5 {
		in.Ref = string(rune('a' + i))
		out, err := decideSpend(a, in, t0)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range out {
			e := p.(events.CopyFundsSpent)
			if i == 0 {
				first = e
			}
			a.Apply(events.RecordedEvent{}, p)
			spent = spent.Add(e.Amount)
		}
	}
	// each asks 2 lots (the whole 50,000 at 20) for 44,000 / 1.11 = 39,640 of margin: one fits,
	// then 1 lot (19,820) no longer does
	if first.Direction != events.DirectionShort || first.Shares != 2000 || !first.Amount.Equal(d("39640")) || !spent.Equal(d("39640")) {
		t.Fatalf("short spends %+v, %s in all", first, spent)
	}
	out, err := decideReturn(a, "F1", "a", commands.KeyShortBelowReference)
	if err != nil || len(out) != 1 {
		t.Fatalf("return %v %v", out, err)
	}
	if r := out[0].(events.CopyFundsReturned); r.Symbol != "2603" || r.Direction != events.DirectionShort || r.Shares != 2000 ||
		!r.Amount.Equal(d("39640")) || r.Reason != commands.KeyShortBelowReference {
		t.Fatalf("returned %+v", r)
	}
	p := copyPart.Of(a)
	a.Apply(events.RecordedEvent{}, events.OrderPlaced{OrderNo: "T1", PositionID: "T1", Intent: events.IntentOpen, Side: events.SideSell,
		Direction: events.DirectionShort, Symbol: "2603", Origin: "F1"})
	a.Apply(events.RecordedEvent{}, events.OrderFilled{OrderNo: "T1", PositionID: "T1", Side: events.SideSell, Shares: 2000, Cash: d("-36037"),
		Remaining: 0})
	if ps := followPositions(p, "F1"); len(ps) != 1 || !ps[0].Short || ps[0].Shares != 2000 || !p.positions["T1"].held.Equal(d("36037")) {
		t.Fatalf("short position %+v", ps)
	}
	a.Apply(events.RecordedEvent{}, events.OrderFilled{OrderNo: "C1", PositionID: "T1", Side: events.SideBuy, Shares: 1000, Profit: d("1886.5")})
	if ps := followPositions(p, "F1"); len(ps) != 1 || ps[0].Shares != 1000 || !p.positions["T1"].held.Equal(d("18018")) {
		t.Fatalf("after half the cover %+v", ps)
	}
	a.Apply(events.RecordedEvent{}, events.OrderFilled{OrderNo: "C2", PositionID: "T1", Side: events.SideBuy, Shares: 1000, Profit: d("1886.5")})
	if ps := followPositions(p, "F1"); len(ps) != 0 || !p.follows["F1"].profit.Equal(d("3773")) {
		t.Fatalf("after the cover %+v, profit %s", ps, p.follows["F1"].profit)
	}
}
