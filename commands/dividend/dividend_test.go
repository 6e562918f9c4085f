package dividend

import (
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/lotbook/lotbook/commands"
	"github.com/lotbook/lotbook/commands/commandstest"
	"github.com/lotbook/lotbook/events"
)

var d = decimal.RequireFromString

func apply(a *commands.Account, ps ...events.Payload) {
	for _, p := range ps {
		a.Apply(events.RecordedEvent{Metadata: events.Metadata{ServerTime: commandstest.T0}}, p)
	}
}

func key(err error) string {
	if e, ok := commands.AsError(err); ok {
		return e.Key
	}
	return ""
}

// An entitlement is recorded once; its payment waits for the payment date, balances, carries the
// new shares as a zero-cost position, and is made once.
func TestEntitleAndPay(t *testing.T) {
	t0 := commandstest.T0
	dist := Distribution{ID: "2330-2026Q1", Symbol: "2330", Name: "台積電", Kind: "stock", Period: "2026Q1", Cash: d("4.5"), Stock: d("0.5"),
		ExDate: t0, RecordDate: t0.AddDate(0, 0, 7), PayDate: t0.AddDate(0, 0, 30)}
	a := commands.NewAccount("m1")
	for _, bad := range []Entitle{{MemberID: "m1", Distribution: dist, Shares: 0}, {MemberID: "m1", Distribution: Distribution{}, Shares: 10}} {
		if _, err := decideEntitle(a, bad); key(err) != commands.KeyInvalidRequest {
			t.Fatalf("entitle %+v: %v", bad, err)
		}
	}
	if _, err := decidePay(a, OrderNo(dist.ID), t0); key(err) != commands.KeyOrderNotFound {
		t.Fatalf("pay before entitled: %v", err)
	}
	evs, err := decideEntitle(a, Entitle{MemberID: "m1", Distribution: dist, Shares: 5000})
	if err != nil || len(evs) != 1 {
		t.Fatalf("entitle: %v %v", evs, err)
	}
	e := evs[0].(events.DividendEntitled)
	// 5,000 × 4.5 = 22,500 ≥ 20,000: NHI 475 (474.75), fee 10; 5,000 × 0.05 = 250 new shares.
	if e.Gross.String() != "22500" || e.NHI.String() != "475" || e.Net.String() != "22015" || e.NewShares != 250 || e.PayDate != dist.PayDate.In(commands.Taipei).Format(time.DateOnly) {
		t.Fatalf("entitled %+v", e)
	}
	apply(a, e)
	if again, err := decideEntitle(a, Entitle{MemberID: "m1", Distribution: dist, Shares: 9000}); err != nil || len(again) != 0 {
		t.Fatalf("a second entitlement: %v %v", again, err)
	}
	if _, err := decidePay(a, e.OrderNo, dist.PayDate.Add(-time.Second)); key(err) != commands.KeyOrderNotPending {
		t.Fatalf("pay before the date: %v", err)
	}
	paid, err := decidePay(a, e.OrderNo, dist.PayDate)
	if err != nil || len(paid) != 4 {
		t.Fatalf("pay: %v %v", paid, err)
	}
	for _, p := range paid {
		if m, ok := p.(events.MovesMoney); ok {
			if err := events.CheckBalanced(m.MoneyPostings()); err != nil {
				t.Fatalf("%s: %v", p.EventName(), err)
			}
		}
	}
	if f, ok := paid[2].(events.OrderFilled); !ok || f.Shares != 250 || !f.Amount.IsZero() || f.PositionID != "DV2330-2026Q1-S" {
		t.Fatalf("new shares %+v", paid[2])
	}
	apply(a, paid...)
	if again, err := decidePay(a, e.OrderNo, dist.PayDate); err != nil || len(again) != 0 {
		t.Fatalf("a second payment: %v %v", again, err)
	}
	if got := a.Balances["TWD"].Available; got.String() != "22015" {
		t.Fatalf("available %s", got)
	}
}
