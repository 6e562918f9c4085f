package commands

import (
	"encoding/json"
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
		{events.ConfigStream, &Config{}},
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
		"part": func() { RegisterAccountPart("test.hold", func(Ledger) *testHold { return nil }) },
		"member part": func() {
			RegisterMemberPart("test.hold", func(string) *testHold { return nil })
			RegisterMemberPart("test.hold", func(string) *testHold { return nil })
		},
		"config part": func() {
			RegisterConfigPart("test.hold", func() *testHold { return nil })
			RegisterConfigPart("test.hold", func() *testHold { return nil })
		},
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

// testHold is a part of the kernel's tests: it holds the order numbers and keeps the TWD from
// withdrawal that a test gives it.
type testHold struct {
	orders map[string]bool
	held   decimal.Decimal
}

func (h *testHold) Apply(events.RecordedEvent, events.Payload) {}
func (h *testHold) HoldsOrder(no string) bool                  { return h.orders[no] }
func (h *testHold) HeldFromWithdrawal(currency string, _ time.Time) decimal.Decimal {
	if currency == "TWD" {
		return h.held
	}
	return decimal.Zero
}

var holdPart = RegisterAccountPart("test.hold", func(Ledger) *testHold { return &testHold{orders: map[string]bool{}} })

// The same part on the member and config aggregates, so that registering it again is refused.
var (
	_ = RegisterMemberPart("test.hold", func(string) *testHold { return &testHold{} })
	_ = RegisterConfigPart("test.hold", func() *testHold { return &testHold{} })
)

// An order number held by any part is skipped, and money held by any part is not withdrawable:
// the shell asks its parts without knowing them.
func TestAccountShellAsksItsParts(t *testing.T) {
	t0 := time.Date(2026, 11, 24, 2, 0, 0, 0, time.UTC)
	cand := func(n int) string { return OrderNumber("T", "m1", "cmd", t0, n) }
	a := NewAccount("m1")
	h := holdPart.Of(a)
	h.orders[cand(0)], h.orders[cand(1)] = true, true
	if got := a.FreeOrderNo(cand); got != cand(2) {
		t.Errorf("free order number %s, want %s (the first two are held)", got, cand(2))
	}
	h.held = decimal.NewFromInt(300)
	if got := a.HeldFromWithdrawal("TWD", t0); !got.Equal(decimal.NewFromInt(300)) {
		t.Errorf("held TWD %s, want 300", got)
	}
	if got := a.HeldFromWithdrawal("USD", t0); !got.IsZero() {
		t.Errorf("held USD %s, want 0", got)
	}
}

// The balances a command answers with are a copy taken after its events: later events do not
// change them.
func TestAccountSnapshotsBalances(t *testing.T) {
	a := NewAccount("m1")
	credit := func(amount int64) {
		a.Apply(events.RecordedEvent{}, events.DepositApproved{OrderNo: "D1", Currency: "TWD", Amount: decimal.NewFromInt(amount),
			Postings: events.Transfer(events.HouseBankClearing, a.Available, "TWD", decimal.NewFromInt(amount))})
	}
	credit(5000)
	snap := a.snapshot().(map[string]Balance)
	credit(100)
	if !snap["TWD"].Available.Equal(decimal.NewFromInt(5000)) || !a.Balances["TWD"].Available.Equal(decimal.NewFromInt(5100)) {
		t.Fatalf("snapshot %+v, balances %+v", snap, a.Balances)
	}
}

// testHold's snapshot is what the tests set in it (commands.SnapshotPart).
type testHoldSnapshot struct {
	Orders map[string]bool `json:"orders"`
	Held   decimal.Decimal `json:"held"`
}

func (h *testHold) SnapshotVersion() int { return 1 }

func (h *testHold) MarshalSnapshot() ([]byte, error) {
	return json.Marshal(testHoldSnapshot{Orders: h.orders, Held: h.held})
}

func (h *testHold) UnmarshalSnapshot(b []byte) error {
	var s testHoldSnapshot
	err := json.Unmarshal(b, &s)
	h.orders, h.held = s.Orders, s.Held
	return err
}
