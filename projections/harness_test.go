package projections

import (
	"context"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/shopspring/decimal"

	"github.com/lotbook/lotbook/events"
	"github.com/lotbook/lotbook/projections/projtest/eventlog"
)

// env is one backend under test: its event log and a way to (re)open the read database. The
// capabilities' test bed (projtest) is built on the same event log; it cannot serve here, as it
// imports this package.
type env struct {
	*eventlog.Log
	open func() *ReadDB
}

// backends runs fn against SQLite (events and read models) and against PostgreSQL (a fresh
// database for both).
func backends(t *testing.T, fn func(t *testing.T, e *env)) {
	t.Run("sqlite", func(t *testing.T) { fn(t, sqliteEnv(t)) })
	t.Run("postgres", func(t *testing.T) { fn(t, postgresEnv(t)) })
}

func sqliteEnv(t testing.TB) *env { return envOn(eventlog.SQLite(t)) }

func postgresEnv(t testing.TB) *env { return envOn(eventlog.Postgres(t)) }

func envOn(l *eventlog.Log) *env { return &env{Log: l, open: eventlog.Opener(l, OpenReadDB)} }

func dec(s string) decimal.Decimal { return eventlog.Dec(s) }

// running is a Runner whose Run goroutine the test stops.
type running struct {
	*Runner
	stop func()
}

func (e *env) run(db *ReadDB, reg prometheus.Registerer) *running {
	return e.runWith(NewRunner(db, e.Store, nil, reg))
}

func (e *env) runWith(r *Runner) *running {
	return &running{Runner: r, stop: eventlog.Start(e.T, r.Run)}
}

// deposited registers a member, credits a 1000 TWD deposit and projects it into a fresh read
// database: the start of the tests of what happens to projected rows.
func (e *env) deposited(t testing.TB) (memberID string, db *ReadDB, r *running) {
	t.Helper()
	memberID = e.Register("0912345678")
	e.Deposit(memberID, "D1", "1000")
	db = e.open()
	r = e.run(db, nil)
	r.waitFor(t, e.Head())
	return memberID, db, r
}

func (r *running) waitFor(t testing.TB, pos int64) {
	t.Helper()
	eventlog.WaitFor(t, r.Runner, pos)
}

func mustBalance(t testing.TB, db *ReadDB, memberID, currency, available, frozen string) {
	t.Helper()
	eventlog.MustBalance(t, db.Balances, memberID, currency, available, frozen)
}

func noDiffs(t testing.TB, r *Runner) {
	t.Helper()
	eventlog.NoDiffs(t, r)
}

// probeProjector is a read model of the core's own tests: a unit of its own, outside the account
// unit, so that they watch one projector go on while another stalls without depending on any
// capability package (those import this one). It keeps the position of every registration.
type probeRow struct {
	memberID string
	position int64
}

var probeFields = RowMap[probeRow]{
	Text("member_id", func(r *probeRow) *string { return &r.memberID }),
	Integer("position", func(r *probeRow) *int64 { return &r.position }),
}

var probeTable = &Table{Name: "probe_registrations", Cols: probeFields.Columns(), Key: []string{"member_id"}}

var probeProjector = &Projector{
	Name:    "probe",
	Version: 1,
	Tables:  []*Table{probeTable},
	Wants: func(p events.Payload) bool {
		_, ok := p.(events.MemberRegistered)
		return ok
	},
	Apply: func(ctx context.Context, w *Wtx, evs []Decoded) error {
		rows := make([][]any, 0, len(evs))
		for _, d := range evs {
			e := d.P.(events.MemberRegistered)
			rows = append(rows, probeFields.Args(&probeRow{memberID: e.MemberID, position: d.Ev.Position}))
		}
		return w.Upsert(ctx, probeTable, rows)
	},
}

func init() { Register(probeProjector) }
