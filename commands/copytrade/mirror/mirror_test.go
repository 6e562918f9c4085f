package mirror

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/lotbook/lotbook/commands"
	"github.com/lotbook/lotbook/commands/copytrade"
	"github.com/lotbook/lotbook/events"
)

// fake records the commands the process sends, in order.
type fake struct {
	calls   []string
	working []string
	state   string
	held    []copytrade.Position
}

// Spend allows 2 lots of every fill.
func (f *fake) Spend(_ context.Context, _ commands.Meta, in copytrade.Spend) (copytrade.Result, error) {
	f.calls = append(f.calls, fmt.Sprintf("spend %s short=%t at %s limit-up %s", in.Symbol, in.Short, in.Price, in.LimitUp))
	return copytrade.Result{Shares: 2000}, nil
}
func (f *fake) Return(context.Context, commands.Meta, string, string, string, string) (copytrade.Result, error) {
	return copytrade.Result{}, nil
}
func (f *fake) Reclaim(_ context.Context, _ commands.Meta, follower, orderNo, reason string) (copytrade.Result, error) {
	f.calls = append(f.calls, "reclaim "+follower+" "+orderNo+" "+reason)
	return copytrade.Result{}, nil
}
func (f *fake) Working(context.Context, string, string) ([]string, error) { return f.working, nil }
func (f *fake) RequestStop(_ context.Context, _ commands.Meta, in copytrade.Stop) (copytrade.Result, error) {
	f.calls = append(f.calls, "request stop "+in.FollowID)
	return copytrade.Result{}, nil
}
func (f *fake) Stop(_ context.Context, _ commands.Meta, in copytrade.Stop) (copytrade.Result, error) {
	f.calls = append(f.calls, "stop "+in.FollowID)
	return copytrade.Result{}, nil
}
func (f *fake) ReceiveShare(context.Context, commands.Meta, string, string, string, decimal.Decimal) (copytrade.Result, error) {
	return copytrade.Result{}, nil
}
func (f *fake) Holdings(context.Context, string, string) ([]copytrade.Position, string, error) {
	return f.held, f.state, nil
}
func (f *fake) Mentor(context.Context, string, string) (copytrade.MentorPosition, error) {
	return copytrade.MentorPosition{}, nil
}
func (f *fake) Open(_ context.Context, _ commands.Meta, member string, t Ticket) (string, error) {
	f.calls = append(f.calls, fmt.Sprintf("open %s %s %d short=%t at %s", member, t.Symbol, t.Shares, t.Short, t.Price))
	return "T9", nil
}
func (f *fake) Close(_ context.Context, _ commands.Meta, member, positionID, _ string, shares int64, _, _ string) error {
	f.calls = append(f.calls, fmt.Sprintf("close %s %s %d", member, positionID, shares))
	return nil
}
func (f *fake) Cancel(_ context.Context, _ commands.Meta, member, orderNo string) error {
	f.calls = append(f.calls, "cancel "+member+" "+orderNo)
	if orderNo == "T2" {
		return commands.Rule(commands.KeyOrderNotPending) // filled meanwhile: no error
	}
	return nil
}
func (f *fake) OddLots() bool                  { return false }
func (f *fake) LimitUp(string) decimal.Decimal { return decimal.NewFromInt(22) }

var t0 = time.Date(2026, 3, 2, 2, 0, 0, 0, time.UTC)

func rec(stream string) events.RecordedEvent {
	return events.RecordedEvent{Stream: events.AccountStream(stream)}
}

// A follow whose window is over has its working mirrored orders cancelled before it is stopped;
// the cash a follower's order gives back (a done order's, a sale's proceeds) is reclaimed for the
// commitment, a member following nobody is left alone.
func TestEndDueCancelsWorkingOrdersFirst(t *testing.T) {
	f := &fake{working: []string{"T1", "T2"}}
	p := New(Config{Commands: f, Trader: f, Clock: func() time.Time { return t0 }})
	ctx := context.Background()
	if err := p.Handle(ctx, rec("m9"), events.FollowStarted{FollowID: "F1", MentorID: "m1", Ends: t0.Format(time.RFC3339)}); err != nil {
		t.Fatal(err)
	}
	if err := p.Handle(ctx, rec("m9"), events.TradeCashReleased{OrderNo: "T1", Amount: decimal.NewFromInt(100)}); err != nil {
		t.Fatal(err)
	}
	if err := p.Handle(ctx, rec("m8"), events.TradeCashReleased{OrderNo: "T7", Amount: decimal.NewFromInt(100)}); err != nil {
		t.Fatal(err)
	}
	// a follower's closing fill gives its proceeds back: reclaimed; a fill that took cash is not
	for _, e := range []events.Payload{
		events.OrderFilled{OrderNo: "T3", PositionID: "P3", Side: events.SideSell, Shares: 1000, Cash: decimal.NewFromInt(21903)},
		events.OrderFilled{OrderNo: "T4", PositionID: "P4", Side: events.SideBuy, Shares: 1000, Cash: decimal.NewFromInt(-20028)},
	} {
		if err := p.Handle(ctx, rec("m9"), e); err != nil {
			t.Fatal(err)
		}
	}
	if err := p.Handle(ctx, rec("m8"), events.OrderFilled{OrderNo: "T8", PositionID: "P8", Side: events.SideSell, Shares: 1000, Cash: decimal.NewFromInt(100)}); err != nil {
		t.Fatal(err)
	}
	if err := p.EndDue(ctx, t0); err != nil {
		t.Fatal(err)
	}
	want := []string{"reclaim m9 T1 order_done", "reclaim m9 T3 sold", "request stop F1", "cancel m9 T1", "cancel m9 T2", "stop F1"}
	if len(f.calls) != len(want) {
		t.Fatalf("calls %v, want %v", f.calls, want)
	}
	for i := range want {
		if f.calls[i] != want[i] {
			t.Fatalf("calls %v, want %v", f.calls, want)
		}
	}
}

// A stop goes one way every time: requested first (the commitment takes nothing more back), the
// working orders cancelled, the positions read after the request and closed, then stopped. A
// close refused leaves the follow stopping, not stopped: calling again goes on from there.
func TestStopFollowOrder(t *testing.T) {
	f := &fake{working: []string{"T1"}, state: events.FollowStopping, held: []copytrade.Position{{ID: "P1", Symbol: "2330", Shares: 1000}}}
	in := copytrade.Stop{FollowerID: "m9", FollowID: "F1", ClosePositions: true}
	closeAll := func(refuse bool) func([]copytrade.Position) error {
		return func(held []copytrade.Position) error {
			for _, p := range held {
				f.calls = append(f.calls, "close "+p.ID)
			}
			if refuse {
				return commands.Rule(commands.KeyNotTradingTime)
			}
			return nil
		}
	}
	if _, err := StopFollow(context.Background(), f, f.Cancel, commands.Meta{CommandID: "k"}, in, closeAll(true)); err == nil {
		t.Fatal("a refused close stopped the follow")
	}
	if _, err := StopFollow(context.Background(), f, f.Cancel, commands.Meta{CommandID: "k2"}, in, closeAll(false)); err != nil {
		t.Fatal(err)
	}
	want := []string{"request stop F1", "cancel m9 T1", "close P1", "request stop F1", "cancel m9 T1", "close P1", "stop F1"}
	if fmt.Sprint(f.calls) != fmt.Sprint(want) {
		t.Fatalf("calls %v, want %v", f.calls, want)
	}
}

// An order placed for a follow that was stopped meanwhile is cancelled at once.
func TestOrderOfAStoppedFollowIsCancelled(t *testing.T) {
	f := &fake{state: events.FollowCancelled}
	p := New(Config{Commands: f, Trader: f})
	if err := p.cancelIfStopped(context.Background(), rec("m9"), "F1", "m9", "T9"); err != nil {
		t.Fatal(err)
	}
	if len(f.calls) != 1 || f.calls[0] != "cancel m9 T9" {
		t.Fatalf("calls %v", f.calls)
	}
	f = &fake{state: events.FollowInProgress}
	p = New(Config{Commands: f, Trader: f})
	if err := p.cancelIfStopped(context.Background(), rec("m9"), "F1", "m9", "T9"); err != nil || len(f.calls) != 0 {
		t.Fatalf("in progress: calls %v %v", f.calls, err)
	}
}

// A mentor's short sale is mirrored as a short sale at its lowest execution, its margin asked at
// the limit-up; the mentor's cover closes the follow's shorts in the symbol, never its longs.
func TestShortSaleAndCoverAreMirrored(t *testing.T) {
	f := &fake{state: events.FollowInProgress}
	p := New(Config{Commands: f, Trader: f})
	ctx := context.Background()
	steps := []events.Payload{
		events.MentorProfileSet{DisplayName: "Bea"},
		events.FollowStarted{FollowID: "F1", MentorID: "m1", MentorName: "Bea", Ends: t0.Add(time.Hour).Format(time.RFC3339)},
		events.OrderPlaced{OrderNo: "S1", PositionID: "S1", Intent: events.IntentOpen, Side: events.SideSell, Direction: events.DirectionShort, Symbol: "2603"},
		events.OrderFilled{OrderNo: "S1", PositionID: "S1", Side: events.SideSell, Shares: 10000, Amount: decimal.NewFromInt(200500),
			Executions: []events.Execution{{Price: decimal.NewFromInt(21), Shares: 500}, {Price: decimal.NewFromInt(20), Shares: 9500}}, Remaining: 0},
	}
	streams := []string{"m1", "m9", "m1", "m1"}
	for i, e := range steps {
		r := rec(streams[i])
		r.Metadata.ServerTime = t0
		if err := p.Handle(ctx, r, e); err != nil {
			t.Fatal(err)
		}
	}
	want := []string{"spend 2603 short=true at 20 limit-up 22", "open m9 2603 2000 short=true at 20"}
	if fmt.Sprint(f.calls) != fmt.Sprint(want) {
		t.Fatalf("calls %v, want %v", f.calls, want)
	}
	f.calls = nil
	f.held = []copytrade.Position{{ID: "L1", Symbol: "2603", Shares: 1000}, {ID: "P1", Symbol: "2603", Shares: 2000, Short: true}}
	for _, e := range []events.Payload{
		events.OrderPlaced{OrderNo: "C1", PositionID: "S1", Intent: events.IntentClose, Side: events.SideBuy, Direction: events.DirectionShort, Symbol: "2603"},
		events.OrderFilled{OrderNo: "C1", PositionID: "S1", Side: events.SideBuy, Shares: 10000, Amount: decimal.NewFromInt(180000), Remaining: 0},
	} {
		r := rec("m1")
		r.Metadata.ServerTime = t0
		if err := p.Handle(ctx, r, e); err != nil {
			t.Fatal(err)
		}
	}
	if want := []string{"close m9 P1 0"}; fmt.Sprint(f.calls) != fmt.Sprint(want) {
		t.Fatalf("calls %v, want %v", f.calls, want)
	}
}
