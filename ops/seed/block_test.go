package seed_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/lotbook/lotbook/commands"
	blockcmd "github.com/lotbook/lotbook/commands/block"
	"github.com/lotbook/lotbook/commands/rules/secret"
	"github.com/lotbook/lotbook/events/sqlite"
	"github.com/lotbook/lotbook/ops/seed"
)

// The demo's blocks open on the day of the start and stay open a week; a second start that day
// lists nothing new, a start the next day lists that day's two.
func TestBlocksAreListedOncePerDay(t *testing.T) {
	ctx := context.Background()
	store, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "events.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	now := time.Date(2026, 11, 24, 2, 0, 0, 0, time.UTC)
	cmds := blockcmd.New(commands.New(store, commands.Options{PasswordCost: secret.TestCost, Clock: func() time.Time { return now }}))
	quote := func(symbol string) blockcmd.BlockQuote {
		ref := decimal.NewFromInt(100)
		return blockcmd.BlockQuote{Symbol: symbol, Name: symbol, Reference: ref, LimitUp: decimal.NewFromInt(110), LimitDown: decimal.NewFromInt(90)}
	}
	count := func() int {
		n := 0
		evs, err := store.ReadAll(ctx, 0, 1000)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range evs {
			if e.Type == "BlockListed.v1" {
				n++
			}
		}
		return n
	}
	for i, want := range []int{2, 2} {
		if err := seed.Blocks(ctx, cmds, quote, now); err != nil {
			t.Fatalf("start %d: %v", i, err)
		}
		if got := count(); got != want {
			t.Fatalf("start %d: %d blocks listed, want %d", i, got, want)
		}
	}
	now = now.Add(24 * time.Hour)
	if err := seed.Blocks(ctx, cmds, quote, now); err != nil {
		t.Fatal(err)
	}
	if got := count(); got != 4 {
		t.Fatalf("next day: %d blocks listed, want 4", got)
	}
}
