package commands

import (
	"testing"
	"time"

	"github.com/lotbook/lotbook/events"
)

var testBlock = events.BlockListed{BlockID: "blk", Symbol: "2330", Name: "台積電", Kind: "stock", ReferencePrice: d("1000"),
	Price: d("980"), MinLots: 10, DailyCapLots: 30, OpensAt: t0.Add(-time.Hour), ClosesAt: t0.Add(48 * time.Hour)}

func applyOK() blockApplication {
	return blockApplication{lots: 10, bid: d("980"), block: testBlock, open: true, facts: tradeFacts{registered: true}, now: t0,
		password: true, orderNo: func(n int) string { return []string{"B1", "B2", "B3"}[n] }}
}

// applied is an account with amount available that applied app (decided on it).
func applied(t *testing.T, amount string, r blockApplication) *accountState {
	t.Helper()
	a := funded(amount)
	ps, err := decideApplyBlock(a, r)
	if err != nil {
		t.Fatal(err)
	}
	return build(a, nil, ps...)
}

func TestDecideApplyBlock(t *testing.T) {
	with := func(f func(*blockApplication)) blockApplication { r := applyOK(); f(&r); return r }
	twenty := func() *accountState { return applied(t, "50000000", with(func(r *blockApplication) { r.lots = 20 })) }
	cases := []struct {
		name string
		a    *accountState
		r    blockApplication
		key  string
	}{
		{"at the minimum", funded("10000000"), applyOK(), ""},
		{"frozen account", funded("10000000"), with(func(r *blockApplication) { r.facts.frozen = true }), KeyAccountFrozen},
		{"trade banned", funded("10000000"), with(func(r *blockApplication) { r.facts.banned = true }), KeyTradeBanned},
		{"closed", funded("10000000"), with(func(r *blockApplication) { r.open = false }), KeyBlockClosed},
		{"wrong password", funded("10000000"), with(func(r *blockApplication) { r.password = false }), KeyBlockPasswordWrong},
		{"below the minimum", funded("10000000"), with(func(r *blockApplication) { r.lots = 9 }), "block_below_minimum"},
		{"up to the daily cap", twenty(), applyOK(), ""},
		{"over the daily cap", twenty(), with(func(r *blockApplication) { r.lots = 11 }), "block_over_daily_cap"},
		{"the cap counts per day", twenty(), with(func(r *blockApplication) { r.lots = 30; r.now = t0.Add(24 * time.Hour) }), ""},
		{"bid below the price", funded("10000000"), with(func(r *blockApplication) { r.bid = d("979.99") }), "block_bid_below_minimum"},
		{"one dollar short", funded("9813964"), applyOK(), KeyInsufficientBalance},
		{"exactly enough", funded("9813965"), applyOK(), ""},
	}
	for _, c := range cases {
		ps, err := decideApplyBlock(c.a, c.r)
		if c.key != "" {
			if e, ok := AsError(err); !ok || e.Key != c.key || len(ps) != 0 {
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

func TestDecideApproveBlock(t *testing.T) {
	// Bid 985 for 10 lots of a block at 980: frozen 9,850,000 + 14,036 commission.
	a := applied(t, "10000000", func() blockApplication { r := applyOK(); r.bid = d("985"); return r }())
	if got := a.balances[TWD]; !got.Frozen.Equal(d("9864036")) || !got.Available.Equal(d("135964")) {
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
	a = build(a, nil, ps...)
	// Paid 9,813,965 of the 9,864,036 frozen: the rest is back in available, nothing stays frozen.
	if got := a.balances[TWD]; !got.Frozen.IsZero() || !got.Available.Equal(d("186035")) {
		t.Fatalf("after approval %+v", got)
	}
	pos := tradingPart.of(a).positions["B1"]
	if pos == nil || pos.status() != PositionHolding || pos.shares != 10000 || !pos.onLedger || !pos.basis.Equal(d("9813965")) {
		t.Fatalf("position %+v", pos)
	}
	for _, again := range []func() ([]events.Payload, error){
		func() ([]events.Payload, error) { return decideApproveBlock(a, "B1", "", t0) },
		func() ([]events.Payload, error) { return decideRejectBlock(a, "B1", "late") },
	} {
		if _, err := again(); err == nil || err.(*Error).Key != KeyOrderNotPending {
			t.Errorf("second decision: %v, want order_not_pending", err)
		}
	}
	if _, err := decideApproveBlock(a, "B9", "", t0); err == nil || err.(*Error).Key != KeyOrderNotFound {
		t.Errorf("unknown application: %v", err)
	}
}

func TestDecideRejectBlock(t *testing.T) {
	a := applied(t, "10000000", applyOK())
	ps, err := decideRejectBlock(a, "B1", "allocation full")
	if err != nil || len(ps) != 1 {
		t.Fatalf("%v %v", ps, err)
	}
	a = build(a, nil, ps...)
	if got := a.balances[TWD]; !got.Frozen.IsZero() || !got.Available.Equal(d("10000000")) {
		t.Fatalf("after rejection %+v", got)
	}
	// A rejected application no longer counts against the daily cap.
	if n := blockPart.of(a).appliedOn("blk", "2026-11-23"); n != 0 {
		t.Errorf("applied after rejection %d", n)
	}
}

func TestDecideListBlock(t *testing.T) {
	q := BlockQuote{Symbol: "2330", Name: "台積電", Reference: d("1000"), LimitUp: d("1100"), LimitDown: d("900")}
	ok := ListBlockInput{PremiumPercent: "-2", MinLots: 10, DailyCapLots: 50, OpensAt: t0, ClosesAt: t0.Add(time.Hour)}
	with := func(f func(*ListBlockInput)) ListBlockInput { in := ok; f(&in); return in }
	cases := []struct {
		name  string
		in    ListBlockInput
		q     BlockQuote
		key   string
		price string
	}{
		{"premium", ok, q, "", "980"},
		{"fine premium rounds down", with(func(in *ListBlockInput) { in.PremiumPercent = "1.55" }), BlockQuote{Symbol: "2330", Reference: d("186.5"), LimitUp: d("205"), LimitDown: d("168")}, "", "189.39"},
		{"given price", with(func(in *ListBlockInput) { in.PremiumPercent, in.Price = "", "1050.5" }), q, "", "1050.5"},
		{"both", with(func(in *ListBlockInput) { in.Price = "1000" }), q, KeyPriceRequired, ""},
		{"neither", with(func(in *ListBlockInput) { in.PremiumPercent = "" }), q, KeyPriceRequired, ""},
		{"premium past 10 %", with(func(in *ListBlockInput) { in.PremiumPercent = "10.01" }), q, KeyPremiumInvalid, ""},
		{"premium typed oddly", with(func(in *ListBlockInput) { in.PremiumPercent = "+2" }), q, KeyPremiumInvalid, ""},
		{"price outside the band", with(func(in *ListBlockInput) { in.PremiumPercent, in.Price = "", "1100.01" }), q, KeyPriceOutOfBand, ""},
		{"price with three decimals", with(func(in *ListBlockInput) { in.PremiumPercent, in.Price = "", "1000.001" }), q, KeyPriceInvalid, ""},
		{"unknown symbol", ok, BlockQuote{}, KeySymbolNotFound, ""},
		{"no minimum", with(func(in *ListBlockInput) { in.MinLots = 0 }), q, KeyLotsInvalid, ""},
		{"cap below minimum", with(func(in *ListBlockInput) { in.DailyCapLots = 9 }), q, KeyLotsInvalid, ""},
		{"closes before it opens", with(func(in *ListBlockInput) { in.ClosesAt = t0 }), q, KeyBlockTimeInvalid, ""},
		{"closes in the past", with(func(in *ListBlockInput) { in.OpensAt, in.ClosesAt = t0.Add(-2*time.Hour), t0.Add(-time.Hour) }), q, KeyBlockTimeInvalid, ""},
	}
	for _, c := range cases {
		ps, err := decideListBlock(&blockState{}, "blk", c.in, c.q, "", t0)
		if c.key != "" {
			if e, ok := AsError(err); !ok || e.Key != c.key {
				t.Errorf("%s: got %v %v, want %s", c.name, ps, err, c.key)
			}
			continue
		}
		if err != nil || len(ps) != 1 || !ps[0].(events.BlockListed).Price.Equal(d(c.price)) {
			t.Errorf("%s: %v %v, want price %s", c.name, ps, err, c.price)
		}
	}
}
