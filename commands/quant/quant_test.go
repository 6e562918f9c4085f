package quant

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/shopspring/decimal"

	"github.com/lotbook/lotbook/commands"
	"github.com/lotbook/lotbook/commands/commandstest"
	rules "github.com/lotbook/lotbook/commands/rules/quant"
	"github.com/lotbook/lotbook/events"
)

var d = decimal.RequireFromString

// account is member m1's account after ps.
func account(ps ...events.Payload) *commands.Account {
	return commandstest.Build(commands.NewAccount("m1"), nil, ps...)
}

func deposit(amount string) events.Payload {
	return events.DepositApproved{OrderNo: "D1", Currency: "TWD", Amount: d(amount),
		Postings: events.Transfer(events.HouseBankClearing, events.MemberAvailable("m1"), "TWD", d(amount))}
}

func subNo(int) string { return "AQ1" }

func TestDecideSubscribe(t *testing.T) {
	p, _ := rules.ByID("momentum-0050")
	cases := []struct {
		name, cash, amount, key string
	}{
		{"below the minimum", "500000", "99999", commands.KeyAmountBelowMinimum},
		{"above the cash", "120000", "120001", commands.KeyInsufficientBalance},
		{"the minimum", "100000", "100000", ""},
	}
	for _, c := range cases {
		out, err := decideSubscribe(account(deposit(c.cash)), p, d(c.amount), subNo)
		if c.key != "" {
			if e, ok := commands.AsError(err); !ok || e.Key != c.key {
				t.Errorf("%s: %v, want %s", c.name, err, c.key)
			}
			continue
		}
		if err != nil || len(out) != 1 {
			t.Fatalf("%s: %v %v", c.name, out, err)
		}
		if e := out[0].(events.QuantSubscribed); !e.Amount.Equal(d(c.amount)) || e.SubID != "AQ1" {
			t.Errorf("%s: %+v", c.name, e)
		}
	}
}

// Whatever the strategy asks to release, in any order and repeated, the releases never add up to
// more than the subscription holds, a repeated order is released once, and nothing is released
// once the member left.
func TestReleasesNeverOverspend(t *testing.T) {
	p, _ := rules.ByID("momentum-0050")
	for seed := range uint64(200) {
		rng := rand.New(rand.NewPCG(seed, 7))
		amount := decimal.NewFromInt(100000 + rng.Int64N(400000))
		sub, err := decideSubscribe(account(deposit("500000")), p, amount, subNo)
		if err != nil {
			t.Fatal(err)
		}
		history := []events.Payload{deposit("500000"), sub[0]}
		released := decimal.Zero
		for i := range 30 {
			in := Release{MemberID: "m1", SubID: "AQ1", Symbol: "0050", Shares: 1000,
				OrderCommandID: fmt.Sprintf("o%d", rng.IntN(20)), Amount: decimal.NewFromInt(1 + rng.Int64N(150000))}
			if i == 25 && rng.IntN(2) == 0 {
				left, err := decideLeave(account(history...), "AQ1", false)
				if err != nil {
					t.Fatal(err)
				}
				history = append(history, left...)
			}
			out, err := decideRelease(account(history...), in)
			if err != nil {
				continue
			}
			for _, e := range out {
				released = released.Add(e.(events.QuantFundsReleased).Amount)
			}
			history = append(history, out...)
		}
		a := account(history...)
		if released.GreaterThan(amount) {
			t.Fatalf("seed %d: released %s of %s", seed, released, amount)
		}
		if a.Balances["TWD"].Frozen.IsNegative() || a.Balances["TWD"].Available.IsNegative() {
			t.Fatalf("seed %d: balances %+v", seed, a.Balances["TWD"])
		}
		s := quantPart.Of(a).subs["AQ1"]
		if s.held.IsNegative() || !s.held.Add(released).LessThanOrEqual(amount) {
			t.Fatalf("seed %d: held %s released %s of %s", seed, s.held, released, amount)
		}
	}
}

func TestLeave(t *testing.T) {
	p, _ := rules.ByID("momentum-0050")
	sub, _ := decideSubscribe(account(deposit("200000")), p, d("150000"), subNo)
	a := account(deposit("200000"), sub[0])
	if _, err := decideLeave(a, "AQ2", true); err == nil {
		t.Fatal("left an unknown subscription")
	}
	out, err := decideLeave(a, "AQ1", true)
	if err != nil || !out[0].(events.QuantLeft).Released.Equal(d("150000")) {
		t.Fatalf("leave %v %v", out, err)
	}
	after := account(deposit("200000"), sub[0], out[0])
	if _, err := decideLeave(after, "AQ1", false); err == nil {
		t.Fatal("left twice")
	}
	if b := after.Balances["TWD"]; !b.Available.Equal(d("200000")) || !b.Frozen.IsZero() {
		t.Fatalf("balances after leaving %+v", b)
	}
}
