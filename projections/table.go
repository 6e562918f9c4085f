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

// Wtx is a read-model write transaction. suffix selects the table set a projector writes:
// "" for the live tables, "_rebuild" or "_cmp..." for the fresh copies built from the log.
type Wtx struct {
	tx     *sql.Tx
	d      dialect
	suffix string
	stmts  *stmtCache // the write connection's prepared statements (SQLite)
}

func (w *Wtx) T(tb *Table) string { return tb.Name + w.suffix }

func (w *Wtx) Exec(ctx context.Context, q string, args ...any) error {
	if st := w.stmts.lookup(q); st != nil {
		if _, err := w.tx.StmtContext(ctx, st).ExecContext(ctx, args...); err != nil {
			return fmt.Errorf("exec %.80q: %w", q, err)
		}
		return nil
	}
	if _, err := w.tx.ExecContext(ctx, w.d.rebind(q), args...); err != nil {
		return fmt.Errorf("exec %.80q: %w", q, err)
	}
	return nil
}

// queryRow runs a single-row query, prepared when the statement is cached.
func (w *Wtx) QueryRow(ctx context.Context, q string, args ...any) *sql.Row {
	if st := w.stmts.lookup(q); st != nil {
		return w.tx.StmtContext(ctx, st).QueryRowContext(ctx, args...)
	}
	return w.tx.QueryRowContext(ctx, w.d.rebind(q), args...)
}

func (w *Wtx) Query(ctx context.Context, q string, args ...any) (*sql.Rows, error) {
	rows, err := w.tx.QueryContext(ctx, w.d.rebind(q), args...)
	if err != nil {
		return nil, fmt.Errorf("query %.80q: %w", q, err)
	}
	return rows, nil
}

// Upsert writes whole rows (column order of tb), replacing rows with the same key, in
// multi-row statements.
func (w *Wtx) Upsert(ctx context.Context, tb *Table, rows [][]any) error {
	if len(rows) == 0 {
		return nil
	}
	cols := tb.colNames()
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
	tuple := "(" + Placeholders(len(cols)) + ")"
	per := MaxParams / len(cols)
	statement := func(n int) string {
		return fmt.Sprintf("INSERT INTO %s (%s) VALUES %s ON CONFLICT (%s) %s", w.T(tb), strings.Join(cols, ", "),
			strings.TrimSuffix(strings.Repeat(tuple+",", n), ","), strings.Join(tb.Key, ", "), conflict)
	}
	// The full chunks of a big page (a rebuild's) share one statement, parsed once: parsing
	// thousands of tuples cost SQLite as much as binding them.
	var full *sql.Stmt
	if len(rows) >= 2*per {
		st, err := w.tx.PrepareContext(ctx, w.d.rebind(statement(per)))
		if err != nil {
			return fmt.Errorf("upsert %s: prepare: %w", tb.Name, err)
		}
		defer st.Close()
		full = st
	}
	for start := 0; start < len(rows); start += per {
		chunk := rows[start:min(len(rows), start+per)]
		args := make([]any, 0, len(chunk)*len(cols))
		for _, r := range chunk {
			if len(r) != len(cols) {
				return fmt.Errorf("upsert %s: row has %d values for %d columns", tb.Name, len(r), len(cols))
			}
			args = append(args, r...)
		}
		var err error
		if full != nil && len(chunk) == per {
			_, err = full.ExecContext(ctx, args...)
		} else {
			err = w.Exec(ctx, statement(len(chunk)), args...)
		}
		if err != nil {
			return fmt.Errorf("upsert %s: %w", tb.Name, err)
		}
	}
	return nil
}

// DeleteIn deletes the rows whose column col is one of vals.
func (w *Wtx) DeleteIn(ctx context.Context, tb *Table, col string, vals []any) error {
	for start := 0; start < len(vals); start += MaxParams {
		chunk := vals[start:min(len(vals), start+MaxParams)]
		q := fmt.Sprintf("DELETE FROM %s WHERE %s IN (%s)", w.T(tb), col, Placeholders(len(chunk)))
		if err := w.Exec(ctx, q, chunk...); err != nil {
			return err
		}
	}
	return nil
}

// SelectIn scans the whole rows (column order of tb) whose column col is one of vals.
func (w *Wtx) SelectIn(ctx context.Context, tb *Table, col string, vals []any, scan func(Rows) error) error {
	for start := 0; start < len(vals); start += MaxParams {
		chunk := vals[start:min(len(vals), start+MaxParams)]
		q := fmt.Sprintf("SELECT %s FROM %s WHERE %s IN (%s)", strings.Join(tb.colNames(), ", "), w.T(tb), col, Placeholders(len(chunk)))
		if err := w.scanAll(ctx, tb, q, chunk, scan); err != nil {
			return err
		}
	}
	return nil
}

// SelectKeys scans the whole rows of tb whose key (tb.Key, in order) is one of keys. A table
// keyed by several columns is found through its primary key only by all of them: an IN list on
// a later key column alone scans the whole table on SQLite. The keys are a VALUES list joined
// on the key, which both databases look up in the primary key.
func (w *Wtx) SelectKeys(ctx context.Context, tb *Table, keys [][]any, scan func(Rows) error) error {
	n := len(tb.Key)
	on := make([]string, n)
	for i, c := range tb.Key {
		on[i] = fmt.Sprintf("t.%s = k.column%d", c, i+1)
	}
	cols := make([]string, len(tb.Cols))
	for i, c := range tb.colNames() {
		cols[i] = "t." + c
	}
	tuple := "(" + Placeholders(n) + ")"
	per := MaxParams / n
	for start := 0; start < len(keys); start += per {
		chunk := keys[start:min(len(keys), start+per)]
		args := make([]any, 0, len(chunk)*n)
		for _, k := range chunk {
			if len(k) != n {
				return fmt.Errorf("select %s: key has %d values for %d columns", tb.Name, len(k), n)
			}
			args = append(args, k...)
		}
		q := fmt.Sprintf("SELECT %s FROM (VALUES %s) AS k JOIN %s t ON %s", strings.Join(cols, ", "),
			strings.TrimSuffix(strings.Repeat(tuple+",", len(chunk)), ","), w.T(tb), strings.Join(on, " AND "))
		if err := w.scanAll(ctx, tb, q, args, scan); err != nil {
			return err
		}
	}
	return nil
}

// scanAll runs the select q of tb's rows and scans each.
func (w *Wtx) scanAll(ctx context.Context, tb *Table, q string, args []any, scan func(Rows) error) error {
	rows, err := w.Query(ctx, q, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		if err := scan(rows); err != nil {
			return fmt.Errorf("scan %s: %w", tb.Name, err)
		}
	}
	if err := rows.Err(); err != nil {
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
