package projections

import (
	"context"
	"fmt"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/shopspring/decimal"

	"github.com/lotbook/lotbook/events"
	"github.com/lotbook/lotbook/events/postgres"
	"github.com/lotbook/lotbook/events/postgres/pgtest"
	"github.com/lotbook/lotbook/events/sqlite"
)

// env is one backend under test: an event store and a way to (re)open the read database.
type env struct {
	t     testing.TB
	store events.Store
	open  func() *ReadDB

	mu  sync.Mutex
	now time.Time
}

// backends runs fn against SQLite (events and read models) and against PostgreSQL (a fresh
// database for both).
func backends(t *testing.T, fn func(t *testing.T, e *env)) {
	t.Run("sqlite", func(t *testing.T) { fn(t, sqliteEnv(t)) })
	t.Run("postgres", func(t *testing.T) { fn(t, postgresEnv(t)) })
}

func sqliteEnv(t testing.TB) *env {
	dir := t.TempDir()
	store, err := sqlite.Open(context.Background(), filepath.Join(dir, "events.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	return newEnv(t, store, dir, "")
}

func postgresEnv(t testing.TB) *env {
	dsn := pgtest.NewDatabase(t)
	store, err := postgres.Open(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	return newEnv(t, store, "", dsn)
}

func newEnv(t testing.TB, store events.Store, dir, dsn string) *env {
	e := &env{t: t, store: store, now: time.Date(2026, 3, 2, 1, 0, 0, 0, time.UTC)}
	e.open = func() *ReadDB {
		db, err := OpenReadDB(context.Background(), dir, dsn)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		return db
	}
	return e
}

// add appends payloads to stream as one command and returns the position of the last one.
func (e *env) add(stream, actor string, ps ...events.Payload) int64 {
	e.t.Helper()
	cmd := uuid.NewString()
	evs := make([]events.EventData, len(ps))
	for i, p := range ps {
		typ, data, err := events.Encode(p)
		if err != nil {
			e.t.Fatal(err)
		}
		e.mu.Lock()
		e.now = e.now.Add(time.Second)
		at := e.now
		e.mu.Unlock()
		evs[i] = events.EventData{ID: events.EventID(cmd, stream, i), Type: typ, Data: data,
			Metadata: events.Metadata{CommandID: cmd, Actor: actor, ServerTime: at}}
	}
	res, err := e.store.Append(context.Background(), stream, events.AnyVersion, evs)
	if err != nil {
		e.t.Fatal(err)
	}
	return res.Position
}

func (e *env) register(account string) string {
	id := events.MemberID(account)
	e.add(events.MemberStream(id), "member:"+account, events.MemberRegistered{MemberID: id, Account: account,
		Role: events.RoleMember, PasswordHash: "x", InviteCode: "LOTBOOK", OwnInviteCode: "I" + account})
	return id
}

func (e *env) requestDeposit(memberID, orderNo, amount string) int64 {
	return e.add(events.AccountStream(memberID), "member:m", events.DepositRequested{OrderNo: orderNo, ChannelID: "bank",
		ChannelName: "Bank", Currency: "TWD", Amount: dec(amount), ProofFileID: "f-" + orderNo})
}

func (e *env) approveDeposit(memberID, orderNo, amount string) int64 {
	return e.add(events.AccountStream(memberID), "ops:ops", events.DepositApproved{OrderNo: orderNo, Currency: "TWD",
		Amount: dec(amount), Remark: "ok",
		Postings: events.Transfer(events.HouseBankClearing, events.MemberAvailable(memberID), "TWD", dec(amount))})
}

func (e *env) head() int64 {
	h, err := e.store.Head(context.Background())
	if err != nil {
		e.t.Fatal(err)
	}
	return h
}

func dec(s string) decimal.Decimal { return decimal.RequireFromString(s) }

// running is a Runner whose Run goroutine the test stops.
type running struct {
	*Runner
	stop func()
}

func (e *env) run(db *ReadDB, reg prometheus.Registerer) *running {
	return e.runWith(NewRunner(db, e.store, nil, reg))
}

func (e *env) runWith(r *Runner) *running {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- r.Run(ctx) }()
	stopped := false
	stop := func() {
		if stopped {
			return
		}
		stopped = true
		cancel()
		if err := <-done; err != nil {
			e.t.Errorf("Run: %v", err)
		}
	}
	e.t.Cleanup(stop)
	return &running{Runner: r, stop: stop}
}

func (r *running) waitFor(t testing.TB, pos int64) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if err := r.WaitFor(ctx, pos); err != nil {
		t.Fatalf("WaitFor(%d): %v (at %d)", pos, err, r.Position())
	}
}

func mustBalance(t testing.TB, db *ReadDB, memberID, currency, available, frozen string) {
	t.Helper()
	bs, err := db.Balances(context.Background(), memberID)
	if err != nil {
		t.Fatal(err)
	}
	b := bs[currency]
	if !b.Available.Equal(dec(available)) || !b.Frozen.Equal(dec(frozen)) {
		t.Fatalf("balance %s %s = %s/%s, want %s/%s", memberID, currency, b.Available, b.Frozen, available, frozen)
	}
}

func noDiffs(t testing.TB, r *Runner) {
	t.Helper()
	for _, name := range r.Names() {
		diffs, err := r.Compare(context.Background(), name)
		if err != nil {
			t.Fatalf("Compare(%s): %v", name, err)
		}
		if len(diffs) > 0 {
			t.Fatalf("Compare(%s) = %d differences:\n%s", name, len(diffs), fmt.Sprint(diffs))
		}
	}
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
