package api

import (
	"context"
	"fmt"
	"os"
	"runtime/pprof"
	"slices"
	"sync"
	"syscall"
	"testing"
	"time"
)

// TestTradeThroughput measures orders placed per second over HTTP (8 members, odd-lot market
// buys that fill at once) with p50/p99, and quote-update-to-fill latency of resting orders (one
// update crossing one resting order, through the engine's fill command). It runs only with
// LOTBOOK_TRADE_BENCH=1 (sqlite, or postgres with LOTBOOK_TRADE_BENCH_DB=postgres). The CPU per
// order is the test process's (server and HTTP clients together) from the first order until the
// projections and the engine have handled the last; LOTBOOK_TRADE_BENCH_CPUPROFILE=file writes
// a CPU profile of that window.
func TestTradeThroughput(t *testing.T) {
	if os.Getenv("LOTBOOK_TRADE_BENCH") == "" {
		t.Skip("set LOTBOOK_TRADE_BENCH=1 to measure")
	}
	db := testDB{kind: "sqlite"}
	if os.Getenv("LOTBOOK_TRADE_BENCH_DB") == "postgres" {
		db.kind = "postgres"
	}
	h := newHarness(t, db, RateLimits{LoginPerAccount: 1000, LoginPerIP: 1000, RegisterPerIP: 1000})
	th := newTradeHarness(t, h, "1000000")
	m := th.m
	members := []*client{m}
	for i := range 7 {
		c := h.register(fmt.Sprintf("095%07d", i))
		c.fund("1000000")
		members = append(members, c)
	}
	th.mkt.book("2603", "186.5", "186.5", lvls("186", 1_000_000), lvls("186.5", 1_000_000))
	const clients, perClient = 8, 250
	lat := make([][]time.Duration, clients)
	stopProfile := tradeProfile(t)
	cpu0 := processCPU(t)
	start := time.Now()
	var wg sync.WaitGroup
	for c := range clients {
		wg.Go(func() {
			for range perClient {
				t0 := time.Now()
				a := members[c].order(map[string]any{"symbol": "2603", "direction": "long", "type": "market", "shares": 1})
				lat[c] = append(lat[c], time.Since(t0))
				if a.code != 200 {
					t.Errorf("order: %s", a)
					return
				}
			}
		})
	}
	wg.Wait()
	elapsed := time.Since(start)
	h.catchUp()
	th.engineCaughtUp()
	cpu := processCPU(t) - cpu0
	stopProfile()
	all := slices.Concat(lat...)
	slices.Sort(all)
	q := func(p float64) time.Duration { return all[int(p*float64(len(all)-1))] }
	fmt.Printf("trade bench (%s): %d orders over HTTP by %d members: %.0f orders/s, p50 %v, p99 %v, cpu %v per order\n",
		db.kind, len(all), clients, float64(len(all))/elapsed.Seconds(), q(0.5).Round(time.Microsecond), q(0.99).Round(time.Microsecond),
		(cpu / time.Duration(len(all))).Round(time.Microsecond))

	// Resting limit orders, then one crossing update each.
	var fills []time.Duration
	for i := range 200 {
		th.mkt.book("2603", "186.5", "186.5", lvls("186", 1_000_000), lvls("186.5", 1_000_000))
		o := m.placed(map[string]any{"symbol": "2603", "direction": "long", "type": "limit", "shares": 1, "price": "186"})
		h.catchUp()
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		for {
			folded := th.st.trade.Holds(o.OrderNo)
			if folded || ctx.Err() != nil {
				break
			}
			time.Sleep(time.Millisecond)
		}
		cancel()
		th.mkt.book("2603", "186.5", "186", lvls("185.5", 1_000_000), lvls("186", 1_000_000))
		// The engine has folded the order's page before the update, as it has a resting order's:
		// waiting for that here (a 1 ms poll) is the harness's, not the fill's.
		th.engineCaughtUp()
		t0 := time.Now()
		th.st.trade.MatchSymbol(context.Background(), "2603")
		fills = append(fills, time.Since(t0))
		left := th.st.trade.Holds(o.OrderNo)
		if left {
			t.Fatalf("order %d did not fill", i)
		}
	}
	slices.Sort(fills)
	fmt.Printf("trade bench (%s): quote update to fill of a resting order: p50 %v, p99 %v over %d\n", db.kind,
		fills[len(fills)/2].Round(time.Microsecond), fills[len(fills)*99/100].Round(time.Microsecond), len(fills))
}

// processCPU is the user and system CPU time the test process has used.
func processCPU(t *testing.T) time.Duration {
	t.Helper()
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		t.Fatalf("getrusage: %v", err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// tradeProfile starts a CPU profile into LOTBOOK_TRADE_BENCH_CPUPROFILE when it is set and
// returns what stops it.
func tradeProfile(t *testing.T) func() {
	t.Helper()
	path := os.Getenv("LOTBOOK_TRADE_BENCH_CPUPROFILE")
	if path == "" {
		return func() {}
	}
	f, err := os.Create(path)
	if err != nil {
		t.Fatalf("cpu profile: %v", err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		t.Fatalf("cpu profile: %v", err)
	}
	return func() {
		pprof.StopCPUProfile()
		if err := f.Close(); err != nil {
			t.Errorf("cpu profile: %v", err)
		}
	}
}
