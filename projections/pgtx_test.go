package projections

import (
	"context"
	"fmt"
	"net"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/lotbook/lotbook/projections/projtest/eventlog"
)

// countingConn counts the writes a connection sends the database: pgx sends a pipeline of
// statements in one write, so each is a round trip.
type countingConn struct {
	net.Conn
	n *atomic.Int64
}

func (c countingConn) Write(b []byte) (int, error) {
	c.n.Add(1)
	return c.Conn.Write(b)
}

// pgCounted is a PostgreSQL log and a read database over it whose round trips n counts.
func pgCounted(t *testing.T) (e *env, db *ReadDB, n *atomic.Int64) {
	n = new(atomic.Int64)
	e = envOn(eventlog.Postgres(t))
	db = eventlog.Opener(e.Log, func(ctx context.Context, dir, dsn string) (*ReadDB, error) {
		return openReadDB(ctx, dir, dsn, func(c net.Conn) net.Conn { return countingConn{Conn: c, n: n} })
	})()
	return e, db, n
}

// applyCounted applies the log to the unit named unit in one page transaction and returns the
// round trips it took, from the transaction's first statement to its commit.
func applyCounted(t *testing.T, e *env, db *ReadDB, n *atomic.Int64, unit string) int64 {
	t.Helper()
	ctx := t.Context()
	u, err := unitNamed(unit)
	if err != nil {
		t.Fatal(err)
	}
	evs, err := e.Store.ReadAll(ctx, 0, 1000)
	if err != nil {
		t.Fatal(err)
	}
	r := NewRunner(db, e.Store, nil, nil)
	var before int64
	err = db.writeTx(ctx, func(w *Wtx) error {
		before = n.Load() // the connection is taken; nothing of the transaction is sent yet
		_, err := r.applyUnit(ctx, w, u, wrap(evs))
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return n.Load() - before
}

// TestPageRoundTrips: on PostgreSQL a page transaction sends what it writes with its next read
// or its commit, and locks a unit's checkpoints together. A read model that only upserts costs
// two round trips a page (BEGIN and the checkpoint's lock; the rows, the checkpoint and COMMIT),
// against six one statement at a time; the account unit's read models cost a round trip for
// their checkpoints, one for each read of rows the page changes, and the commit: at most one
// read a read model here, where one statement at a time took two a read model for its checkpoint
// alone, besides the reads and a statement for each table written.
func TestPageRoundTrips(t *testing.T) {
	e, db, n := pgCounted(t)
	m := e.Register("0912345678")
	e.Deposit(m, "D1", "1000")
	e.Deposit(m, "D2", "500")
	if trips := applyCounted(t, e, db, n, "probe"); trips != 2 {
		t.Errorf("probe page: %d round trips, want 2", trips)
	}
	u, err := unitNamed(AccountUnit)
	if err != nil {
		t.Fatal(err)
	}
	trips := applyCounted(t, e, db, n, AccountUnit)
	t.Logf("account unit page (%d read models): %d round trips", len(u.ps), trips)
	if max := int64(2 + len(u.ps)); trips > max {
		t.Errorf("account unit page: %d round trips, want at most %d", trips, max)
	}
	mustBalance(t, db, m, "TWD", "1500", "0")
}

// TestPipelinedTxFailures: a statement sent later than it was issued still fails its transaction:
// the read or commit that sends it returns its error, nothing of the transaction is kept, an
// error a caller swallows still fails the commit, a panic leaves no transaction open, and the
// transaction's reads see its own writes.
func TestPipelinedTxFailures(t *testing.T) {
	e := postgresEnv(t)
	db := e.open()
	ctx := t.Context()
	const insert = "INSERT INTO probe_registrations (member_id, position) VALUES (?, ?)"
	count := func(t *testing.T) int {
		t.Helper()
		var c int
		if err := db.QueryRow(ctx, "SELECT COUNT(*) FROM probe_registrations").Scan(&c); err != nil {
			t.Fatal(err)
		}
		return c
	}
	openTx := func(t *testing.T) int {
		t.Helper()
		var c int
		q := "SELECT COUNT(*) FROM pg_stat_activity WHERE datname = current_database() AND state LIKE 'idle in transaction%'"
		if err := db.QueryRow(ctx, q).Scan(&c); err != nil {
			t.Fatal(err)
		}
		return c
	}

	t.Run("own writes", func(t *testing.T) {
		err := db.writeTx(ctx, func(w *Wtx) error {
			if err := w.Exec(ctx, insert, "a", 1); err != nil {
				return err
			}
			var c int
			if err := w.QueryRow(ctx, "SELECT COUNT(*) FROM probe_registrations WHERE member_id = ?", "a").Scan(&c); err != nil {
				return err
			}
			if c != 1 {
				t.Errorf("the transaction reads %d of its own rows, want 1", c)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if c := count(t); c != 1 {
			t.Fatalf("%d rows after commit, want 1", c)
		}
	})

	t.Run("failed write fails the commit", func(t *testing.T) {
		err := db.writeTx(ctx, func(w *Wtx) error {
			if err := w.Exec(ctx, insert, "b", 2); err != nil {
				return err
			}
			return w.Exec(ctx, "INSERT INTO no_such_table (x) VALUES (?)", 1)
		})
		if err == nil || !strings.Contains(err.Error(), "no_such_table") {
			t.Fatalf("commit after a failing statement: %v, want its error", err)
		}
		if c := count(t); c != 1 {
			t.Fatalf("%d rows, want 1: the failed transaction's row stayed", c)
		}
	})

	t.Run("failed write fails the next read", func(t *testing.T) {
		var readErr error
		err := db.writeTx(ctx, func(w *Wtx) error {
			if err := w.Exec(ctx, "INSERT INTO no_such_table (x) VALUES (?)", 1); err != nil {
				return err
			}
			var c int
			readErr = w.QueryRow(ctx, "SELECT COUNT(*) FROM probe_registrations").Scan(&c)
			return nil // swallowed: the commit must still fail
		})
		if readErr == nil || !strings.Contains(readErr.Error(), "no_such_table") {
			t.Errorf("read after a failing statement: %v, want its error", readErr)
		}
		if err == nil {
			t.Fatal("a transaction whose statement failed committed")
		}
	})

	t.Run("panic", func(t *testing.T) {
		func() {
			defer func() { _ = recover() }()
			_ = db.writeTx(ctx, func(w *Wtx) error {
				if err := w.Exec(ctx, insert, "c", 3); err != nil {
					return err
				}
				if _, err := lockCheckpoint(ctx, w, "probe"); err != nil {
					return err
				}
				panic("injected")
			})
		}()
		if c := count(t); c != 1 {
			t.Fatalf("%d rows, want 1: the panicked transaction's row stayed", c)
		}
		if c := openTx(t); c != 0 {
			t.Fatalf("%d connections left in a transaction", c)
		}
		// The checkpoint's row lock went with the transaction.
		if err := db.writeTx(ctx, func(w *Wtx) error { _, err := lockCheckpoint(ctx, w, "probe"); return err }); err != nil {
			t.Fatal(err)
		}
	})
}

// TestLockJobs: a group locks the checkpoints of every unit it applies in one round trip on
// PostgreSQL (most units in a group only move their checkpoint), gives each unit its own, and
// refuses a checkpoint twice in one set (its second read would precede the first's move).
func TestLockJobs(t *testing.T) {
	e, db, n := pgCounted(t)
	ctx := t.Context()
	r := NewRunner(db, e.Store, nil, nil)
	var jobs []*groupJob
	want := 0
	for _, u := range units(r.own()) {
		jobs = append(jobs, &groupJob{u: u})
		want += len(u.ps)
	}
	err := db.writeTx(ctx, func(w *Wtx) error {
		before := n.Load()
		cps, err := r.lockJobs(ctx, w, jobs)
		if err != nil {
			return err
		}
		if trips := n.Load() - before; trips != 1 {
			t.Errorf("locking %d checkpoints of %d units took %d round trips, want 1", want, len(jobs), trips)
		}
		for i, j := range jobs {
			if len(cps[i]) != len(j.u.ps) {
				t.Errorf("unit %s: %d checkpoints, want %d", j.u.Name, len(cps[i]), len(j.u.ps))
			}
		}
		_, err = r.lockJobs(ctx, w, append(jobs[:1:1], jobs[0]))
		if err == nil || !strings.Contains(err.Error(), "twice") {
			t.Errorf("a unit twice in one set: %v, want refused", err)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestBigWriteRowsPrepared: the full chunks of a big write run as one statement prepared in the
// transaction (pipelined behind what was pending, the table made in the same transaction), every
// row lands, and the statement is dropped after.
func TestBigWriteRowsPrepared(t *testing.T) {
	e := postgresEnv(t)
	db := e.open()
	ctx := t.Context()
	per := MaxParams / 2
	rows := make([][]any, 2*per+5)
	for i := range rows {
		rows[i] = []any{fmt.Sprintf("m%d", i), int64(i)}
	}
	err := db.writeTx(ctx, func(w *Wtx) error {
		if err := w.Exec(ctx, "CREATE TABLE big_rows (member_id TEXT PRIMARY KEY, position BIGINT NOT NULL)"); err != nil {
			return err
		}
		if err := w.WriteRows(ctx, rows, func(n int) string {
			return "INSERT INTO big_rows (member_id, position) VALUES " + Tuples(n, 2)
		}); err != nil {
			return err
		}
		var prepared int
		if err := w.QueryRow(ctx, "SELECT COUNT(*) FROM pg_prepared_statements").Scan(&prepared); err != nil {
			return err
		}
		if prepared != 0 {
			t.Errorf("%d statements still prepared after the write", prepared)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var n, sum int64
	if err := db.QueryRow(ctx, "SELECT COUNT(*), SUM(position) FROM big_rows").Scan(&n, &sum); err != nil {
		t.Fatal(err)
	}
	if total := int64(len(rows)); n != total || sum != total*(total-1)/2 {
		t.Fatalf("%d rows summing to %d, want %d summing to %d", n, sum, total, total*(total-1)/2)
	}
}

// TestTogether: the selects inside Together go in one round trip on PostgreSQL, and their rows
// are there by the time it returns.
func TestTogether(t *testing.T) {
	_, db, n := pgCounted(t)
	ctx := t.Context()
	err := db.writeTx(ctx, func(w *Wtx) error {
		return w.Upsert(ctx, probeTable, [][]any{{"a", int64(1)}, {"b", int64(2)}, {"c", int64(3)}})
	})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]int64{}
	put := func(r *probeRow) { got[r.memberID] = r.position }
	err = db.writeTx(ctx, func(w *Wtx) error {
		if _, err := lockCheckpoint(ctx, w, "probe"); err != nil { // BEGIN sent: count the selects alone
			return err
		}
		before := n.Load()
		err := w.Together(ctx, func() error {
			if err := probeFields.SelectIn(ctx, w, probeTable, "member_id", []any{"a"}, put); err != nil {
				return err
			}
			return probeFields.SelectKeys(ctx, w, probeTable, [][]any{{"b"}, {"c"}}, put)
		})
		if trips := n.Load() - before; trips != 1 {
			t.Errorf("two selects together: %d round trips, want 1", trips)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 3 || got["a"] != 1 || got["b"] != 2 || got["c"] != 3 {
		t.Fatalf("rows read together: %v, want a:1 b:2 c:3", got)
	}
}
