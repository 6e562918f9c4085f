// Package projtest is the test bed of a capability's read model: an event store and a read
// database on SQLite and on PostgreSQL, events appended as commands would, and a running runner
// to wait for and compare with replay. Only tests import it.
package projtest

import (
	"context"
	"fmt"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"

	"github.com/lotbook/lotbook/events"
	"github.com/lotbook/lotbook/events/postgres"
	"github.com/lotbook/lotbook/events/postgres/pgtest"
	"github.com/lotbook/lotbook/events/sqlite"
	"github.com/lotbook/lotbook/projections"
)

// Env is one backend under test: an event store and a way to (re)open the read database.
type Env struct {
	T     testing.TB
	Store events.Store
	Open  func() *projections.ReadDB

	mu  sync.Mutex
	now time.Time
}

// Backends runs fn against SQLite (events and read models) and against PostgreSQL (a fresh
// database for both).
func Backends(t *testing.T, fn func(t *testing.T, e *Env)) {
	t.Run("sqlite", func(t *testing.T) { fn(t, SQLite(t)) })
	t.Run("postgres", func(t *testing.T) { fn(t, Postgres(t)) })
}

// SQLite is an Env on SQLite files in a temporary directory.
func SQLite(t testing.TB) *Env {
	dir := t.TempDir()
	store, err := sqlite.Open(context.Background(), filepath.Join(dir, "events.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	return newEnv(t, store, dir, "")
}

// Postgres is an Env on a fresh PostgreSQL database (LOTBOOK_TEST_PG).
func Postgres(t testing.TB) *Env {
	dsn := pgtest.NewDatabase(t)
	store, err := postgres.Open(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	return newEnv(t, store, "", dsn)
}

func newEnv(t testing.TB, store events.Store, dir, dsn string) *Env {
	e := &Env{T: t, Store: store, now: time.Date(2026, 3, 2, 1, 0, 0, 0, time.UTC)}
	e.Open = func() *projections.ReadDB {
		db, err := projections.OpenReadDB(context.Background(), dir, dsn)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		return db
	}
	return e
}

// Add appends payloads to stream as one command, a second apart, and returns the position of
// the last one.
func (e *Env) Add(stream, actor string, ps ...events.Payload) int64 {
	e.T.Helper()
	cmd := uuid.NewString()
	evs := make([]events.EventData, len(ps))
	for i, p := range ps {
		typ, data, err := events.Encode(p)
		if err != nil {
			e.T.Fatal(err)
		}
		e.mu.Lock()
		e.now = e.now.Add(time.Second)
		at := e.now
		e.mu.Unlock()
		evs[i] = events.EventData{ID: events.EventID(cmd, stream, i), Type: typ, Data: data,
			Metadata: events.Metadata{CommandID: cmd, Actor: actor, ServerTime: at}}
	}
	res, err := e.Store.Append(context.Background(), stream, events.AnyVersion, evs)
	if err != nil {
		e.T.Fatal(err)
	}
	return res.Position
}

// Register registers a member with login account and returns its id.
func (e *Env) Register(account string) string {
	id := events.MemberID(account)
	e.Add(events.MemberStream(id), "member:"+account, events.MemberRegistered{MemberID: id, Account: account,
		Role: events.RoleMember, PasswordHash: "x", InviteCode: "LOTBOOK", OwnInviteCode: "I" + account})
	return id
}

// RequestDeposit has the member ask for a TWD deposit through the "bank" channel.
func (e *Env) RequestDeposit(memberID, orderNo, amount string) int64 {
	return e.Add(events.AccountStream(memberID), "member:m", events.DepositRequested{OrderNo: orderNo, ChannelID: "bank",
		ChannelName: "Bank", Currency: "TWD", Amount: Dec(amount), ProofFileID: "f-" + orderNo})
}

// ApproveDeposit has ops approve a TWD deposit.
func (e *Env) ApproveDeposit(memberID, orderNo, amount string) int64 {
	return e.Add(events.AccountStream(memberID), "ops:ops", events.DepositApproved{OrderNo: orderNo, Currency: "TWD",
		Amount: Dec(amount), Remark: "ok",
		Postings: events.Transfer(events.HouseBankClearing, events.MemberAvailable(memberID), "TWD", Dec(amount))})
}

// Head is the log's last position.
func (e *Env) Head() int64 {
	h, err := e.Store.Head(context.Background())
	if err != nil {
		e.T.Fatal(err)
	}
	return h
}

// Dec parses a decimal a test writes out.
func Dec(s string) decimal.Decimal { return decimal.RequireFromString(s) }

// Running is a Runner whose Run goroutine stops when the test ends.
type Running struct {
	*projections.Runner
}

// Run runs every registered projector over the Env's log into db.
func (e *Env) Run(db *projections.ReadDB) *Running {
	r := projections.NewRunner(db, e.Store, nil, nil)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- r.Run(ctx) }()
	e.T.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			e.T.Errorf("Run: %v", err)
		}
	})
	return &Running{Runner: r}
}

// WaitFor waits until every read model has applied the log up to pos.
func (r *Running) WaitFor(t testing.TB, pos int64) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if err := r.Runner.WaitFor(ctx, pos); err != nil {
		t.Fatalf("WaitFor(%d): %v (at %d)", pos, err, r.Position())
	}
}

// NoDiffs fails t unless every read model equals its replay.
func NoDiffs(t testing.TB, r *projections.Runner) {
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

// MustBalance fails t unless the member's balance of currency is available and frozen.
func MustBalance(t testing.TB, db *projections.ReadDB, memberID, currency, available, frozen string) {
	t.Helper()
	bs, err := db.Balances(context.Background(), memberID)
	if err != nil {
		t.Fatal(err)
	}
	b := bs[currency]
	if !b.Available.Equal(Dec(available)) || !b.Frozen.Equal(Dec(frozen)) {
		t.Fatalf("balance %s %s = %s/%s, want %s/%s", memberID, currency, b.Available, b.Frozen, available, frozen)
	}
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
