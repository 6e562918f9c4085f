package projections

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"testing"

	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/lotbook/lotbook/pipeline"
)

// unitBed drives the handlers of the account unit and the probe unit (both want registrations)
// page by page, as their subscriptions would, without a router: the test decides which unit's
// page comes first.
type unitBed struct {
	*env
	t              *testing.T
	db             *ReadDB
	r              *Runner
	account, probe *unit
}

func newUnitBed(t *testing.T, e *env) *unitBed {
	db := e.open()
	r := NewRunner(db, e.Store, nil, nil)
	if err := r.loadCheckpoints(context.Background()); err != nil {
		t.Fatal(err)
	}
	r.decoded = &shared{max: r.hubCapacity}
	r.units = units(r.own())
	account, err := unitNamed(AccountUnit)
	if err != nil {
		t.Fatal(err)
	}
	probe, err := unitNamed(probeProjector.Name)
	if err != nil {
		t.Fatal(err)
	}
	return &unitBed{env: e, t: t, db: db, r: r, account: account, probe: probe}
}

// deliver hands u the page of the log after from, as its subscription would, and returns what its
// handler answered (a panic as an error, as the router's recoverer does).
func (b *unitBed) deliver(u *unit, from int64) (err error) {
	b.t.Helper()
	page, err := b.Store.ReadAll(context.Background(), from, maxPage)
	if err != nil {
		b.t.Fatal(err)
	}
	msg, err := pipeline.NewPageMessage(fmt.Sprintf("%s-%d", u.Name, from), page)
	if err != nil {
		b.t.Fatal(err)
	}
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("panic: %v", p)
		}
	}()
	return b.r.handler(u)(msg)
}

// stored is the checkpoint of projector name in the database.
func (b *unitBed) stored(name string) int64 {
	b.t.Helper()
	cps, err := b.db.checkpoints(context.Background())
	if err != nil {
		b.t.Fatal(err)
	}
	return cps[name]
}

func (b *unitBed) probeRows() int {
	b.t.Helper()
	var n int
	if err := b.db.r.QueryRowContext(context.Background(), "SELECT COUNT(*) FROM probe_registrations").Scan(&n); err != nil {
		b.t.Fatal(err)
	}
	return n
}

// before makes p's Apply run fault first, in the page's transaction (its own Apply back when the
// test ends).
func before(t *testing.T, p *Projector, fault func(w *Wtx) error) {
	apply := p.Apply
	p.Apply = func(ctx context.Context, w *Wtx, evs []Decoded) error {
		if err := fault(w); err != nil {
			return err
		}
		return apply(ctx, w, evs)
	}
	t.Cleanup(func() { p.Apply = apply })
}

// TestOnePageOneTransaction: the first unit handed a page applies it to the other unit in step
// too, in its own transaction; the other unit, handed the same page, finds it applied and writes
// nothing; the read models equal a replay.
func TestOnePageOneTransaction(t *testing.T) {
	backends(t, func(t *testing.T, e *env) {
		ms := depositsOf(e, 3, 2)
		b := newUnitBed(t, e)
		var mu sync.Mutex
		txs := map[string][]*Wtx{}
		for _, p := range []*Projector{balancesProjector, probeProjector} {
			before(t, p, func(w *Wtx) error {
				mu.Lock()
				defer mu.Unlock()
				txs[p.Name] = append(txs[p.Name], w)
				return nil
			})
		}
		if err := b.deliver(b.account, 0); err != nil {
			t.Fatal(err)
		}
		if err := b.deliver(b.probe, 0); err != nil {
			t.Fatal(err)
		}
		if len(txs["balances"]) != 1 || len(txs["probe"]) != 1 || txs["balances"][0] != txs["probe"][0] {
			t.Fatalf("pages applied in transactions %v; want both in one", txs)
		}
		if got := b.stored("probe"); got != e.Head() {
			t.Fatalf("probe checkpoint %d, head %d", got, e.Head())
		}
		for _, m := range ms {
			mustBalance(t, b.db, m, "TWD", "200", "0")
		}
		noDiffs(t, b.r)
	})
}

// TestGroupedFailureStaysAlone: a unit whose page fails inside another unit's transaction, as a
// unit in step or as one that joined the open group, neither stops the other unit's page nor
// loses a row: the other unit's page is applied alone, the failing one stalls alone (its failure
// counted, its checkpoint where it was) while the other unit goes on with the next page, and once
// it applies again its read model equals a replay.
func TestGroupedFailureStaysAlone(t *testing.T) {
	for _, how := range []string{"in step, error", "in step, panic", "joined, error"} {
		t.Run(how, func(t *testing.T) {
			backends(t, func(t *testing.T, e *env) { testGroupedFailure(t, e, how) })
		})
	}
}

func testGroupedFailure(t *testing.T, e *env, how string) {
	ms := depositsOf(e, 3, 2)
	b := newUnitBed(t, e)
	var mu sync.Mutex
	failing := true
	before(t, probeProjector, func(*Wtx) error {
		mu.Lock()
		defer mu.Unlock()
		switch {
		case !failing:
			return nil
		case how == "in step, panic":
			panic("probe: injected panic")
		default:
			return errors.New("probe: injected failure")
		}
	})
	head := e.Head()
	if how == "joined, error" {
		// The account unit leads and waits inside its transaction until the probe has joined.
		entered, release := make(chan struct{}), make(chan struct{})
		var once sync.Once
		before(t, balancesProjector, func(*Wtx) error {
			once.Do(func() {
				close(entered)
				<-release
			})
			return nil
		})
		accountErr := make(chan error, 1)
		go func() { accountErr <- b.deliver(b.account, 0) }()
		<-entered
		probeErr := make(chan error, 1)
		go func() { probeErr <- b.deliver(b.probe, 0) }()
		for !b.r.groups.joined() {
			runtime.Gosched()
		}
		close(release)
		if err := <-accountErr; err != nil {
			t.Fatalf("the account unit failed with the probe: %v", err)
		}
		if err := <-probeErr; err == nil {
			t.Fatal("the probe's failing page was acked")
		}
	} else {
		if err := b.deliver(b.account, 0); err != nil {
			t.Fatalf("the account unit failed with the probe in step: %v", err)
		}
		if b.stored("probe") != 0 || b.probeRows() != 0 {
			t.Fatalf("the probe's rolled back page left checkpoint %d, %d rows", b.stored("probe"), b.probeRows())
		}
		if err := b.deliver(b.probe, 0); err == nil {
			t.Fatal("the probe's failing page was acked")
		}
	}
	// A panic reaches the router's recoverer without the handler's failure count (as before).
	if got := testutil.ToFloat64(b.r.stalled.WithLabelValues("probe")); got != 1 && how != "in step, panic" {
		t.Fatalf("probe stalled = %v", got)
	}
	if b.stored("probe") != 0 || b.probeRows() != 0 {
		t.Fatalf("the probe's failed page left checkpoint %d, %d rows", b.stored("probe"), b.probeRows())
	}
	if got := b.stored("balances"); got != head {
		t.Fatalf("balances checkpoint %d, head %d", got, head)
	}
	for _, m := range ms {
		mustBalance(t, b.db, m, "TWD", "200", "0")
	}

	// The account unit goes on with the next page, the probe still failing (and no longer in
	// step with it).
	m := e.Register("0987654321")
	e.Deposit(m, "N1", "50")
	if err := b.deliver(b.account, head); err != nil {
		t.Fatalf("the account unit's next page: %v", err)
	}
	mustBalance(t, b.db, m, "TWD", "50", "0")
	if err := b.deliver(b.probe, 0); err == nil {
		t.Fatal("the probe's failing page was acked")
	}

	mu.Lock()
	failing = false
	mu.Unlock()
	if err := b.deliver(b.probe, 0); err != nil {
		t.Fatalf("the probe's page once it applies: %v", err)
	}
	if got := testutil.ToFloat64(b.r.stalled.WithLabelValues("probe")); got != 0 {
		t.Fatalf("probe stalled = %v after it applied", got)
	}
	if b.probeRows() != len(ms)+1 || b.stored("probe") != e.Head() {
		t.Fatalf("probe: %d rows at %d; want %d at %d", b.probeRows(), b.stored("probe"), len(ms)+1, e.Head())
	}
	if b.r.Position() != e.Head() {
		t.Fatalf("position %d, head %d", b.r.Position(), e.Head())
	}
	noDiffs(t, b.r)
}

// joined reports whether a unit waits in an open group.
func (gs *grouper) joined() bool {
	gs.mu.Lock()
	defer gs.mu.Unlock()
	for _, g := range gs.open {
		if len(g.waiting) > 0 {
			return true
		}
	}
	return false
}
