package projections

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/lotbook/lotbook/events"
	"github.com/lotbook/lotbook/events/bench"
	"github.com/lotbook/lotbook/events/postgres/pgtest"
	"github.com/lotbook/lotbook/projections/projtest/eventlog"
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
				if _, err := e.Store.Append(context.Background(), events.AccountStream(id), events.NoStream, evs); err != nil {
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
	head := e.Head()
	b.Logf("appended %d events in %s", head, time.Since(start).Round(time.Millisecond))
	return head
}

// readDBs are the read databases the benchmarks run against: SQLite in dir, and a fresh
// PostgreSQL database.
func readDBs(b *testing.B, dir string) map[string]func() *ReadDB {
	open := func(dir, dsn string) func() *ReadDB {
		return func() *ReadDB {
			db, err := OpenReadDB(context.Background(), dir, dsn)
			if err != nil {
				b.Fatal(err)
			}
			return db
		}
	}
	return map[string]func() *ReadDB{"sqlite": open(dir, ""), "postgres": open("", pgtest.NewDatabase(b))}
}

// BenchmarkRebuild times Rebuild of each read model over a log of deposit events in a SQLite
// event store, into SQLite and into PostgreSQL, and reports events/s.
func BenchmarkRebuild(b *testing.B) {
	e := sqliteEnv(b)
	head := benchLog(b, e)
	for _, kind := range []string{"sqlite", "postgres"} {
		db := readDBs(b, b.TempDir())[kind]()
		r := NewRunner(db, e.Store, nil, nil)
		for _, name := range []string{"balances", "journal", "members"} {
			b.Run(kind+"/"+name, func(b *testing.B) {
				var elapsed, cpu time.Duration
				for b.Loop() {
					start, cpu0 := time.Now(), bench.ProcessCPU()
					if err := r.Rebuild(context.Background(), name, nil); err != nil {
						b.Fatal(err)
					}
					elapsed, cpu = elapsed+time.Since(start), cpu+bench.ProcessCPU()-cpu0
				}
				rate := float64(head) * float64(b.N) / elapsed.Seconds()
				b.ReportMetric(rate, "events/s")
				b.ReportMetric(float64(head)*float64(b.N)/cpu.Seconds(), "events/cpu-s")
				fmt.Printf("rebuild %-8s %-13s %d events: %.0f events/s (%.0f events per CPU second of this process)\n",
					kind, name, head, rate, float64(head)*float64(b.N)/cpu.Seconds())
			})
		}
		db.Close()
	}
}

// BenchmarkCatchUp times the live pipeline (Watermill router, all projectors at once) applying
// the same log from position 0 to a fresh read database, and reports log events/s; on
// PostgreSQL also with the projectors split in two partitions (two runners, as two projector
// instances would be), timed until both reach the head.
func BenchmarkCatchUp(b *testing.B) {
	e := sqliteEnv(b)
	head := benchLog(b, e)
	for _, c := range []struct {
		kind  string
		parts int
	}{{"sqlite", 1}, {"postgres", 1}, {"postgres", 2}} {
		b.Run(fmt.Sprintf("%s/partitions=%d", c.kind, c.parts), func(b *testing.B) {
			var elapsed, cpu time.Duration
			for b.Loop() {
				b.StopTimer()
				open := readDBs(b, b.TempDir())[c.kind]
				runners, dbs := make([]*Runner, c.parts), make([]*ReadDB, c.parts)
				for i := range runners {
					dbs[i] = open()
					runners[i] = NewRunner(dbs[i], e.Store, nil, nil)
					runners[i].SetPartition(Partition{Index: i, Count: c.parts}, false)
				}
				b.StartTimer()
				took, used := eventlog.CatchUp(b, runners, head)
				elapsed, cpu = elapsed+took, cpu+used
				for _, db := range dbs {
					db.Close()
				}
			}
			rate := float64(head) * float64(b.N) / elapsed.Seconds()
			b.ReportMetric(rate, "events/s")
			b.ReportMetric(float64(head)*float64(b.N)/cpu.Seconds(), "events/cpu-s")
			fmt.Printf("catch-up %-8s partitions %d (%d projectors) %d events: %.0f events/s (%.0f events per CPU second of this process)\n",
				c.kind, c.parts, len(projectors), head, rate, float64(head)*float64(b.N)/cpu.Seconds())
		})
	}
}

// BenchmarkReadYourWrites measures, per backend, the time from an append's return until every
// projector has applied it (what a read carrying Lotbook-Position waits for), with 8 concurrent
// writers of deposit requests and approvals, and reports p50 and p99.
func BenchmarkReadYourWrites(b *testing.B) {
	for _, kind := range []string{"sqlite", "postgres"} {
		b.Run(kind, func(b *testing.B) {
			e := sqliteEnv(b)
			if kind == "postgres" {
				e = postgresEnv(b)
			}
			db := e.open()
			r := e.run(db, nil)
			var mu sync.Mutex
			var lat []time.Duration
			var wg sync.WaitGroup
			n := b.N
			for w := range 8 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					m := e.Register(fmt.Sprintf("09%08d", w))
					for i := w; i < n; i += 8 {
						order := fmt.Sprintf("W%d-%d", w, i)
						pos := e.RequestDeposit(m, order, "1000")
						if i%2 == 1 {
							pos = e.ApproveDeposit(m, order, "1000")
						}
						start := time.Now()
						r.waitFor(b, pos)
						mu.Lock()
						lat = append(lat, time.Since(start))
						mu.Unlock()
					}
				}()
			}
			wg.Wait()
			slices.Sort(lat)
			if len(lat) == 0 {
				return
			}
			p50, p99 := lat[len(lat)/2], lat[len(lat)*99/100]
			b.ReportMetric(float64(p50.Microseconds()), "p50-µs")
			b.ReportMetric(float64(p99.Microseconds()), "p99-µs")
			fmt.Printf("read-your-writes %-8s %d commands, 8 writers: p50 %s, p99 %s\n", kind, len(lat), p50, p99)
		})
	}
}
