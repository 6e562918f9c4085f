// Package eventlog is the half of the read models' test bed that knows no read model: an event
// store on SQLite or PostgreSQL, events appended as commands would (a second apart), and the
// checks a test makes of a runner. It imports nothing of projections, so that the projections
// core's own tests use it as the capabilities' tests do (through projtest). Only tests import it.
package eventlog

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"

	"github.com/lotbook/lotbook/events"
	"github.com/lotbook/lotbook/events/bench"
	"github.com/lotbook/lotbook/events/postgres"
	"github.com/lotbook/lotbook/events/postgres/pgtest"
	"github.com/lotbook/lotbook/events/sqlite"
)

// Log is one backend's event store under test, and where that backend's read database goes:
// SQLite files in Dir, or the PostgreSQL database DSN.
type Log struct {
	T        testing.TB
	Store    events.Store
	Dir, DSN string

	mu  sync.Mutex
	now time.Time
}

// SQLite is a Log on SQLite files in a temporary directory.
func SQLite(t testing.TB) *Log {
	dir := t.TempDir()
	store, err := sqlite.Open(context.Background(), filepath.Join(dir, "events.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	return newLog(t, store, dir, "")
}

// Postgres is a Log on a fresh PostgreSQL database (LOTBOOK_TEST_PG).
func Postgres(t testing.TB) *Log {
	dsn := pgtest.NewDatabase(t)
	store, err := postgres.Open(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	return newLog(t, store, "", dsn)
}

func newLog(t testing.TB, store events.Store, dir, dsn string) *Log {
	return &Log{T: t, Store: store, Dir: dir, DSN: dsn, now: time.Date(2026, 3, 2, 1, 0, 0, 0, time.UTC)}
}

// Opener is open bound to this backend's read database: each call opens it, failing the test
// on error, and closes it when the test ends (open is projections.OpenReadDB).
func Opener[DB io.Closer](l *Log, open func(ctx context.Context, dir, dsn string) (DB, error)) func() DB {
	return func() DB {
		db, err := open(context.Background(), l.Dir, l.DSN)
		if err != nil {
			l.T.Fatal(err)
		}
		l.T.Cleanup(func() { db.Close() })
		return db
	}
}

// Add appends payloads to stream as one command, a second apart, and returns the position of
// the last one.
func (l *Log) Add(stream, actor string, ps ...events.Payload) int64 {
	l.T.Helper()
	return l.AddCommand(stream, actor, uuid.NewString(), ps...)
}

// AddCommand is Add as the command cmd: a process's command, whose id an earlier event named.
func (l *Log) AddCommand(stream, actor, cmd string, ps ...events.Payload) int64 {
	l.T.Helper()
	evs := make([]events.EventData, len(ps))
	for i, p := range ps {
		typ, data, err := events.Encode(p)
		if err != nil {
			l.T.Fatal(err)
		}
		l.mu.Lock()
		l.now = l.now.Add(time.Second)
		at := l.now
		l.mu.Unlock()
		evs[i] = events.EventData{ID: events.EventID(cmd, stream, i), Type: typ, Data: data,
			Metadata: events.Metadata{CommandID: cmd, Actor: actor, ServerTime: at}}
	}
	res, err := l.Store.Append(context.Background(), stream, events.AnyVersion, evs)
	if err != nil {
		l.T.Fatal(err)
	}
	return res.Position
}

// Register registers a member with login account and returns its id.
func (l *Log) Register(account string) string {
	id := events.MemberID(account)
	l.Add(events.MemberStream(id), "member:"+account, events.MemberRegistered{MemberID: id, Account: account,
		Role: events.RoleMember, PasswordHash: "x", InviteCode: "LOTBOOK", OwnInviteCode: "I" + account})
	return id
}

// RequestDeposit has the member ask for a TWD deposit through the "bank" channel.
func (l *Log) RequestDeposit(memberID, orderNo, amount string) int64 {
	return l.Add(events.AccountStream(memberID), "member:m", events.DepositRequested{OrderNo: orderNo, ChannelID: "bank",
		ChannelName: "Bank", Currency: "TWD", Amount: Dec(amount), ProofFileID: "f-" + orderNo})
}

// ApproveDeposit has ops approve a TWD deposit.
func (l *Log) ApproveDeposit(memberID, orderNo, amount string) int64 {
	return l.Add(events.AccountStream(memberID), "ops:ops", events.DepositApproved{OrderNo: orderNo, Currency: "TWD",
		Amount: Dec(amount), Remark: "ok",
		Postings: events.Transfer(events.HouseBankClearing, events.MemberAvailable(memberID), "TWD", Dec(amount))})
}

// Deposit has the member ask for a TWD deposit and ops approve it; it returns the approval's
// position.
func (l *Log) Deposit(memberID, orderNo, amount string) int64 {
	l.RequestDeposit(memberID, orderNo, amount)
	return l.ApproveDeposit(memberID, orderNo, amount)
}

// Head is the log's last position.
func (l *Log) Head() int64 {
	h, err := l.Store.Head(context.Background())
	if err != nil {
		l.T.Fatal(err)
	}
	return h
}

// Dec parses a decimal a test writes out.
func Dec(s string) decimal.Decimal { return decimal.RequireFromString(s) }

// Start runs run (a projections.Runner's Run) until the test ends or stop is called, and fails
// the test if it ended in error.
func Start(t testing.TB, run func(ctx context.Context) error) (stop func()) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- run(ctx) }()
	var once sync.Once
	stop = func() {
		once.Do(func() {
			cancel()
			if err := <-done; err != nil {
				t.Errorf("Run: %v", err)
			}
		})
	}
	t.Cleanup(stop)
	return stop
}

// Waiter is a runner waited for (projections.Runner).
type Waiter interface {
	WaitFor(ctx context.Context, position int64) error
	Position() int64
}

// WaitFor waits until every read model of r has applied the log up to pos.
func WaitFor(t testing.TB, r Waiter, pos int64) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if err := r.WaitFor(ctx, pos); err != nil {
		t.Fatalf("WaitFor(%d): %v (at %d)", pos, err, r.Position())
	}
}

// Comparer compares read models with their replay (projections.Runner).
type Comparer interface {
	Names() []string
	Compare(ctx context.Context, name string) ([]string, error)
}

// NoDiffs fails t unless every read model of r equals its replay.
func NoDiffs(t testing.TB, r Comparer) {
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

// cash is a balance as the read models keep it (projections.Balance).
type cash = struct{ Available, Frozen decimal.Decimal }

// MustBalance fails t unless the member's balance of currency, as balances (a read database's
// Balances) reads it, is available and frozen.
func MustBalance[B ~cash](t testing.TB, balances func(ctx context.Context, memberID string) (map[string]B, error),
	memberID, currency, available, frozen string) {
	t.Helper()
	bs, err := balances(context.Background(), memberID)
	if err != nil {
		t.Fatal(err)
	}
	b := cash(bs[currency])
	if !b.Available.Equal(Dec(available)) || !b.Frozen.Equal(Dec(frozen)) {
		t.Fatalf("balance %s %s = %s/%s, want %s/%s", memberID, currency, b.Available, b.Frozen, available, frozen)
	}
}

// Runner is a projections.Runner a benchmark runs.
type Runner interface {
	Run(ctx context.Context) error
	Waiter
}

// CatchUp runs runners (the partitions of one read database, or one) from where they stand
// until every one has applied the log up to head, stops them, and returns the wall time and the
// CPU time of this process it took: on a shared machine, events per CPU second says more than
// events per second.
func CatchUp[R Runner](tb testing.TB, runners []R, head int64) (elapsed, cpu time.Duration) {
	tb.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, len(runners))
	start, cpu0 := time.Now(), bench.ProcessCPU()
	for _, r := range runners {
		go func() { done <- r.Run(ctx) }()
	}
	wctx, wcancel := context.WithTimeout(ctx, 5*time.Minute)
	defer wcancel()
	for _, r := range runners {
		if err := r.WaitFor(wctx, head); err != nil {
			tb.Fatal(err)
		}
	}
	elapsed, cpu = time.Since(start), bench.ProcessCPU()-cpu0
	cancel()
	for range runners {
		if err := <-done; err != nil {
			tb.Fatal(err)
		}
	}
	return elapsed, cpu
}
