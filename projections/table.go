package projections

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"
)

// The read models are written through one small dialect layer so that every projector and
// query has a single code path for SQLite and PostgreSQL. Both speak `INSERT ... ON CONFLICT
// (...) DO UPDATE SET c = excluded.c` and row values; they differ in placeholders ("?" versus
// "$n"), in a few type names, and in locking (SQLite's write transactions are BEGIN IMMEDIATE,
// PostgreSQL locks the checkpoint row FOR UPDATE). Decimals are stored as TEXT (exact, and summed
// in Go with shopspring/decimal, never by the database in floating point); times as BIGINT unix
// microseconds (UTC); booleans as BIGINT 0/1.

type dialect struct{ postgres bool }

// rebind turns "?" placeholders into "$1, $2, ..." for PostgreSQL. Our SQL text never holds a
// literal question mark.
func (d dialect) rebind(q string) string {
	if !d.postgres {
		return q
	}
	var b strings.Builder
	b.Grow(len(q) + 16)
	n := 0
	for i := 0; i < len(q); i++ {
		if q[i] == '?' {
			n++
			fmt.Fprintf(&b, "$%d", n)
			continue
		}
		b.WriteByte(q[i])
	}
	return b.String()
}

func (d dialect) forUpdate() string {
	if d.postgres {
		return " FOR UPDATE"
	}
	return "" // the SQLite write transaction already holds the database's write lock
}

type colKind int

const (
	KindText colKind = iota
	KindInt
	KindBlob
)

func (d dialect) typeName(k colKind) string {
	switch k {
	case KindInt:
		return "BIGINT"
	case KindBlob:
		if d.postgres {
			return "BYTEA"
		}
		return "BLOB"
	default:
		return "TEXT"
	}
}

type Column struct {
	Name string
	Kind colKind
}

// table describes one read-model table: its columns, primary key and secondary indexes.
// Projectors write whole rows in column order.
type Table struct {
	Name    string
	Cols    []Column
	Key     []string
	Indexes []string // column lists, e.g. "member_id, created_at DESC"
	// fixed columns never change once a row is written: an upsert that finds the row leaves
	// them alone, and so does not rewrite the entries of indexes made of them (SQLite rewrites
	// the index entries of every column an UPDATE sets; measured, updating only the changing
	// columns of a fund record cost a quarter of rewriting the whole row).
	Fixed []string
}

func (t *Table) colNames() []string {
	out := make([]string, len(t.Cols))
	for i, c := range t.Cols {
		out[i] = c.Name
	}
	return out
}

// Signature is a stable description of the table's shape; a change of it resets the projection.
func (t *Table) Signature() string {
	var b strings.Builder
	b.WriteString(t.Name)
	for _, c := range t.Cols {
		fmt.Fprintf(&b, "|%s:%d", c.Name, c.Kind)
	}
	fmt.Fprintf(&b, "|key:%s|ix:%s", strings.Join(t.Key, ","), strings.Join(t.Indexes, ";"))
	return b.String()
}

// createTable is the DDL of the table under name+suffix. Constraint and index names carry a
// random tag: they are global names in both databases and survive a table rename, so a later
// rebuild must never reuse them.
func (d dialect) createTable(t *Table, suffix, tag string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "CREATE TABLE %s%s (", t.Name, suffix)
	for _, c := range t.Cols {
		fmt.Fprintf(&b, "%s %s NOT NULL, ", c.Name, d.typeName(c.Kind))
	}
	fmt.Fprintf(&b, "CONSTRAINT pk_%s_%s PRIMARY KEY (%s))", t.Name, tag, strings.Join(t.Key, ", "))
	return b.String()
}

func (d dialect) createIndexes(t *Table, suffix, tag string) []string {
	out := make([]string, len(t.Indexes))
	for i, ix := range t.Indexes {
		out[i] = fmt.Sprintf("CREATE INDEX ix_%s_%s_%d ON %s%s (%s)", t.Name, tag, i, t.Name, suffix, ix)
	}
	return out
}

func schemaHash(version int, tables []*Table) string {
	h := sha256.New()
	fmt.Fprintf(h, "v%d", version)
	for _, t := range tables {
		h.Write([]byte("\n" + t.Signature()))
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}

// MaxParams keeps every statement below SQLite's (32766) and PostgreSQL's (65535) limits.
const MaxParams = 30000

// stmtRows are the row counts of the statements that write or read a variable number of rows
// (Upsert, SelectIn, SelectKeys, DeleteIn) on SQLite, largest first. Every such statement text
// holds one of them, so that each is parsed once and then runs prepared however many rows a page
// has: parsing the SQL of statements of every length cost a page as much as running them. Rows
// to write are split greedily into the largest that fit; a list of keys to read or delete goes
// in chunks of the largest, the rest padded with NULL keys (which match no row) up to the
// smallest that holds it. PostgreSQL parses every statement it is sent (nothing is prepared
// there, see stmtCache), so there a statement takes as many rows as its parameters allow: fewer
// round trips.
var stmtRows = []int{256, 64, 16, 4, 1}

// chunk is how many of n rows of width values go in the next statement, and the statement's row
// count (more when the rows are keys, padded).
func (d dialect) chunk(n, width int, keys bool) (rows, size int) {
	if d.postgres {
		rows = min(n, MaxParams/width)
		return rows, rows
	}
	if n >= stmtRows[0] {
		return stmtRows[0], stmtRows[0]
	}
	for i, s := range stmtRows {
		if !keys && s <= n {
			return s, s
		}
		if keys && (i == len(stmtRows)-1 || stmtRows[i+1] < n) {
			return n, s
		}
	}
	return n, n
}

// Wtx is a read-model write transaction. suffix selects the table set a projector writes:
// "" for the live tables, "_rebuild" or "_cmp..." for the fresh copies built from the log.
type Wtx struct {
	tx     *sql.Tx // SQLite
	pg     *pgTx   // PostgreSQL: statements pipelined (see pgTx)
	d      dialect
	suffix string
	stmts  *stmtCache // the write connection's prepared statements (SQLite)
	// unprepared are the statements of stmtRows that ran as text: the transaction holds the one
	// write connection, so they are prepared once it has ended (ReadDB.writeTx).
	unprepared map[string]bool
}

func (w *Wtx) T(tb *Table) string { return tb.Name + w.suffix }

// Exec runs a statement whose result is not read. On PostgreSQL it goes with the transaction's
// next read or its commit, which returns its error.
func (w *Wtx) Exec(ctx context.Context, q string, args ...any) error {
	return w.exec(ctx, q, args, w.prepared(ctx, q))
}

// execRows runs q, a statement of a variable number of rows (see stmtRows), with args.
func (w *Wtx) execRows(ctx context.Context, q string, args []any) error {
	return w.exec(ctx, q, args, w.cached(ctx, q))
}

// exec runs q with args, as st when prepared.
func (w *Wtx) exec(ctx context.Context, q string, args []any, st *sql.Stmt) error {
	var err error
	switch {
	case w.pg != nil:
		w.pg.queue(w.d.rebind(q), args)
	case st != nil:
		_, err = st.ExecContext(ctx, args...)
	default:
		_, err = w.tx.ExecContext(ctx, w.d.rebind(q), args...)
	}
	if err != nil {
		return fmt.Errorf("exec %.80q: %w", q, err)
	}
	return nil
}

// prepared is q's statement in the transaction when it is cached (SQLite), else nil.
func (w *Wtx) prepared(ctx context.Context, q string) *sql.Stmt {
	if st := w.stmts.lookup(q); st != nil {
		return w.tx.StmtContext(ctx, st)
	}
	return nil
}

// cached is the prepared statement of q, one of the texts of stmtRows, or nil when it runs as
// text this time (and is prepared after the transaction).
func (w *Wtx) cached(ctx context.Context, q string) *sql.Stmt {
	if w.stmts == nil {
		return nil
	}
	if st := w.prepared(ctx, q); st != nil {
		return st
	}
	if w.unprepared == nil {
		w.unprepared = map[string]bool{}
	}
	w.unprepared[q] = true
	return nil
}

// Together runs fn, whose SelectIn and SelectKeys hand their rows to their scans only by the time
// Together returns: on PostgreSQL they go together in one round trip. fn's selects must not
// depend on one another's rows (as the tables of a page, read before it is folded).
func (w *Wtx) Together(ctx context.Context, fn func() error) error {
	if w.pg == nil {
		return fn()
	}
	held := w.pg.hold
	w.pg.hold = true
	err := fn()
	w.pg.hold = held
	if err != nil {
		return err
	}
	_, err = w.pg.send(ctx) // also when nested: every Together's rows are there when it returns
	return err
}

// Row is the row of a single-row query: Scan returns sql.ErrNoRows when there is none.
type Row interface{ Scan(dest ...any) error }

// QueryRow runs a single-row query, prepared when the statement is cached.
func (w *Wtx) QueryRow(ctx context.Context, q string, args ...any) Row {
	if w.pg != nil {
		return pgRow{ctx: ctx, t: w.pg, q: w.d.rebind(q), args: args}
	}
	if st := w.prepared(ctx, q); st != nil {
		return st.QueryRowContext(ctx, args...)
	}
	return w.tx.QueryRowContext(ctx, w.d.rebind(q), args...)
}

// Query runs q and hands each row to scan.
func (w *Wtx) Query(ctx context.Context, q string, args []any, scan func(Rows) error) error {
	return w.read(ctx, read{q: q, args: args, scan: scan}, w.prepared(ctx, q))
}

// reads runs the queries rs in order: on PostgreSQL in one round trip, on SQLite prepared when
// cached.
func (w *Wtx) reads(ctx context.Context, rs ...read) error {
	if w.pg != nil {
		for i := range rs {
			rs[i].q = w.d.rebind(rs[i].q)
		}
		_, err := w.pg.send(ctx, rs...)
		return err
	}
	for _, r := range rs {
		if err := w.read(ctx, r, w.prepared(ctx, r.q)); err != nil {
			return err
		}
	}
	return nil
}

// read runs r, as st when prepared (SQLite).
func (w *Wtx) read(ctx context.Context, r read, st *sql.Stmt) error {
	if w.pg != nil {
		return w.reads(ctx, r)
	}
	var rows *sql.Rows
	var err error
	if st != nil {
		rows, err = st.QueryContext(ctx, r.args...)
	} else {
		rows, err = w.tx.QueryContext(ctx, w.d.rebind(r.q), r.args...)
	}
	if err != nil {
		return fmt.Errorf("query %.80q: %w", r.q, err)
	}
	defer rows.Close()
	return r.each(rows)
}

// WriteRows writes rows (each of the same width) with the statements that text makes for n rows
// (its placeholders n tuples of the rows' values, in order; on SQLite n is one of stmtRows, each
// text prepared once).
func (w *Wtx) WriteRows(ctx context.Context, rows [][]any, text func(n int) string) error {
	if len(rows) == 0 {
		return nil
	}
	width := len(rows[0])
	// On PostgreSQL the full chunks of a big page (a rebuild's) share one statement prepared in
	// the transaction: its text is rebound and parsed once.
	per := MaxParams / width
	var full string
	if w.pg != nil && len(rows) >= 2*per {
		full = w.d.rebind(text(per))
		if err := w.pg.prepare(ctx, full); err != nil {
			return err
		}
	}
	for len(rows) > 0 {
		n, _ := w.d.chunk(len(rows), width, false)
		args := make([]any, 0, n*width)
		for _, r := range rows[:n] {
			args = append(args, r...)
		}
		if full != "" && n == per {
			w.pg.queue(full, args) // runs prepared: pgx finds the statement by its text
		} else if err := w.execRows(ctx, text(n), args); err != nil {
			return err
		}
		rows = rows[n:]
	}
	if full != "" {
		return w.pg.unprepare(ctx, full)
	}
	return nil
}

// Tuples is n comma-separated tuples of width placeholders: the VALUES list of n rows.
func Tuples(n, width int) string {
	tuple := "(" + Placeholders(width) + ")"
	return strings.TrimSuffix(strings.Repeat(tuple+",", n), ",")
}

// Upsert writes whole rows (column order of tb), replacing rows with the same key, in
// multi-row statements.
func (w *Wtx) Upsert(ctx context.Context, tb *Table, rows [][]any) error {
	if len(rows) == 0 {
		return nil
	}
	cols := tb.colNames()
	for _, r := range rows {
		if len(r) != len(cols) {
			return fmt.Errorf("upsert %s: row has %d values for %d columns", tb.Name, len(r), len(cols))
		}
	}
	var set []string
	for _, c := range cols {
		if !slices.Contains(tb.Key, c) && !slices.Contains(tb.Fixed, c) {
			set = append(set, c+" = excluded."+c)
		}
	}
	conflict := "DO NOTHING"
	if len(set) > 0 {
		conflict = "DO UPDATE SET " + strings.Join(set, ", ")
	}
	head := fmt.Sprintf("INSERT INTO %s (%s) VALUES ", w.T(tb), strings.Join(cols, ", "))
	tail := fmt.Sprintf(" ON CONFLICT (%s) %s", strings.Join(tb.Key, ", "), conflict)
	if err := w.WriteRows(ctx, rows, func(n int) string { return head + Tuples(n, len(cols)) + tail }); err != nil {
		return fmt.Errorf("upsert %s: %w", tb.Name, err)
	}
	return nil
}

// keyRows runs the statements that text makes for n keys of width values (n from
// dialect.chunk) over keys, padding the last chunk with NULL keys.
func (w *Wtx) keyRows(keys [][]any, width int, run func(q string, args []any) error, text func(n int) string) error {
	for len(keys) > 0 {
		k, n := w.d.chunk(len(keys), width, true)
		args := make([]any, 0, n*width)
		for _, key := range keys[:k] {
			args = append(args, key...)
		}
		args = append(args, make([]any, (n-k)*width)...)
		if err := run(text(n), args); err != nil {
			return err
		}
		keys = keys[k:]
	}
	return nil
}

// single makes one-value keys of vals.
func single(vals []any) [][]any {
	out := make([][]any, len(vals))
	for i := range vals {
		out[i] = vals[i : i+1]
	}
	return out
}

// DeleteIn deletes the rows whose column col is one of vals.
func (w *Wtx) DeleteIn(ctx context.Context, tb *Table, col string, vals []any) error {
	head := fmt.Sprintf("DELETE FROM %s WHERE %s IN (", w.T(tb), col)
	return w.keyRows(single(vals), 1, func(q string, args []any) error { return w.execRows(ctx, q, args) },
		func(n int) string { return head + Placeholders(n) + ")" })
}

// SelectIn scans the whole rows (column order of tb) whose column col is one of vals.
func (w *Wtx) SelectIn(ctx context.Context, tb *Table, col string, vals []any, scan func(Rows) error) error {
	head := fmt.Sprintf("SELECT %s FROM %s WHERE %s IN (", strings.Join(tb.colNames(), ", "), w.T(tb), col)
	return w.keyRows(single(vals), 1, func(q string, args []any) error { return w.scanAll(ctx, tb, q, args, scan) },
		func(n int) string { return head + Placeholders(n) + ")" })
}

// SelectKeys scans the whole rows of tb whose key (tb.Key, in order) is one of keys. A table
// keyed by several columns is found through its primary key only by all of them: an IN list on
// a later key column alone scans the whole table on SQLite. The keys are a VALUES list joined
// on the key, which both databases look up in the primary key.
func (w *Wtx) SelectKeys(ctx context.Context, tb *Table, keys [][]any, scan func(Rows) error) error {
	n := len(tb.Key)
	for _, k := range keys {
		if len(k) != n {
			return fmt.Errorf("select %s: key has %d values for %d columns", tb.Name, len(k), n)
		}
	}
	on := make([]string, n)
	for i, c := range tb.Key {
		on[i] = fmt.Sprintf("t.%s = k.column%d", c, i+1)
	}
	cols := make([]string, len(tb.Cols))
	for i, c := range tb.colNames() {
		cols[i] = "t." + c
	}
	head := fmt.Sprintf("SELECT %s FROM (VALUES ", strings.Join(cols, ", "))
	tail := fmt.Sprintf(") AS k JOIN %s t ON %s", w.T(tb), strings.Join(on, " AND "))
	return w.keyRows(keys, n, func(q string, args []any) error { return w.scanAll(ctx, tb, q, args, scan) },
		func(rows int) string { return head + Tuples(rows, n) + tail })
}

// scanAll runs the select q of tb's rows and scans each.
func (w *Wtx) scanAll(ctx context.Context, tb *Table, q string, args []any, scan func(Rows) error) error {
	each := func(rows Rows) error {
		if err := scan(rows); err != nil {
			return fmt.Errorf("scan %s: %w", tb.Name, err)
		}
		return nil
	}
	if w.pg != nil && w.pg.hold {
		w.pg.pending = append(w.pg.pending, read{q: w.d.rebind(q), args: args, scan: each})
		return nil
	}
	if err := w.read(ctx, read{q: q, args: args, scan: each}, w.cached(ctx, q)); err != nil {
		return fmt.Errorf("select %s: %w", tb.Name, err)
	}
	return nil
}

// Placeholders is n comma-separated "?" for an IN (...) list.
func Placeholders(n int) string {
	return strings.TrimSuffix(strings.Repeat("?,", n), ",")
}

// KeysOf turns a set of strings into query arguments.
func KeysOf[V any](m map[string]V) []any {
	out := make([]any, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}

func BoolInt(b bool) int64 {
	if b {
		return 1
	}
	return 0
}
