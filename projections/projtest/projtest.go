// Package projtest is the test bed of a capability's read model: an event store and a read
// database on SQLite and on PostgreSQL, events appended as commands would, and a running runner
// to wait for and compare with replay. The event-store half is package eventlog, which the
// projections core's own tests share. Only tests import it.
package projtest

import (
	"context"
	"testing"

	"github.com/shopspring/decimal"

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
