package commands

import (
	"reflect"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/lotbook/lotbook/events"
)

func TestStateForPicksTheRegisteredAggregate(t *testing.T) {
	for _, tc := range []struct {
		stream string
		want   State
	}{
		{events.MemberStream("m1"), &Member{}},
		{events.AccountStream("m1"), &Account{}},
		{events.InviteStream("ABC"), &inviteState{}},
		{events.ConfigStream, &configState{}},
		{"idnumber-x", &guardState{}},
		{"card-x", &guardState{}},
	} {
		if got := stateFor(tc.stream); reflect.TypeOf(got) != reflect.TypeOf(tc.want) {
			t.Errorf("stateFor(%q) = %T, want %T", tc.stream, got, tc.want)
		}
	}
	if a := stateFor(events.AccountStream("m1")).(*Account); a.MemberID != "m1" || a.Available != events.MemberAvailable("m1") {
		t.Errorf("account shell %+v", a.Ledger)
	}
	for _, stream := range []string{"configx", "unknown-1"} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("stateFor(%q) did not refuse an unregistered stream", stream)
				}
			}()
			stateFor(stream)
		}()
	}
}

func TestRegistriesRefuseDuplicates(t *testing.T) {
	for name, register := range map[string]func(){
		"part":        func() { RegisterAccountPart("funds", newFunds) },
		"prefix":      func() { RegisterStreams("account-", func(string) State { return nil }) },
		"overlapping": func() { RegisterStreams("acc", func(string) State { return nil }) },
		"name":        func() { RegisterStream(events.ConfigStream, func() State { return nil }) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s registered twice", name)
				}
			}()
			register()
		}()
	}
}

// An order number held by any part is skipped, and money held by any part is not withdrawable:
// the shell asks its parts without knowing them.
func TestAccountShellAsksItsParts(t *testing.T) {
	t0 := time.Date(2026, 11, 24, 2, 0, 0, 0, time.UTC)
	cand := func(n int) string { return orderNumber("T", "m1", "cmd", t0, n) }
	a := NewAccount("m1")
	rec := func(p events.Payload) { a.Apply(events.RecordedEvent{Metadata: events.Metadata{ServerTime: t0}}, p) }
	rec(events.DepositRequested{OrderNo: cand(0), Currency: TWD, Amount: decimal.NewFromInt(1)})
	rec(events.OrderPlaced{OrderNo: cand(1), Intent: events.IntentOpen, Shares: 1})
	if got := a.FreeOrderNo(cand); got != cand(2) {
		t.Errorf("free order number %s, want %s (the deposit's and the order's taken)", got, cand(2))
	}
	tradingPart.Of(a).unsettled = []unsettledCash{{date: "2026-11-26", amount: decimal.NewFromInt(300)}}
	a.Balances[TWD] = Balance{Available: decimal.NewFromInt(1000)}
	a.Balances["USD"] = Balance{Available: decimal.NewFromInt(50)}
	if got := withdrawable(a, TWD, t0); !got.Equal(decimal.NewFromInt(700)) {
		t.Errorf("withdrawable TWD %s, want 700", got)
	}
	if got := withdrawable(a, "USD", t0); !got.Equal(decimal.NewFromInt(50)) {
		t.Errorf("withdrawable USD %s, want 50", got)
	}
}
