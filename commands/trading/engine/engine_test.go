package engine

import (
	"bytes"
	"context"
	"testing"

	"github.com/shopspring/decimal"

	"github.com/lotbook/lotbook/events"
)

func recorded(t *testing.T, pos int64, member string, p events.Payload) (events.RecordedEvent, events.Payload) {
	t.Helper()
	typ, data, err := events.Encode(p)
	if err != nil {
		t.Fatal(err)
	}
	return events.RecordedEvent{Stream: "account-" + member, Position: pos, Type: typ, Data: data}, p
}

// The fold saved with the checkpoint is the fold restored: a restart from it holds the same
// working orders, open positions and margin calls as the engine that saved it.
func TestTheCheckpointStateRestoresTheBook(t *testing.T) {
	e := New(Config{})
	price := decimal.RequireFromString("186")
	for i, ev := range []struct {
		member string
		p      events.Payload
	}{
		{"m1", events.OrderPlaced{OrderNo: "T1", PositionID: "T1", Intent: events.IntentOpen, Symbol: "2603", Side: events.SideBuy,
			Direction: events.DirectionLong, Shares: 2000, Price: price, TradingDay: "2026-11-24", By: events.OrderByMember}},
		{"m2", events.OrderPlaced{OrderNo: "T2", PositionID: "T2", Intent: events.IntentOpen, Symbol: "2330", Side: events.SideSell,
			Direction: events.DirectionShort, Shares: 1000, Price: price, TradingDay: "2026-11-24", By: events.OrderByMember}},
		{"m1", events.OrderFilled{OrderNo: "T1", PositionID: "T1", Side: events.SideBuy, Seq: 1, Shares: 1000, Remaining: 1000,
			Loan: decimal.NewFromInt(50000)}},
		{"m2", events.OrderCancelled{OrderNo: "T2", PositionID: "T2", Shares: 1000}},
		{"m1", events.MarginCallIssued{Deadline: "2026-11-26"}},
	} {
		r, p := recorded(t, int64(i+1), ev.member, ev.p)
		if !e.Wants(r.Type) {
			t.Fatalf("the engine does not fold %s", r.Type)
		}
		if err := e.Handle(context.Background(), r, p); err != nil {
			t.Fatal(err)
		}
	}
	if e.Wants("FavoriteAdded.v1") {
		t.Fatal("the engine wants favourites")
	}
	state, err := e.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	restored := New(Config{})
	if err := restored.Restore(state); err != nil {
		t.Fatal(err)
	}
	if !restored.Holds("T1") || restored.Holds("T2") {
		t.Fatal("restored book: T1 must work (half filled), T2 is cancelled")
	}
	again, err := restored.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(state, again) {
		t.Fatalf("restored state differs:\n%s\n%s", state, again)
	}
	if got := restored.positions["T1"]; got == nil || got.Shares != 1000 || !got.Loan.Equal(decimal.NewFromInt(50000)) {
		t.Fatalf("restored position %+v", got)
	}
	if restored.calls["m1"] != "2026-11-26" {
		t.Fatalf("restored margin calls %v", restored.calls)
	}
	if restored.resting["2603"] != 1 || restored.resting["2330"] != 0 {
		t.Fatalf("restored resting counts %v", restored.resting)
	}
}
