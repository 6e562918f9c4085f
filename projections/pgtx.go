package projections

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/stdlib"
)

// pgTx is a read-model write transaction on PostgreSQL that sends its statements in as few round
// trips as its reads allow. A statement whose result nobody reads (BEGIN, an upsert, a delete, a
// checkpoint's write) waits, and goes with the next read, or with the COMMIT, in one pipeline
// (pgx.Batch, one network write and one Sync). Through database/sql each statement was a round
// trip of its own: a page of the account unit's seven read models was some forty, and on a loaded
// machine each waits for the database's backend and then the projector to be scheduled again.
// Statements still run in the order they were issued, in one transaction, so a read sees every
// write before it; an error of a waiting statement is returned by the read or commit that sent it.
// Arguments are encoded when their statement is sent, so callers hand over values they do not
// change afterwards (the row slices of an upsert are built for it).
type pgTx struct {
	conn    *pgx.Conn
	pending []read // statements not sent yet, in order: a write has no scan
	hold    bool   // inside Wtx.Together: its selects wait too
}

// read is a query whose rows go to scan.
type read struct {
	q    string
	args []any
	scan func(Rows) error
}

// each scans every row of rows, from pgx or database/sql, and reports the rows' error with r's query.
func (r read) each(rows interface {
	Rows
	Next() bool
	Err() error
}) error {
	for rows.Next() {
		if err := r.scan(rows); err != nil {
			return err
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("query %.80q: %w", r.q, err)
	}
	return nil
}

// pgWriteTx runs fn in one transaction on a connection of db's pool, driven by pgx itself.
func pgWriteTx(ctx context.Context, db *sql.DB, d dialect, fn func(w *Wtx) error) error {
	c, err := db.Conn(ctx)
	if err != nil {
		return fmt.Errorf("begin read-model tx: %w", err)
	}
	defer c.Close()
	// A panic in fn leaves Raw with driver.ErrBadConn: database/sql closes the connection, and
	// the transaction ends with it (the projections router recovers and retries the page).
	return c.Raw(func(dc any) error {
		sc, ok := dc.(*stdlib.Conn)
		if !ok {
			return fmt.Errorf("begin read-model tx: driver connection is a %T, not pgx's", dc)
		}
		t := &pgTx{conn: sc.Conn()}
		defer t.end()
		// Sent with the first read. Read models can always be rebuilt from the log, so commits
		// do not wait for the WAL flush; event appends stay durable.
		t.queue("BEGIN", nil)
		t.queue("SET LOCAL synchronous_commit = off", nil)
		if err := fn(&Wtx{pg: t, d: d}); err != nil {
			return err
		}
		t.queue("COMMIT", nil)
		tag, err := t.send(ctx)
		if err != nil {
			return fmt.Errorf("commit read-model tx: %w", err)
		}
		if tag.String() != "COMMIT" {
			// An error that a caller swallowed aborted the transaction: COMMIT rolled it back.
			return fmt.Errorf("commit read-model tx: rolled back (%s)", tag)
		}
		return nil
	})
}

// queue adds a statement whose result nobody reads; q is in PostgreSQL's placeholders.
func (t *pgTx) queue(q string, args []any) { t.pending = append(t.pending, read{q: q, args: args}) }

// send sends the pending statements and then reads, in one round trip, hands each read's rows to
// its scan, and returns the command tag of the last statement without a scan.
func (t *pgTx) send(ctx context.Context, reads ...read) (last pgconn.CommandTag, err error) {
	items := append(t.pending, reads...)
	t.pending = nil
	if len(items) == 0 {
		return last, nil
	}
	b := &pgx.Batch{}
	for _, it := range items {
		b.Queue(it.q, it.args...)
	}
	br := t.conn.SendBatch(ctx, b)
	defer func() {
		if cerr := br.Close(); err == nil && cerr != nil {
			err = fmt.Errorf("end pipeline: %w", cerr)
		}
	}()
	for _, it := range items {
		if it.scan != nil {
			err = scanRows(br, it)
		} else if last, err = br.Exec(); err != nil {
			err = fmt.Errorf("exec %.80q: %w", it.q, err)
		}
		if err != nil {
			return last, err
		}
	}
	return last, nil
}

func scanRows(br pgx.BatchResults, r read) error {
	rows, err := br.Query()
	if err != nil {
		return fmt.Errorf("query %.80q: %w", r.q, err)
	}
	defer rows.Close()
	return r.each(rows)
}

// end rolls back a transaction that did not commit, and closes the connection when it cannot, so
// that the pool never hands out a connection inside a transaction.
func (t *pgTx) end() {
	if t.conn.IsClosed() || t.conn.PgConn().TxStatus() == 'I' {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if _, err := t.conn.Exec(ctx, "ROLLBACK"); err != nil {
		_ = t.conn.Close(ctx)
	}
}

// prepare sends what is pending (the statement's table may be made by it) and prepares q: the
// pending executions of q then run it prepared, parsed once (unprepare drops it).
func (t *pgTx) prepare(ctx context.Context, q string) error {
	if _, err := t.send(ctx); err != nil {
		return err
	}
	if _, err := t.conn.Prepare(ctx, q, q); err != nil {
		return fmt.Errorf("prepare %.80q: %w", q, err)
	}
	return nil
}

// unprepare sends the pending executions of q, then drops its prepared statement.
func (t *pgTx) unprepare(ctx context.Context, q string) error {
	if _, err := t.send(ctx); err != nil {
		return err
	}
	if err := t.conn.Deallocate(ctx, q); err != nil {
		return fmt.Errorf("deallocate %.80q: %w", q, err)
	}
	return nil
}

// pgRow is the row of a single-row query, run when scanned.
type pgRow struct {
	ctx  context.Context
	t    *pgTx
	q    string
	args []any
}

// Scan reads the first row into dest, or returns sql.ErrNoRows.
func (r pgRow) Scan(dest ...any) error {
	found := false
	_, err := r.t.send(r.ctx, read{q: r.q, args: r.args, scan: func(rows Rows) error {
		if found {
			return nil
		}
		found = true
		return rows.Scan(dest...)
	}})
	if err != nil {
		return err
	}
	if !found {
		return sql.ErrNoRows
	}
	return nil
}
