package projections

import (
	"context"
	"fmt"
	"strings"
)

// RowMap declares a read-model table's row once: each column's name, its kind and the field of
// the row struct R that holds it, in column order. The table's columns, the arguments of an
// upsert, the select list and the scan all come from it, so a column is added in one place.
type RowMap[R any] []Field[R]

// Field is one column of R; ptr points into a row (a *string for kText, an *int64 for kInt).
type Field[R any] struct {
	name string
	kind colKind
	ptr  func(*R) any
}

// Text is a TEXT column held in a string field (decimals are stored as text).
func Text[R any](name string, f func(*R) *string) Field[R] {
	return Field[R]{name: name, kind: KindText, ptr: func(r *R) any { return f(r) }}
}

// Integer is a BIGINT column held in an int64 field (counts, unix microseconds, 0/1 booleans).
func Integer[R any](name string, f func(*R) *int64) Field[R] {
	return Field[R]{name: name, kind: KindInt, ptr: func(r *R) any { return f(r) }}
}

func (m RowMap[R]) Columns() []Column {
	out := make([]Column, len(m))
	for i, f := range m {
		out[i] = Column{Name: f.name, Kind: f.kind}
	}
	return out
}

// List is the select list, in column order.
func (m RowMap[R]) List() string { return m.ListOf("") }

// ListOf is the select list with each column qualified by alias, for a query that joins tables.
func (m RowMap[R]) ListOf(alias string) string {
	if alias != "" {
		alias += "."
	}
	names := make([]string, len(m))
	for i, f := range m {
		names[i] = alias + f.name
	}
	return strings.Join(names, ", ")
}

// Args are r's values in column order, for upsert.
func (m RowMap[R]) Args(r *R) []any {
	out := make([]any, len(m))
	for i, f := range m {
		switch p := f.ptr(r).(type) {
		case *string:
			out[i] = *p
		case *int64:
			out[i] = *p
		default:
			panic(fmt.Sprintf("projections: column %s holds a %T", f.name, p)) // text and integer make only these
		}
	}
	return out
}

// Scan reads a row selected with list into r.
func (m RowMap[R]) Scan(s Rows, r *R) error {
	dest := make([]any, len(m))
	for i, f := range m {
		dest[i] = f.ptr(r)
	}
	return s.Scan(dest...)
}

// SelectIn selects tb's rows whose col is one of vals within w, scans each with m and hands it to put.
func (m RowMap[R]) SelectIn(ctx context.Context, w *Wtx, tb *Table, col string, vals []any, put func(*R)) error {
	return w.SelectIn(ctx, tb, col, vals, m.scanInto(put))
}

// SelectKeys selects tb's rows whose key is one of keys (Wtx.SelectKeys) within w, scans each
// with m and hands it to put.
func (m RowMap[R]) SelectKeys(ctx context.Context, w *Wtx, tb *Table, keys [][]any, put func(*R)) error {
	return w.SelectKeys(ctx, tb, keys, m.scanInto(put))
}

func (m RowMap[R]) scanInto(put func(*R)) func(Rows) error {
	return func(rows Rows) error {
		r := new(R)
		if err := m.Scan(rows, r); err != nil {
			return err
		}
		put(r)
		return nil
	}
}

// Scanner reads one row with m and converts it to its typed view.
func Scanner[R, T any](m RowMap[R], convert func(*R) (T, error)) func(Rows) (T, error) {
	return func(rows Rows) (T, error) {
		var r R
		if err := m.Scan(rows, &r); err != nil {
			var zero T
			return zero, err
		}
		return convert(&r)
	}
}

// QueryAll is every row q selects, read by scan; an empty list, not nil, when there is none.
func QueryAll[T any](ctx context.Context, db *Reader, what, q string, args []any, scan func(Rows) (T, error)) ([]T, error) {
	out := []T{}
	err := db.Query(ctx, what, q, args, func(rows Rows) error {
		v, err := scan(rows)
		if err != nil {
			return err
		}
		out = append(out, v)
		return nil
	})
	return out, err
}

// QueryPage is one page of rows q selects with LIMIT limit (one more than the page, see
// PageArgs), and whether there are more.
func QueryPage[T any](ctx context.Context, db *Reader, what, q string, args []any, limit int, scan func(Rows) (T, error)) ([]T, bool, error) {
	out, err := QueryAll(ctx, db, what, q, args, scan)
	if err != nil {
		return nil, false, err
	}
	return TrimPage(out, limit)
}

// QueryOne is the first row q selects, or ErrNotFound when there is none.
func QueryOne[T any](ctx context.Context, db *Reader, what, q string, args []any, scan func(Rows) (T, error)) (T, error) {
	out, err := QueryAll(ctx, db, what, q, args, scan)
	if err == nil && len(out) == 0 {
		err = ErrNotFound
	}
	if err != nil {
		var zero T
		return zero, err
	}
	return out[0], nil
}

// Collect is a Query callback that scans each row with m and appends what convert makes of
// it (a row's typed view) to out.
func Collect[R, T any](out *[]T, m RowMap[R], convert func(*R) (T, error)) func(Rows) error {
	return func(rows Rows) error {
		var r R
		if err := m.Scan(rows, &r); err != nil {
			return err
		}
		v, err := convert(&r)
		if err != nil {
			return err
		}
		*out = append(*out, v)
		return nil
	}
}

// Rows is the row a Query or SelectIn callback reads: capability packages scan it without
// knowing the database layer.
type Rows interface{ Scan(dest ...any) error }
