// Package bench measures event store appends: concurrent writers, each appending to its own
// streams with exact expected versions (as command handlers do), timing every append.
package bench

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/lotbook/lotbook/events"
)

// Stats is implemented by the backends that group-commit (sqlite, postgres).
type Stats interface {
	Stats() (transactions, events int64)
}

// Result is one measured run.
type Result struct {
	Appends      int64
	Events       int64
	Transactions int64 // 0 when the store does not report Stats
	Elapsed      time.Duration
	P50, P99     time.Duration
	ProcessCPU   time.Duration // CPU time of this process during the run (writers and store client)
}

// EventsPerSec is the append throughput.
func (r Result) EventsPerSec() float64 { return float64(r.Events) / r.Elapsed.Seconds() }

// BatchSize is the mean number of events per write transaction (0 when unknown).
func (r Result) BatchSize() float64 {
	if r.Transactions == 0 {
		return 0
	}
	return float64(r.Events) / float64(r.Transactions)
}

// Config describes a run. It ends after Appends appends in total, or at Duration, whichever is set.
type Config struct {
	Writers         int
	EventsPerAppend int
	Appends         int
	Duration        time.Duration
	// StreamsPerWriter spreads each writer over several streams, so that streams stay short.
	StreamsPerWriter int
}

// payload is about the size of a DepositApproved with two postings.
var payload = []byte(`{"orderNo":"D20250314092653000001","currency":"TWD","amount":"1000.00","remark":"",` +
	`"postings":[{"account":"house:bank_clearing","currency":"TWD","amount":"-1000.00"},` +
	`{"account":"member:5f0c3e2a-8d7b-5a1e-9c4f-2b6d8e0a1c3f:available","currency":"TWD","amount":"1000.00"}]}`)

// Run appends with cfg.Writers concurrent writers and measures throughput and latency.
func Run(ctx context.Context, st events.Store, cfg Config) (Result, error) {
	if cfg.Writers < 1 || cfg.EventsPerAppend < 1 || (cfg.Appends < 1 && cfg.Duration <= 0) {
		return Result{}, fmt.Errorf("bench: bad config %+v", cfg)
	}
	if cfg.StreamsPerWriter < 1 {
		cfg.StreamsPerWriter = 16
	}
	run := uuid.NewString()[:8] // fresh stream names when one store serves several runs
	var t0, e0 int64
	stats, hasStats := st.(Stats)
	if hasStats {
		t0, e0 = stats.Stats()
	}
	var deadline time.Time
	if cfg.Duration > 0 {
		deadline = time.Now().Add(cfg.Duration)
	}
	cpu0 := ProcessCPU()
	var remaining atomic.Int64
	remaining.Store(int64(cfg.Appends))
	lat := make([][]time.Duration, cfg.Writers)
	errs := make(chan error, cfg.Writers)
	var wg sync.WaitGroup
	start := time.Now()
	for w := range cfg.Writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			versions := make([]int64, cfg.StreamsPerWriter)
			streams := make([]string, cfg.StreamsPerWriter)
			for k := range streams {
				streams[k] = fmt.Sprintf("bench-%s-%d-%d", run, w, k)
			}
			evs := make([]events.EventData, cfg.EventsPerAppend)
			meta := events.Metadata{Actor: "system", CorrelationID: run}
			for i := 0; ; i++ {
				if cfg.Appends > 0 && remaining.Add(-1) < 0 {
					return
				}
				if cfg.Duration > 0 && time.Now().After(deadline) {
					return
				}
				k := i % cfg.StreamsPerWriter
				meta.CommandID = uuid.NewString()
				for j := range evs {
					evs[j] = events.EventData{ID: uuid.New(), Type: "DepositApproved.v1", Data: payload, Metadata: meta}
				}
				t := time.Now()
				res, err := st.Append(ctx, streams[k], versions[k], evs)
				if err != nil {
					errs <- fmt.Errorf("writer %d: %w", w, err)
					return
				}
				lat[w] = append(lat[w], time.Since(t))
				versions[k] = res.Version
			}
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	close(errs)
	if err := <-errs; err != nil {
		return Result{}, err
	}
	all := slices.Concat(lat...)
	slices.Sort(all)
	r := Result{Appends: int64(len(all)), Events: int64(len(all) * cfg.EventsPerAppend), Elapsed: elapsed, ProcessCPU: ProcessCPU() - cpu0}
	if len(all) > 0 {
		r.P50 = all[len(all)/2]
		r.P99 = all[min(len(all)-1, len(all)*99/100)]
	}
	if hasStats {
		t1, e1 := stats.Stats()
		r.Transactions = t1 - t0
		if e1-e0 != r.Events {
			return r, fmt.Errorf("bench: store counted %d events, writers %d", e1-e0, r.Events)
		}
	}
	return r, nil
}

// ProcessCPU is the user and system CPU time this process has used.
func ProcessCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// Summary is the median of each figure over several runs.
type Summary struct {
	Runs          int
	EventsPerSec  float64
	BatchSize     float64
	P50, P99      time.Duration
	CPUPerEvent   time.Duration // this process
	ExtraPerEvent time.Duration // Extra (e.g. the database server's CPU), when measured
}

// Summarize takes the median of every figure separately. extra, if not nil, holds a further CPU
// time per run (the database server's) to report per event.
func Summarize(rs []Result, extra []time.Duration) Summary {
	median := func(f func(Result) float64) float64 {
		if len(rs) == 0 {
			return 0
		}
		v := make([]float64, len(rs))
		for i, r := range rs {
			v[i] = f(r)
		}
		slices.Sort(v)
		if len(v)%2 == 0 {
			return (v[len(v)/2-1] + v[len(v)/2]) / 2
		}
		return v[len(v)/2]
	}
	s := Summary{
		Runs:         len(rs),
		EventsPerSec: median(Result.EventsPerSec),
		BatchSize:    median(Result.BatchSize),
		P50:          time.Duration(median(func(r Result) float64 { return float64(r.P50) })),
		P99:          time.Duration(median(func(r Result) float64 { return float64(r.P99) })),
		CPUPerEvent:  time.Duration(median(func(r Result) float64 { return float64(r.ProcessCPU) / float64(max(r.Events, 1)) })),
	}
	if len(extra) == len(rs) && len(rs) > 0 {
		v := make([]float64, len(rs))
		for i, r := range rs {
			v[i] = float64(extra[i]) / float64(max(r.Events, 1))
		}
		slices.Sort(v)
		s.ExtraPerEvent = time.Duration(v[len(v)/2])
	}
	return s
}

// Writers runs Report with 1, 8 and 64 concurrent writers, each on a fresh store from open.
func Writers(b *testing.B, open func(b *testing.B) events.Store) {
	for _, writers := range []int{1, 8, 64} {
		b.Run(fmt.Sprintf("writers=%d", writers), func(b *testing.B) {
			st := open(b)
			defer st.Close()
			Report(b, st, writers)
		})
	}
}

// Report runs b.N single-event appends with the given writers and reports the figures as
// benchmark metrics (events/s, events/txn, p50-µs, p99-µs).
func Report(b *testing.B, st events.Store, writers int) {
	b.Helper()
	b.ResetTimer()
	r, err := Run(context.Background(), st, Config{Writers: writers, EventsPerAppend: 1, Appends: b.N})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(r.EventsPerSec(), "events/s")
	b.ReportMetric(r.BatchSize(), "events/txn")
	b.ReportMetric(float64(r.P50.Microseconds()), "p50-µs")
	b.ReportMetric(float64(r.P99.Microseconds()), "p99-µs")
}
