package block

import (
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/lotbook/lotbook/commands"
	"github.com/lotbook/lotbook/commands/commandstest"
	"github.com/lotbook/lotbook/events"
)

var (
	d  = decimal.RequireFromString
	t0 = commandstest.T0
)

// build applies payloads to an account as if recorded at t0.
func build(a *commands.Account, ps ...events.Payload) *commands.Account {
	for _, p := range ps {
		a.Apply(events.RecordedEvent{Metadata: events.Metadata{ServerTime: t0}}, p)
	}
	return a
}

// funded is an account with amount TWD available (approved deposit D0).
func funded(amount string) *commands.Account {
	a := commands.NewAccount("m1")
	return build(a, events.DepositRequested{OrderNo: "D0", Currency: "TWD", Amount: d(amount)},
		events.DepositApproved{OrderNo: "D0", Currency: "TWD", Amount: d(amount), Postings: events.Transfer(events.HouseBankClearing, a.Available, "TWD", d(amount))})
}

func key(err error) string {
	if e, ok := commands.AsError(err); ok {
		return e.Key
	}
	return ""
}

var testBlock = events.BlockListed{BlockID: "blk", Symbol: "2330", Name: "台積電", Kind: "stock", ReferencePrice: d("1000"),
	Price: d("980"), MinLots: 10, DailyCapLots: 30, OpensAt: t0.Add(-time.Hour), ClosesAt: t0.Add(48 * time.Hour)}

func applyOK() blockApplication {
	return blockApplication{lots: 10, bid: d("980"), block: testBlock, open: true, now: t0,
		password: true, orderNo: func(n int) string { return []string{"B1", "B2", "B3"}[n] }}
}

// applied is an account with amount available that applied app (decided on it).
func applied(t *testing.T, amount string, r blockApplication) *commands.Account {
	t.Helper()
	a := funded(amount)
	ps, err := decideApplyBlock(a, r)
	if err != nil {
		t.Fatal(err)
	}
	return build(a, ps...)
}

func TestDecideApplyBlock(t *testing.T) {
	with := func(f func(*blockApplication)) blockApplication { r := applyOK(); f(&r); return r }
	twenty := func() *commands.Account {
		return applied(t, "50000000", with(func(r *blockApplication) { r.lots = 20 }))
	}
	cases := []struct {
		name string
		a    *commands.Account
		r    blockApplication
		key  string
	}{
		{"at the minimum", funded("10000000"), applyOK(), ""},
		{"may not trade", funded("10000000"), with(func(r *blockApplication) { r.refusal = commands.Forbidden(commands.KeyTradeBanned) }), commands.KeyTradeBanned},
		{"closed", funded("10000000"), with(func(r *blockApplication) { r.open = false }), KeyBlockClosed},
		{"over the block's total left", funded("10000000"), with(func(r *blockApplication) { r.block.TotalLots, r.left = 100, 9 }), KeyBlockOverTotal},
		{"within the block's total left", funded("10000000"), with(func(r *blockApplication) { r.block.TotalLots, r.left = 100, 10 }), ""},
		{"locked out for the day", locked(t, 5), applyOK(), KeyBlockPasswordLock},
		{"locked out even with the password", locked(t, 5), with(func(r *blockApplication) { r.password = true }), KeyBlockPasswordLock},
		{"four failures do not lock", locked(t, 4), applyOK(), ""},
		{"the lock lasts the Taipei day", locked(t, 5), with(func(r *blockApplication) { r.now = t0.Add(24 * time.Hour) }), ""},
		{"below the minimum", funded("10000000"), with(func(r *blockApplication) { r.lots = 9 }), "block_below_minimum"},
		{"up to the daily cap", twenty(), applyOK(), ""},
		{"over the daily cap", twenty(), with(func(r *blockApplication) { r.lots = 11 }), "block_over_daily_cap"},
		{"the cap counts per day", twenty(), with(func(r *blockApplication) { r.lots = 30; r.now = t0.Add(24 * time.Hour) }), ""},
		{"bid below the price", funded("10000000"), with(func(r *blockApplication) { r.bid = d("979.99") }), "block_bid_below_minimum"},
		{"one dollar short", funded("9813964"), applyOK(), commands.KeyInsufficientBalance},
		{"exactly enough", funded("9813965"), applyOK(), ""},
	}
	for _, c := range cases {
		ps, err := decideApplyBlock(c.a, c.r)
		if c.key != "" {
			if key(err) != c.key || len(ps) != 0 {
				t.Errorf("%s: got %v %v, want %s", c.name, ps, err, c.key)
			}
			continue
		}
		if err != nil || len(ps) != 1 {
			t.Fatalf("%s: %v %v", c.name, ps, err)
		}
		e := ps[0].(events.BlockApplied)
		if e.Lots != c.r.lots || e.Shares != c.r.lots*1000 || events.CheckBalanced(e.Postings) != nil {
			t.Errorf("%s: %+v", c.name, e)
		}
	}
}

// locked is an account with 10,000,000 available and n wrong passwords for testBlock at t0.
func locked(t *testing.T, n int) *commands.Account {
	t.Helper()
	a := funded("10000000")
	for range n {
		ps, err := decideApplyBlock(a, func() blockApplication { r := applyOK(); r.password = false; return r }())
		if err != nil || len(ps) != 1 {
			t.Fatalf("wrong password: %v %v", ps, err)
		}
		build(a, ps...)
	}
	return a
}

// A wrong password is recorded, with the count of the day's failures; the fifth locks.
func TestWrongBlockPasswordIsRecorded(t *testing.T) {
	a := funded("10000000")
	wrong := applyOK()
	wrong.password = false
	for want := 1; want <= 5; want++ {
		ps, err := decideApplyBlock(a, wrong)
		if err != nil || len(ps) != 1 {
			t.Fatalf("try %d: %v %v", want, ps, err)
		}
		r := ps[0].(events.BlockPasswordRejected)
		if r.Attempt != want || r.BlockID != "blk" || r.Day != t0.In(commands.Taipei).Format(time.DateOnly) {
			t.Fatalf("try %d: %+v", want, r)
		}
		build(a, ps...)
	}
	if ps, err := decideApplyBlock(a, wrong); key(err) != KeyBlockPasswordLock || len(ps) != 0 {
		t.Fatalf("sixth try: %v %v", ps, err)
	}
	// Another block is not locked.
	other := wrong
	other.block.BlockID = "blk2"
	if ps, err := decideApplyBlock(a, other); err != nil || ps[0].(events.BlockPasswordRejected).Attempt != 1 {
		t.Fatalf("other block: %v %v", ps, err)
	}
}

func TestDecideTakeAndReturnLots(t *testing.T) {
	listed := testBlock
	listed.TotalLots = 25
	b := &blockState{taken: map[string]int64{}, given: map[string]bool{}}
	b.Apply(events.RecordedEvent{}, listed)
	app := func(no string, lots int64) blockApp {
		return blockApp{BlockApplied: events.BlockApplied{OrderNo: no, BlockID: "blk", Lots: lots}}
	}
	ps, err := decideTakeLots(b, app("B1", 20), "m1")
	if err != nil || len(ps) != 1 || ps[0].(events.BlockLotsTaken).RemainingLots != 5 {
		t.Fatalf("take: %v %v", ps, err)
	}
	b.Apply(events.RecordedEvent{}, ps[0])
	if ps, err := decideTakeLots(b, app("B1", 20), "m1"); err != nil || len(ps) != 0 {
		t.Fatalf("taking again: %v %v", ps, err)
	}
	if _, err := decideTakeLots(b, app("B2", 6), "m2"); key(err) != KeyBlockOverTotal {
		t.Fatalf("over the total: %v", err)
	}
	ps, err = decideReturnLots(b, "B1")
	if err != nil || len(ps) != 1 || ps[0].(events.BlockLotsReturned).RemainingLots != 25 {
		t.Fatalf("return: %v %v", ps, err)
	}
	b.Apply(events.RecordedEvent{}, ps[0])
	if ps, err := decideReturnLots(b, "B1"); err != nil || len(ps) != 0 {
		t.Fatalf("returning again: %v %v", ps, err)
	}
	if ps, err := decideTakeLots(b, app("B2", 6), "m2"); err != nil || ps[0].(events.BlockLotsTaken).RemainingLots != 19 {
		t.Fatalf("after the return: %v %v", ps, err)
	}
}

func TestDecideApproveBlock(t *testing.T) {
	// Bid 985 for 10 lots of a block at 980: frozen 9,850,000 + 14,036 commission.
	a := applied(t, "10000000", func() blockApplication { r := applyOK(); r.bid = d("985"); return r }())
	if got := a.Balances["TWD"]; !got.Frozen.Equal(d("9864036")) || !got.Available.Equal(d("135964")) {
		t.Fatalf("after applying %+v", got)
	}
	ps, err := decideApproveBlock(a, "B1", "ok", t0)
	if err != nil || len(ps) != 3 {
		t.Fatalf("approve: %v %v", ps, err)
	}
	for _, p := range ps {
		if m, ok := p.(events.MovesMoney); ok {
			if err := events.CheckBalanced(m.MoneyPostings()); err != nil {
				t.Fatalf("%s: %v", p.EventName(), err)
			}
		}
	}
	fill := ps[2].(events.OrderFilled)
	if !fill.Amount.Equal(d("9800000")) || !fill.Commission.Equal(d("13965")) || fill.Remaining != 0 || fill.Security != "TW:2330" {
		t.Fatalf("fill %+v", fill)
	}
	a = build(a, ps...)
	// Paid 9,813,965 of the 9,864,036 frozen: the rest is back in available, nothing stays frozen.
	if got := a.Balances["TWD"]; !got.Frozen.IsZero() || !got.Available.Equal(d("186035")) {
		t.Fatalf("after approval %+v", got)
	}
	if o := ps[1].(events.OrderPlaced); o.By != events.OrderByBlock || o.Intent != events.IntentOpen || o.Shares != 10000 || !o.Price.Equal(d("980")) {
		t.Fatalf("order %+v", o)
	}
	if !fill.Basis.Equal(d("9813965")) || len(fill.Postings) != 5 {
		t.Fatalf("fill basis and legs %+v", fill)
	}
	for _, again := range []func() ([]events.Payload, error){
		func() ([]events.Payload, error) { return decideApproveBlock(a, "B1", "", t0) },
		func() ([]events.Payload, error) { return decideRejectBlock(a, "B1", "late") },
	} {
		if _, err := again(); err == nil || key(err) != commands.KeyOrderNotPending {
			t.Errorf("second decision: %v, want order_not_pending", err)
		}
	}
	if _, err := decideApproveBlock(a, "B9", "", t0); err == nil || key(err) != commands.KeyOrderNotFound {
		t.Errorf("unknown application: %v", err)
	}
}

func TestDecideRejectBlock(t *testing.T) {
	a := applied(t, "10000000", applyOK())
	ps, err := decideRejectBlock(a, "B1", "allocation full")
	if err != nil || len(ps) != 1 {
		t.Fatalf("%v %v", ps, err)
	}
	a = build(a, ps...)
	if got := a.Balances["TWD"]; !got.Frozen.IsZero() || !got.Available.Equal(d("10000000")) {
		t.Fatalf("after rejection %+v", got)
	}
	// A rejected application no longer counts against the daily cap.
	if n := blockPart.Of(a).appliedOn("blk", "2026-11-23"); n != 0 {
		t.Errorf("applied after rejection %d", n)
	}
}

func TestDecideListBlock(t *testing.T) {
	q := commands.ListingQuote{Symbol: "2330", Name: "台積電", Reference: d("1000"), LimitUp: d("1100"), LimitDown: d("900")}
	ok := ListBlockInput{PremiumPercent: "-2", MinLots: 10, DailyCapLots: 50, TotalLots: 100, OpensAt: t0, ClosesAt: t0.Add(time.Hour)}
	cheap := commands.ListingQuote{Symbol: "2882", Reference: d("30"), LimitUp: d("33"), LimitDown: d("27")}
	with := func(f func(*ListBlockInput)) ListBlockInput { in := ok; f(&in); return in }
	cases := []struct {
		name  string
		in    ListBlockInput
		q     commands.ListingQuote
		key   string
		price string
	}{
		{"premium", ok, q, "", "980"},
		{"fine premium rounds down", with(func(in *ListBlockInput) { in.PremiumPercent = "1.55" }), commands.ListingQuote{Symbol: "2330", Reference: d("186.5"), LimitUp: d("205"), LimitDown: d("168")}, "", "189.39"},
		{"given price", with(func(in *ListBlockInput) { in.PremiumPercent, in.Price = "", "1050.5" }), q, "", "1050.5"},
		{"both", with(func(in *ListBlockInput) { in.Price = "1000" }), q, commands.KeyPriceRequired, ""},
		{"neither", with(func(in *ListBlockInput) { in.PremiumPercent = "" }), q, commands.KeyPriceRequired, ""},
		{"premium past 10 %", with(func(in *ListBlockInput) { in.PremiumPercent = "10.01" }), q, KeyPremiumInvalid, ""},
		{"premium typed oddly", with(func(in *ListBlockInput) { in.PremiumPercent = "+2" }), q, KeyPremiumInvalid, ""},
		{"price outside the band", with(func(in *ListBlockInput) { in.PremiumPercent, in.Price = "", "1100.01" }), q, commands.KeyPriceOutOfBand, ""},
		{"price with three decimals", with(func(in *ListBlockInput) { in.PremiumPercent, in.Price = "", "1000.001" }), q, commands.KeyPriceInvalid, ""},
		{"unknown symbol", ok, commands.ListingQuote{}, commands.KeySymbolNotFound, ""},
		{"no minimum", with(func(in *ListBlockInput) { in.MinLots = 0 }), q, KeyLotsInvalid, ""},
		{"cap below minimum", with(func(in *ListBlockInput) { in.DailyCapLots = 9 }), q, KeyLotsInvalid, ""},
		{"total below the cap", with(func(in *ListBlockInput) { in.TotalLots = 49 }), q, KeyLotsInvalid, ""},
		{"total past the bound", with(func(in *ListBlockInput) { in.TotalLots = 100_001 }), q, KeyLotsInvalid, ""},
		// 16 lots at 980 are worth 15,680,000: a block by value; 15 lots (14,700,000) are not.
		{"block by value", with(func(in *ListBlockInput) { in.DailyCapLots, in.TotalLots = 15, 16 }), q, "", "980"},
		{"too small a block", with(func(in *ListBlockInput) { in.DailyCapLots, in.TotalLots = 15, 15 }), q, KeyBlockSizeTooSmall, ""},
		// At 30, 500 lots make a block (15,000,000 by value too); 499 lots are neither.
		{"block by units", with(func(in *ListBlockInput) { in.PremiumPercent, in.Price, in.TotalLots = "", "30", 500 }), cheap, "", "30"},
		{"499 units at 30", with(func(in *ListBlockInput) { in.PremiumPercent, in.Price, in.TotalLots = "", "30", 499 }), cheap, KeyBlockSizeTooSmall, ""},
		{"closes before it opens", with(func(in *ListBlockInput) { in.ClosesAt = t0 }), q, KeyBlockTimeInvalid, ""},
		{"closes in the past", with(func(in *ListBlockInput) { in.OpensAt, in.ClosesAt = t0.Add(-2*time.Hour), t0.Add(-time.Hour) }), q, KeyBlockTimeInvalid, ""},
	}
	for _, c := range cases {
		ps, err := decideListBlock(&blockState{}, "blk", c.in, c.q, "", t0)
		if c.key != "" {
			if key(err) != c.key {
				t.Errorf("%s: got %v %v, want %s", c.name, ps, err, c.key)
			}
			continue
		}
		if err != nil || len(ps) != 1 || !ps[0].(events.BlockListed).Price.Equal(d(c.price)) {
			t.Errorf("%s: %v %v, want price %s", c.name, ps, err, c.price)
		}
	}
}
