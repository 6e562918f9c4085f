package audit

import (
	"context"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lotbook/lotbook/events"
	"github.com/lotbook/lotbook/events/sqlite/sqlitedb"
	"github.com/lotbook/lotbook/projections"
)

// TestVerifyReadModels runs the real projections over a journey, then tampers with one balance
// row: both the projector's replay comparison and audit's own posting sums must report it.
func TestVerifyReadModels(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	dir := t.TempDir()
	store := newStore(t)
	b := &logBuilder{t: t, store: store}
	id := journey(b, "0912345678")
	journey(b, "0987654321")

	db, err := projections.OpenReadDB(ctx, dir, "")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	runner := projections.NewRunner(db, store, slog.New(slog.DiscardHandler), nil)
	done := make(chan error, 1)
	go func() { done <- runner.Run(ctx) }()
	defer func() { cancel(); <-done }()
	head, _ := store.Head(ctx)
	wctx, wcancel := context.WithTimeout(ctx, 10*time.Second)
	defer wcancel()
	if err := runner.WaitFor(wctx, head); err != nil {
		t.Fatal(err)
	}

	rep, err := Verify(ctx, store, runner, WithBalances(db))
	if err != nil {
		t.Fatal(err)
	}
	if !rep.OK() || !rep.BalancesChecked || len(rep.ReadModels) != len(runner.Names()) {
		t.Fatalf("clean log:\n%s", rep)
	}

	raw := sqlitedb.Open(filepath.Join(dir, "read.db"), false, "busy_timeout=10000")
	defer raw.Close()
	if _, err := raw.ExecContext(ctx, "UPDATE balances SET amount = '9000' WHERE member_id = ? AND kind = 'available' AND asset = 'TWD'", id); err != nil {
		t.Fatal(err)
	}
	rep, err = Verify(ctx, store, runner, WithBalances(db))
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[string]int{}
	for _, f := range rep.Findings {
		kinds[f.Kind]++
	}
	if kinds[KindReadModel] == 0 || kinds[KindBalanceView] != 1 {
		t.Fatalf("tampered balance not reported by both checks:\n%s", rep)
	}
	if !strings.Contains(rep.String(), events.MemberAvailable(id)+" TWD: read model 9000, postings sum 5000") {
		t.Fatalf("report does not name the tampered balance:\n%s", rep)
	}
}
