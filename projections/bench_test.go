package projections

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/lotbook/lotbook/events"
)

// benchLog fills e's store with LOTBOOK_BENCH_EVENTS (default 200,000) deposit events: members
// of 100 deposits each, requested and approved, appended by 4 writers.
func benchLog(b *testing.B, e *env) int64 {
	b.Helper()
	total := 200_000
	if v, err := strconv.Atoi(os.Getenv("LOTBOOK_BENCH_EVENTS")); err == nil && v > 0 {
		total = v
	}
	const perMember = 100 // 50 deposits
	members := total / perMember
	start := time.Now()
	var wg sync.WaitGroup
	errs := make(chan error, 4)
	for w := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; i < members; i += 4 {
				account := fmt.Sprintf("09%08d", i)
				id := events.MemberID(account)
				var evs []events.EventData
				at := time.Date(2026, 3, 2, 1, 0, 0, 0, time.UTC)
				add := func(p events.Payload) {
					typ, data, err := events.Encode(p)
					if err != nil {
						panic(err)
					}
					at = at.Add(time.Millisecond)
					cmd := uuid.NewString()
					evs = append(evs, events.EventData{ID: events.EventID(cmd, "", 0), Type: typ, Data: data,
						Metadata: events.Metadata{CommandID: cmd, Actor: "member:" + account, ServerTime: at}})
				}
				for d := range perMember / 2 {
					add(events.DepositRequested{OrderNo: fmt.Sprintf("%s-%d", account, d), ChannelID: "bank", ChannelName: "Bank",
						Currency: "TWD", Amount: dec("1000"), ProofFileID: "f"})
				}
				for d := range perMember / 2 {
					add(events.DepositApproved{OrderNo: fmt.Sprintf("%s-%d", account, d), Currency: "TWD", Amount: dec("1000"),
						Postings: events.Transfer(events.HouseBankClearing, events.MemberAvailable(id), "TWD", dec("1000"))})
				}
				if _, err := e.store.Append(context.Background(), events.AccountStream(id), events.NoStream, evs); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	if err := <-errs; err != nil {
		b.Fatal(err)
	}
	head := e.head()
	b.Logf("appended %d events in %s", head, time.Since(start).Round(time.Millisecond))
	return head
}

// BenchmarkRebuild times Rebuild of each read model over a log of deposit events in SQLite
// (the events store and the read database), and reports events/s.
func BenchmarkRebuild(b *testing.B) {
	e := sqliteEnv(b)
	head := benchLog(b, e)
	db := e.open()
	r := NewRunner(db, e.store, nil, nil)
	for _, name := range []string{"balances", "fund_records", "review_queue", "members"} {
		b.Run(name, func(b *testing.B) {
			var elapsed time.Duration
			for b.Loop() {
				start := time.Now()
				if err := r.Rebuild(context.Background(), name, nil); err != nil {
					b.Fatal(err)
				}
				elapsed += time.Since(start)
			}
			rate := float64(head) * float64(b.N) / elapsed.Seconds()
			b.ReportMetric(rate, "events/s")
			fmt.Printf("rebuild %-13s %d events: %.0f events/s\n", name, head, rate)
		})
	}
}

// BenchmarkCatchUp times the live pipeline (Watermill router, all projectors at once) applying
// the same log from position 0 to a fresh SQLite read database, and reports log events/s.
func BenchmarkCatchUp(b *testing.B) {
	e := sqliteEnv(b)
	head := benchLog(b, e)
	var elapsed time.Duration
	for b.Loop() {
		b.StopTimer()
		dir := b.TempDir()
		db, err := OpenReadDB(context.Background(), dir, "")
		if err != nil {
			b.Fatal(err)
		}
		r := NewRunner(db, e.store, nil, nil)
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		b.StartTimer()
		start := time.Now()
		go func() { done <- r.Run(ctx) }()
		wctx, wcancel := context.WithTimeout(ctx, 5*time.Minute)
		if err := r.WaitFor(wctx, head); err != nil {
			b.Fatal(err)
		}
		elapsed += time.Since(start)
		wcancel()
		cancel()
		if err := <-done; err != nil {
			b.Fatal(err)
		}
		db.Close()
	}
	rate := float64(head) * float64(b.N) / elapsed.Seconds()
	b.ReportMetric(rate, "events/s")
	fmt.Printf("catch-up (5 projectors) %d events: %.0f events/s\n", head, rate)
}
