package projections

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/lotbook/lotbook/pipeline"
)

// afterRows makes every registered projector run fault after its Apply has written a page's
// rows and before applyPage saves its checkpoint, in the same read-model transaction: the
// window in which a crash must leave neither the rows nor the checkpoint behind. The projectors
// get their own Apply back when the test ends (after the runners it starts have stopped).
func afterRows(t *testing.T, fault func(p *Projector) error) {
	for _, p := range projectors {
		apply := p.Apply
		p.Apply = func(ctx context.Context, w *Wtx, evs []Decoded) error {
			if err := apply(ctx, w, evs); err != nil {
				return err
			}
			return fault(p)
		}
		t.Cleanup(func() { p.Apply = apply })
	}
}

// depositsOf appends n approved deposits of 100 for each of members new members and returns them.
func depositsOf(e *env, members, n int) []string {
	var ms []string
	for i := range members {
		m := e.Register(fmt.Sprintf("09%08d", i))
		for j := range n {
			e.RequestDeposit(m, fmt.Sprintf("D%d-%d", i, j), "100")
			e.ApproveDeposit(m, fmt.Sprintf("D%d-%d", i, j), "100")
		}
		ms = append(ms, m)
	}
	return ms
}

// TestCrashBetweenRowsAndCheckpoint: a projector that panics after writing a page's rows and
// before its checkpoint (the router's recoverer turns the panic into a failure and the page is
// applied again), and one whose process stops while it fails there and starts again, both end
// equal to a rebuild from the log: no row counted twice.
func TestCrashBetweenRowsAndCheckpoint(t *testing.T) {
	backends(t, func(t *testing.T, e *env) {
		ms := depositsOf(e, 3, 5)
		var mu sync.Mutex
		panicked := map[string]bool{}
		failing := atomic.Bool{}
		afterRows(t, func(p *Projector) error {
			if failing.Load() {
				return fmt.Errorf("%s: injected failure before the checkpoint", p.Name)
			}
			mu.Lock()
			first := !panicked[p.Name]
			panicked[p.Name] = true
			mu.Unlock()
			if first {
				panic(p.Name + ": injected crash before the checkpoint")
			}
			return nil
		})

		db := e.open()
		r := e.run(db, nil)
		r.waitFor(t, e.Head())
		mu.Lock()
		if len(panicked) != len(projectors) {
			t.Errorf("%d of %d projectors crashed", len(panicked), len(projectors))
		}
		mu.Unlock()
		for _, m := range ms {
			mustBalance(t, db, m, "TWD", "500", "0")
		}
		noDiffs(t, r.Runner)

		// Now every page fails between rows and checkpoint until the process goes away.
		failing.Store(true)
		reg := prometheus.NewRegistry()
		r.stop()
		r = e.run(db, reg)
		for _, m := range ms {
			e.RequestDeposit(m, "X", "7")
			e.ApproveDeposit(m, "X", "7")
		}
		deadline := time.Now().Add(20 * time.Second)
		for testutil.ToFloat64(r.failures.WithLabelValues("balances")) < 1 {
			if time.Now().After(deadline) {
				t.Fatal("the injected failure never happened")
			}
			time.Sleep(10 * time.Millisecond)
		}
		r.stop()
		db.Close()
		for _, m := range ms {
			e.RequestDeposit(m, "Y", "11")
			e.ApproveDeposit(m, "Y", "11")
		}
		failing.Store(false)
		db = e.open()
		r = e.run(db, nil)
		r.waitFor(t, e.Head())
		for _, m := range ms {
			mustBalance(t, db, m, "TWD", "518", "0")
			recs, _, err := db.FundHistory(context.Background(), m, "all", 1, 100)
			if err != nil || len(recs) != 7 {
				t.Fatalf("fund records of %s: %d, %v; want 7", m, len(recs), err)
			}
		}
		noDiffs(t, r.Runner)
	})
}

// TestDuplicatePageDelivery: the same page delivered to every unit's handler twice at once (two
// deliveries racing, as after a redelivery or from a second instance) and then again, and a page
// that overlaps what was applied, change nothing the second time: the read models equal replay.
func TestDuplicatePageDelivery(t *testing.T) {
	backends(t, func(t *testing.T, e *env) {
		ctx := context.Background()
		ms := depositsOf(e, 2, 3)
		db := e.open()
		r := NewRunner(db, e.Store, nil, nil)
		if err := r.loadCheckpoints(ctx); err != nil {
			t.Fatal(err)
		}
		r.decoded = &shared{max: r.hubCapacity}
		deliver := func(from int64, times int) {
			t.Helper()
			page, err := e.Store.ReadAll(ctx, from, maxPage)
			if err != nil {
				t.Fatal(err)
			}
			for _, u := range units(projectors) {
				h := r.handler(u)
				var wg sync.WaitGroup
				errs := make(chan error, times)
				for range times {
					wg.Go(func() {
						msg, err := pipeline.NewPageMessage(fmt.Sprintf("%s-%d", u.Name, from), page)
						if err == nil {
							err = h(msg)
						}
						errs <- err
					})
				}
				wg.Wait()
				close(errs)
				for err := range errs {
					if err != nil {
						t.Fatalf("unit %s, page from %d: %v", u.Name, from, err)
					}
				}
			}
		}
		deliver(0, 2)
		deliver(0, 1)
		for _, m := range ms {
			mustBalance(t, db, m, "TWD", "300", "0")
		}
		noDiffs(t, r)

		mid := e.Head()
		for _, m := range ms {
			e.RequestDeposit(m, "X", "5")
			e.ApproveDeposit(m, "X", "5")
		}
		// From the middle of what was applied to past it, twice.
		deliver(mid/2, 2)
		for _, m := range ms {
			mustBalance(t, db, m, "TWD", "305", "0")
		}
		if r.Position() != e.Head() {
			t.Fatalf("position %d after the pages, head %d", r.Position(), e.Head())
		}
		noDiffs(t, r)
	})
}
