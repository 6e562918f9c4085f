package seed_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/lotbook/lotbook/commands"
	blockcmd "github.com/lotbook/lotbook/commands/block"
	"github.com/lotbook/lotbook/commands/chipgrab"
	"github.com/lotbook/lotbook/commands/rules/secret"
	"github.com/lotbook/lotbook/events/sqlite"
	"github.com/lotbook/lotbook/ops/seed"
)

// The demo's blocks and chip grab open on the day of the start; a second start that day lists
// nothing new, a start the next day lists that day's.
func TestMarketOffersAreMadeOncePerDay(t *testing.T) {
	ctx := context.Background()
	store, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "events.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	now := time.Date(2026, 11, 24, 2, 0, 0, 0, time.UTC)
	cmds := blockcmd.New(commands.New(store, commands.Options{PasswordCost: secret.TestCost, Clock: func() time.Time { return now }}))
	quote := func(symbol string) commands.ListingQuote {
		ref := decimal.NewFromInt(100)
		return commands.ListingQuote{Symbol: symbol, Name: symbol, Reference: ref, LimitUp: decimal.NewFromInt(110), LimitDown: decimal.NewFromInt(90)}
	}
	count := func(typ string) int {
		n := 0
		evs, err := store.ReadAll(ctx, 0, 1000)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range evs {
			if e.Type == typ {
				n++
			}
		}
		return n
	}
	for i, want := range []int{2, 2} {
		if err := seed.Blocks(ctx, cmds, quote, now); err != nil {
			t.Fatalf("start %d: %v", i, err)
		}
		if got := count("BlockListed.v1"); got != want {
			t.Fatalf("start %d: %d blocks listed, want %d", i, got, want)
		}
	}
	cg := chipgrab.New(commands.New(store, commands.Options{PasswordCost: secret.TestCost, Clock: func() time.Time { return now }}))
	cgQuote := func(symbol string) commands.ListingQuote {
		return commands.ListingQuote{Symbol: symbol, Name: symbol, Reference: decimal.NewFromInt(31), LimitUp: decimal.NewFromInt(34), LimitDown: decimal.NewFromInt(28)}
	}
	for range 2 {
		if err := seed.ChipGrab(ctx, cg, cgQuote, now); err != nil {
			t.Fatal(err)
		}
	}
	if got := count("ChipGrabOffered.v1"); got != 1 {
		t.Fatalf("%d chip grabs offered, want 1", got)
	}
	now = now.Add(24 * time.Hour)
	if err := seed.Blocks(ctx, cmds, quote, now); err != nil {
		t.Fatal(err)
	}
	if got := count("BlockListed.v1"); got != 4 {
		t.Fatalf("next day: %d blocks listed, want 4", got)
	}
}
