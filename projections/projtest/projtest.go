// Package projtest is the test bed of a capability's read model: an event store and a read
// database on SQLite and on PostgreSQL, events appended as commands would, and a running runner
// to wait for and compare with replay. The event-store half is package eventlog, which the
// projections core's own tests share. Only tests import it.
package projtest

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/shopspring/decimal"

	"github.com/lotbook/lotbook/events"
	"github.com/lotbook/lotbook/projections"
	"github.com/lotbook/lotbook/projections/projtest/eventlog"
)

// Env is one backend under test: its event log (Add, Register, Head, ...) and a way to (re)open
// the read database.
type Env struct {
	*eventlog.Log
	Open func() *projections.ReadDB
}

// Backends runs fn against SQLite (events and read models) and against PostgreSQL (a fresh
// database for both).
func Backends(t *testing.T, fn func(t *testing.T, e *Env)) {
	t.Run("sqlite", func(t *testing.T) { fn(t, SQLite(t)) })
	t.Run("postgres", func(t *testing.T) { fn(t, Postgres(t)) })
}

// SQLite is an Env on SQLite files in a temporary directory.
func SQLite(t testing.TB) *Env { return envOn(eventlog.SQLite(t)) }

// Postgres is an Env on a fresh PostgreSQL database (LOTBOOK_TEST_PG).
func Postgres(t testing.TB) *Env { return envOn(eventlog.Postgres(t)) }

func envOn(l *eventlog.Log) *Env {
	return &Env{Log: l, Open: eventlog.Opener(l, projections.OpenReadDB)}
}

// Dec parses a decimal a test writes out.
func Dec(s string) decimal.Decimal { return eventlog.Dec(s) }

// Running is a Runner whose Run goroutine stops when the test ends.
type Running struct {
	*projections.Runner
}

// Run runs every registered projector over the Env's log into db.
func (e *Env) Run(db *projections.ReadDB) *Running {
	r := projections.NewRunner(db, e.Store, nil, nil)
	eventlog.Start(e.T, r.Run)
	return &Running{Runner: r}
}

// Start opens a read database and runs every projector into it.
func (e *Env) Start() (*projections.ReadDB, *Running) {
	db := e.Open()
	return db, e.Run(db)
}

// openAlone opens a read database of its own (SQLite), closed when the test ends.
func (e *Env) openAlone(t *testing.T) *projections.ReadDB {
	t.Helper()
	db, err := projections.OpenReadDB(t.Context(), t.TempDir(), "")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// RunPart runs partition i of n (serve --role projector --partition i/n) over the Env's log
// into db.
func (e *Env) RunPart(db *projections.ReadDB, i, n int) *Running {
	r := projections.NewRunner(db, e.Store, nil, nil)
	r.SetPartition(projections.Partition{Index: i, Count: n}, false)
	eventlog.Start(e.T, r.Run)
	return &Running{Runner: r}
}

// SplitLikeOne is the proof that the read model p may be split over projector partitions. It
// runs partitions 0/2 and 1/2 into one read database while each of writes appends its part of
// the log (both partitions applying it before the next), and fails t unless the events p applies
// fall in both partitions, every table of p then holds the same rows as a read database of its
// own into which one runner replayed the log, none of them empty, and so do the rows of the two
// partitions each run alone into a read database of its own, put together; and every read
// model equals its replay (the comparison lotbook verify runs).
func (e *Env) SplitLikeOne(t *testing.T, p *projections.Projector, writes ...func()) {
	t.Helper()
	ctx := t.Context()
	db := e.Open()
	parts := []*Running{e.RunPart(db, 0, 2), e.RunPart(e.Open(), 1, 2)}
	for _, write := range writes {
		write()
		for _, r := range parts {
			r.WaitFor(t, e.Head())
		}
	}
	head := e.Head()
	log, err := e.Store.ReadAll(ctx, 0, int(head))
	if err != nil {
		t.Fatal(err)
	}
	owned := map[int]int{}
	for _, ev := range log {
		pl, err := events.DecodeRecorded(ev)
		if err != nil {
			t.Fatal(err)
		}
		if p.Wants(pl) {
			for i := range 2 {
				if (projections.Partition{Index: i, Count: 2}).Owns(ev.Stream) {
					owned[i]++
				}
			}
		}
	}
	if owned[0] == 0 || owned[1] == 0 {
		t.Fatalf("events of %s per partition %v: the log must give both partitions some", p.Name, owned)
	}

	rows := func(db *projections.ReadDB, tb *projections.Table) []string {
		t.Helper()
		out, err := db.TableRows(ctx, tb)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	one := e.openAlone(t)
	e.Run(one).WaitFor(t, head)
	for _, tb := range p.Tables {
		got, want := rows(db, tb), rows(one, tb)
		if len(want) == 0 {
			t.Errorf("%s: no rows, nothing compared", tb.Name)
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s by two partitions:\n%s\nby one runner:\n%s", tb.Name, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	}
	// Each partition alone, into a read database of its own, writes exactly the rows it owns:
	// together they are the one runner's, none twice. One that read rows of the other's streams
	// (the shared database may hold them by the time it looks) misses them here.
	alone := make([][]string, len(p.Tables))
	for i := range 2 {
		own := e.openAlone(t)
		e.RunPart(own, i, 2).WaitFor(t, head)
		for j, tb := range p.Tables {
			alone[j] = append(alone[j], rows(own, tb)...)
		}
	}
	for j, tb := range p.Tables {
		slices.Sort(alone[j])
		if want := rows(one, tb); !slices.Equal(alone[j], want) {
			t.Errorf("%s by each partition alone:\n%s\nby one runner:\n%s", tb.Name, strings.Join(alone[j], "\n"), strings.Join(want, "\n"))
		}
	}
	NoDiffs(t, parts[0].Runner)
}

// WaitFor waits until every read model has applied the log up to pos.
func (r *Running) WaitFor(t testing.TB, pos int64) {
	t.Helper()
	eventlog.WaitFor(t, r.Runner, pos)
}

// NoDiffs fails t unless every read model equals its replay.
func NoDiffs(t testing.TB, r *projections.Runner) {
	t.Helper()
	eventlog.NoDiffs(t, r)
}

// MustBalance fails t unless the member's balance of currency is available and frozen.
func MustBalance(t testing.TB, db *projections.ReadDB, memberID, currency, available, frozen string) {
	t.Helper()
	eventlog.MustBalance(t, db.Balances, memberID, currency, available, frozen)
}

// OneByOne applies the whole log to a fresh read database one event per page and fails t unless
// the read model p equals its replay: a projector's page fold must agree with applying each event
// on its own. It returns the database for the capability's own checks.
func (e *Env) OneByOne(p *projections.Projector) *projections.ReadDB {
	e.T.Helper()
	ctx := context.Background()
	log, err := e.Store.ReadAll(ctx, 0, 1000)
	if err != nil {
		e.T.Fatal(err)
	}
	db := e.Open()
	if err := db.ApplyOneByOne(ctx, p, log); err != nil {
		e.T.Fatal(err)
	}
	diffs, err := projections.NewRunner(db, e.Store, nil, nil).Compare(ctx, p.Name)
	if err != nil || len(diffs) > 0 {
		e.T.Fatalf("Compare(%s): %v %v", p.Name, diffs, err)
	}
	return db
}
