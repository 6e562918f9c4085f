package projections

import (
	"context"
	"fmt"
	"slices"
	"testing"
)

// TestStatementsOfEveryLength: pages that write, read and delete every number of rows from 0 to
// 150 find exactly their rows on both databases, and on SQLite they run a bounded set of
// statement texts (four kinds in the row counts of stmtRows), all prepared after their first
// use: a second round of every length parses nothing and the cache does not grow.
func TestStatementsOfEveryLength(t *testing.T) {
	backends(t, func(t *testing.T, e *env) {
		ctx := context.Background()
		db := e.open()
		tb := &Table{Name: "length_probe", Key: []string{"a", "b"},
			Cols: []Column{{Name: "a", Kind: KindText}, {Name: "b", Kind: KindText}, {Name: "v", Kind: KindInt}}}
		if err := db.writeTx(ctx, func(w *Wtx) error { return w.Exec(ctx, db.d.createTable(tb, "", "t")) }); err != nil {
			t.Fatal(err)
		}
		// prepared: every statement must run prepared (SQLite, after the first round).
		round := func(t *testing.T, v int64, prepared bool) {
			for n := range 151 {
				var rows, keys [][]any
				var vals []any
				for i := range n {
					a, b := fmt.Sprint(n), fmt.Sprint(i)
					rows = append(rows, []any{a, b, v + int64(i)})
					keys = append(keys, []any{a, b})
					vals = append(vals, b)
				}
				// A key of a row that does not exist, and one of another length's rows.
				keys = append(keys, []any{fmt.Sprint(n), "none"}, []any{"none", "0"})
				err := db.writeTx(ctx, func(w *Wtx) error {
					if err := w.Upsert(ctx, tb, rows); err != nil {
						return err
					}
					var byKey, byIn []string
					err := w.SelectKeys(ctx, tb, keys, func(r Rows) error {
						var a, b string
						var got int64
						if err := r.Scan(&a, &b, &got); err != nil {
							return err
						}
						byKey = append(byKey, fmt.Sprintf("%s/%s=%d", a, b, got))
						return nil
					})
					if err != nil {
						return err
					}
					err = w.SelectIn(ctx, tb, "b", vals, func(r Rows) error {
						var a, b string
						var got int64
						if err := r.Scan(&a, &b, &got); err != nil {
							return err
						}
						if a == fmt.Sprint(n) {
							byIn = append(byIn, fmt.Sprintf("%s/%s=%d", a, b, got))
						}
						return nil
					})
					if err != nil {
						return err
					}
					var want []string
					for i := range n {
						want = append(want, fmt.Sprintf("%d/%d=%d", n, i, v+int64(i)))
					}
					slices.Sort(want)
					slices.Sort(byKey)
					slices.Sort(byIn)
					if !slices.Equal(byKey, want) || !slices.Equal(byIn, want) {
						return fmt.Errorf("%d rows: by key %v, by IN %v; want %v", n, byKey, byIn, want)
					}
					if err := w.DeleteIn(ctx, tb, "b", vals[:max(0, n-1)]); err != nil {
						return err
					}
					var left int
					if err := w.QueryRow(ctx, "SELECT COUNT(*) FROM length_probe WHERE a = ?", fmt.Sprint(n)).Scan(&left); err != nil {
						return err
					}
					if left != min(n, 1) {
						return fmt.Errorf("%d rows: %d left after deleting %d", n, left, max(0, n-1))
					}
					if prepared && len(w.unprepared) > 0 {
						return fmt.Errorf("%d rows: parsed again: %v", n, w.unprepared)
					}
					return w.Exec(ctx, "DELETE FROM length_probe")
				})
				if err != nil {
					t.Fatal(err)
				}
			}
		}
		round(t, 1, false)
		if db.d.postgres {
			round(t, 1000, false)
			return
		}
		held := db.wstmts.size()
		if bound := 2 + 4*len(stmtRows); held > bound {
			t.Fatalf("%d statements cached after writes of every length; want at most %d", held, bound)
		}
		round(t, 1000, true)
		if got := db.wstmts.size(); got != held {
			t.Fatalf("cache grew from %d to %d statements on the second round", held, got)
		}
	})
}

// TestStatementCacheBounded: statements of ever new texts (IN lists of every length, the scratch
// tables of comparisons) never hold more than the cache's bound; the least recently used go, the
// statements prepared for every page stay.
func TestStatementCacheBounded(t *testing.T) {
	ctx := context.Background()
	db := sqliteEnv(t).open()
	c := newStmtCache(db.r)
	c.max = 8
	defer c.close()
	if err := c.prepare(ctx, sqlLockCheckpoint); err != nil {
		t.Fatal(err)
	}
	for n := 1; n <= 40; n++ {
		q := "SELECT name FROM projection_checkpoints WHERE name IN (" + Placeholders(n) + ")"
		if c.get(ctx, q) == nil {
			t.Fatalf("IN list of %d not prepared", n)
		}
		if c.size() > c.max {
			t.Fatalf("%d statements held; bound %d", c.size(), c.max)
		}
	}
	if c.lookup(sqlLockCheckpoint) == nil {
		t.Fatal("the pinned statement was evicted")
	}
	if c.lookup("SELECT name FROM projection_checkpoints WHERE name IN ("+Placeholders(40)+")") == nil {
		t.Fatal("the statement used last was evicted")
	}
}
