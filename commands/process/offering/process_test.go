package offering

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/lotbook/lotbook/commands"
	"github.com/lotbook/lotbook/commands/process"
	"github.com/lotbook/lotbook/events"
)

// fact is a payload the test's fold reads as the Fact it carries.
type fact struct{ Fact }

func (fact) EventName() string { return "TestOffering" }

var t0 = time.Date(2026, 11, 24, 1, 0, 0, 0, time.UTC)

func testProcess() *Process {
	none := func(context.Context, commands.Meta, Entry) (commands.Result, error) { return commands.Result{}, nil }
	return New(Config{Spec: Spec{Name: "test-offering", Prefix: "Test", Fold: func(p events.Payload) Fact { return p.(fact).Fact },
		Result: func(context.Context, commands.Meta, string, []Entry) (commands.Result, error) {
			return commands.Result{}, nil
		},
		Steps: SettleThenDeliver(none, none)}})
}

func handle(t *testing.T, p *Process, f Fact) {
	t.Helper()
	if err := p.Handle(context.Background(), events.RecordedEvent{Stream: "account-m1", Type: "TestOffering.v1"}, fact{f}); err != nil {
		t.Fatal(err)
	}
}

func steps(js []job) []string {
	var out []string
	for _, j := range js {
		name := "result"
		if j.step != nil {
			name = j.step.Name + " " + j.entry.No
		}
		out = append(out, name)
	}
	return out
}

// TestAFinishedOfferingIsForgotten: the fold holds an offering until every entry has had each step
// that concerns it; then the next round forgets it, the checkpoint keeps nothing of it, and its
// events folded again (a restart from an older checkpoint) change nothing.
func TestAFinishedOfferingIsForgotten(t *testing.T) {
	p := testProcess()
	listing := t0.Add(48 * time.Hour)
	handle(t, p, Fact{Kind: Offered, Offering: "A-1", ResultAt: t0, At: map[string]time.Time{Delivered: listing}})
	handle(t, p, Fact{Kind: Offered, Offering: "B-1"}) // ops trigger its result: none due yet
	handle(t, p, Fact{Kind: Entered, Offering: "A-1", No: "1"})
	handle(t, p, Fact{Kind: Entered, Offering: "A-1", No: "2"})
	if got := steps(p.due(t0.Add(-time.Second))); len(got) != 0 {
		t.Fatalf("due before the result: %v", got)
	}
	if got := steps(p.due(t0)); len(got) != 1 || got[0] != "result" {
		t.Fatalf("due at the result: %v", got)
	}
	handle(t, p, Fact{Kind: Resulted, Offering: "A-1"})
	if got := steps(p.due(t0)); len(got) != 2 || got[0] != "settle 1" || got[1] != "settle 2" {
		t.Fatalf("due after the result: %v", got)
	}
	handle(t, p, Fact{Kind: Done, Step: Settled, Offering: "A-1", No: "1", Paid: true})
	handle(t, p, Fact{Kind: Done, Step: Settled, Offering: "A-1", No: "2"})
	if got := steps(p.due(listing.Add(-time.Second))); len(got) != 0 || p.Offerings() != 2 {
		t.Fatalf("due before the listing: %v (%d offerings)", got, p.Offerings())
	}
	if got := steps(p.due(listing)); len(got) != 1 || got[0] != "deliver 1" {
		t.Fatalf("due at the listing: %v", got)
	}
	handle(t, p, Fact{Kind: Done, Step: Delivered, Offering: "A-1", No: "1"})
	if got := steps(p.due(listing)); len(got) != 0 || p.Offerings() != 1 {
		t.Fatalf("after the last delivery: %v (%d offerings)", got, p.Offerings())
	}
	snap, err := p.Snapshot()
	if err != nil || string(snap) != `{"form":2,"offerings":{"B-1":{"resultAt":"0001-01-01T00:00:00Z","entries":{}}}}` {
		t.Fatalf("checkpoint %s %v", snap, err)
	}
	handle(t, p, Fact{Kind: Done, Step: Delivered, Offering: "A-1", No: "1"})
	if p.Offerings() != 1 {
		t.Fatal("an event of a forgotten offering brought it back")
	}
	// A result over no entries finishes the offering at once.
	handle(t, p, Fact{Kind: Triggered, Offering: "B-1", ResultAt: listing})
	handle(t, p, Fact{Kind: Resulted, Offering: "B-1"})
	if p.due(listing); p.Offerings() != 0 {
		t.Fatalf("%d offerings left", p.Offerings())
	}
}

func TestACheckpointOfAnOlderFormIsRefolded(t *testing.T) {
	p := testProcess()
	// The auction's and placement's checkpoint before the lottery joined them, and the lottery's.
	for _, old := range []string{`{"AB-20261124":{"resultAt":"2026-11-24T00:00:00Z","entries":{}}}`, `{"issues":{},"closed":["X-20261124"]}`} {
		if err := p.Restore([]byte(old)); !errors.Is(err, process.ErrRefold) {
			t.Fatalf("restore %s: %v", old, err)
		}
	}
	if err := p.Restore([]byte(`{"form":2,"offerings":{"A-1":{"resultAt":"2026-11-24T00:00:00Z","entries":{"1":"m1"}}}}`)); err != nil || p.Offerings() != 1 {
		t.Fatalf("restore: %v", err)
	}
}
