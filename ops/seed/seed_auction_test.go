package seed_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/lotbook/lotbook/commands"
	"github.com/lotbook/lotbook/commands/rules/secret"
	"github.com/lotbook/lotbook/events"
	"github.com/lotbook/lotbook/events/sqlite"
	"github.com/lotbook/lotbook/ops/seed"
)

// TestDemoHasAnAuctionAndAPlacementOpen: whatever the day, the demo's auction and placement are
// open then, and a second start the same day lists nothing again.
func TestDemoHasAnAuctionAndAPlacementOpen(t *testing.T) {
	ctx := context.Background()
	store, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "events.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	now := time.Date(2026, 11, 24, 7, 30, 0, 0, time.UTC) // 15:30 in Taipei
	svc := commands.New(store, commands.Options{PasswordCost: secret.TestCost, Sealer: demoOptions(nil).Sealer, Clock: func() time.Time { return now }})
	for range 2 {
		if err := seed.Demo(ctx, svc); err != nil {
			t.Fatal(err)
		}
	}
	evs, err := store.ReadStream(ctx, events.AuctionStream("2345-20261123"), 0)
	if err != nil || len(evs) != 2 {
		t.Fatalf("the demo auction's stream: %d events, %v", len(evs), err)
	}
	p, err := events.DecodeRecorded(evs[0])
	if err != nil {
		t.Fatal(err)
	}
	if a := p.(events.AuctionListed); !a.OpensAt.Before(now) || !a.ClosesAt.After(now) || a.AwardDate <= "2026-11-25" {
		t.Fatalf("demo auction %+v is not open on %v", a, now)
	}
	evs, err = store.ReadStream(ctx, events.PlacementStream("6669-20261123"), 0)
	if err != nil || len(evs) != 2 {
		t.Fatalf("the demo placement's stream: %d events, %v", len(evs), err)
	}
	if p, err = events.DecodeRecorded(evs[0]); err != nil {
		t.Fatal(err)
	}
	if o := p.(events.PlacementOffered); !o.OpensAt.Before(now) || !o.ClosesAt.After(now) {
		t.Fatalf("demo placement %+v is not open on %v", o, now)
	}
}
