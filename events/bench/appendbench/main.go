// Command appendbench prints the event store append figures: events/s with 1, 8 and 64 concurrent
// writers on SQLite and PostgreSQL, mean group-commit batch size, and append latency p50/p99, each
// the median of several runs on a fresh store.
//
//	go run ./events/bench/appendbench [-runs 3] [-duration 3s] [-writers 1,8,64] [-backends sqlite,postgres]
//
// PostgreSQL runs create (and drop) a fresh database on the server of LOTBOOK_TEST_PG.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime/pprof"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/google/uuid"

	"github.com/lotbook/lotbook/events"
	"github.com/lotbook/lotbook/events/bench"
	"github.com/lotbook/lotbook/events/postgres"
	"github.com/lotbook/lotbook/events/postgres/pgtest"
	"github.com/lotbook/lotbook/events/sqlite"
)

func main() { os.Exit(measure()) }

// measure runs the configurations and prints the table; it returns the exit code.
func measure() int {
	runs := flag.Int("runs", 3, "runs per configuration (medians are printed)")
	duration := flag.Duration("duration", 3*time.Second, "length of each run")
	writerList := flag.String("writers", "1,8,64", "concurrent writers, comma-separated")
	backends := flag.String("backends", "sqlite,postgres", "backends, comma-separated")
	perAppend := flag.Int("events", 1, "events per append")
	pg := flag.String("pg", pgtest.AdminDSN(), "PostgreSQL server (a fresh database is created on it per run)")
	cpuProfile := flag.String("cpuprofile", "", "write this process's CPU profile of all runs to this file")
	flag.Parse()
	if *cpuProfile != "" {
		stop, err := startProfile(*cpuProfile)
		if err != nil {
			fmt.Fprintf(os.Stderr, "appendbench: %v\n", err)
			return 2
		}
		defer stop()
	}
	// The writers make two random UUIDs per append: drawn from a pool, not a getrandom call
	// each, so that the figures measure the store rather than the load's own randomness.
	uuid.EnableRandPool()

	var writers []int
	for _, f := range strings.Split(*writerList, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1 {
			fmt.Fprintf(os.Stderr, "appendbench: bad -writers %q\n", *writerList)
			return 2
		}
		writers = append(writers, n)
	}
	tw := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "backend\twriters\tevents/append\tevents/s\tmean batch (events/txn)\tp50\tp99\tCPU/event (Go)\tCPU/event (server)\truns\t\n")
	failed := false
	for _, b := range strings.Split(*backends, ",") {
		for _, w := range writers {
			var results []bench.Result
			var server []time.Duration
			for i := range *runs {
				r, srv, err := run(strings.TrimSpace(b), *pg, bench.Config{Writers: w, EventsPerAppend: *perAppend, Duration: *duration})
				if err != nil {
					fmt.Fprintf(os.Stderr, "appendbench: %s, %d writers, run %d: %v\n", b, w, i+1, err)
					failed = true
					continue
				}
				fmt.Fprintf(os.Stderr, "appendbench: %s, %d writers, run %d: %.0f events/s, batch %.1f, p50 %v, p99 %v\n",
					b, w, i+1, r.EventsPerSec(), r.BatchSize(), r.P50.Round(time.Microsecond), r.P99.Round(time.Microsecond))
				results = append(results, r)
				if srv >= 0 {
					server = append(server, srv)
				}
			}
			s := bench.Summarize(results, server)
			srv := "-"
			if s.ExtraPerEvent > 0 {
				srv = s.ExtraPerEvent.Round(100 * time.Nanosecond).String()
			}
			fmt.Fprintf(tw, "%s\t%d\t%d\t%.0f\t%.1f\t%v\t%v\t%v\t%s\t%d\t\n", b, w, *perAppend, s.EventsPerSec, s.BatchSize,
				s.P50.Round(time.Microsecond), s.P99.Round(time.Microsecond), s.CPUPerEvent.Round(100*time.Nanosecond), srv, s.Runs)
		}
	}
	tw.Flush()
	if failed {
		return 1
	}
	return 0
}

// startProfile starts the CPU profile into path and returns what ends it.
func startProfile(path string) (func(), error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("cpu profile: %w", err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		_ = f.Close()
		return nil, fmt.Errorf("cpu profile: %w", err)
	}
	return func() {
		pprof.StopCPUProfile()
		if err := f.Close(); err != nil {
			fmt.Fprintf(os.Stderr, "appendbench: cpu profile: %v\n", err)
		}
	}, nil
}

// run measures one configuration on a fresh store. For PostgreSQL it also returns the CPU time the
// database's server processes used during the run (-1 when it cannot be read: a remote server).
func run(backend, pgDSN string, cfg bench.Config) (bench.Result, time.Duration, error) {
	ctx := context.Background()
	var st events.Store
	serverCPU := func() time.Duration { return -1 }
	switch backend {
	case "sqlite":
		dir, err := os.MkdirTemp("", "appendbench")
		if err != nil {
			return bench.Result{}, 0, err
		}
		defer os.RemoveAll(dir)
		if st, err = sqlite.Open(ctx, filepath.Join(dir, "events.db")); err != nil {
			return bench.Result{}, 0, err
		}
	case "postgres":
		dsn, drop, err := pgtest.CreateDatabase(ctx, pgDSN)
		if err != nil {
			return bench.Result{}, 0, err
		}
		defer func() { _ = drop(context.Background()) }()
		if st, err = postgres.Open(ctx, dsn); err != nil {
			return bench.Result{}, 0, err
		}
		serverCPU = func() time.Duration {
			d, err := pgtest.ServerCPU(ctx, dsn)
			if err != nil {
				return -1
			}
			return d
		}
	default:
		return bench.Result{}, 0, fmt.Errorf("unknown backend %q", backend)
	}
	defer st.Close()
	// A short warm-up fills caches and prepared statements before the measured run.
	warm := cfg
	warm.Duration = cfg.Duration / 10
	if _, err := bench.Run(ctx, st, warm); err != nil {
		return bench.Result{}, 0, fmt.Errorf("warm-up: %w", err)
	}
	before := serverCPU()
	r, err := bench.Run(ctx, st, cfg)
	after := serverCPU()
	if before < 0 || after < 0 {
		return r, -1, err
	}
	return r, after - before, err
}
