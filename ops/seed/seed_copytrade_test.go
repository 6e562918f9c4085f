package seed_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/lotbook/lotbook/commands"
	"github.com/lotbook/lotbook/commands/copytrade"
	"github.com/lotbook/lotbook/commands/trading"
	"github.com/lotbook/lotbook/commands/trading/engine"
	"github.com/lotbook/lotbook/events"
	"github.com/lotbook/lotbook/events/sqlite"
	"github.com/lotbook/lotbook/market"
	"github.com/lotbook/lotbook/ops/seed"
)

// The demo's mentors trade on the simulated demo market through trading's commands: every one
// opts in, its round trips and open lots are real fills, and a second start (a cold kernel too)
// writes nothing.
func TestDemoMentorsTradeForRealAndOnce(t *testing.T) {
	ctx := context.Background()
	store, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "events.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	mkt, err := market.New(market.Config{Seed: 1, Demo: true})
	if err != nil {
		t.Fatal(err)
	}
	view := func(symbol string) trading.Market { return engine.View(mkt, symbol, time.Now()) }
	svc := commands.New(store, demoOptions(nil))
	if err := seed.Demo(ctx, svc); err != nil {
		t.Fatal(err)
	}
	if err := seed.SeedMentors(ctx, svc, view); err != nil {
		t.Fatal(err)
	}
	head, err := store.Head(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []*commands.Service{svc, commands.New(store, demoOptions(nil))} {
		if err := seed.Demo(ctx, s); err != nil {
			t.Fatalf("second seed: %v", err)
		}
		if err := seed.SeedMentors(ctx, s, view); err != nil {
			t.Fatalf("second mentor seed: %v", err)
		}
		if again, _ := store.Head(ctx); again != head {
			t.Fatalf("second seed wrote events: head %d -> %d", head, again)
		}
	}
	for _, m := range seed.Mentors {
		member := events.MemberID(m.Account)
		pr, ok, err := copytrade.New(svc).Profile(ctx, member)
		if err != nil || !ok || pr.DisplayName != m.Name {
			t.Fatalf("mentor %s profile %+v %v %v", m.Account, pr, ok, err)
		}
		evs, err := store.ReadStream(ctx, events.AccountStream(member), 0)
		if err != nil {
			t.Fatal(err)
		}
		shares := int64(0)
		for _, e := range evs {
			pl, err := events.DecodeRecorded(e)
			if err != nil {
				t.Fatal(err)
			}
			if f, ok := pl.(events.OrderFilled); ok {
				shares += f.Shares
			}
		}
		// Each round trip fills a lot twice, each open lot once.
		if want := int64(1000 * (2*m.RoundTrips + m.OpenLots)); shares != want {
			t.Fatalf("mentor %s filled %d shares, want %d", m.Account, shares, want)
		}
	}
}
