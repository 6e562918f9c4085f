package projections

import (
	"context"
	"fmt"
	"testing"
)

// TestBigUpsertAndSelectKeys: a page of rows beyond two full statements (sharing one prepared
// statement) is written whole, rewritten in place, and read back by its composite key, on both
// databases.
func TestBigUpsertAndSelectKeys(t *testing.T) {
	backends(t, func(t *testing.T, e *env) {
		ctx := context.Background()
		db := e.open()
		tb := &Table{Name: "upsert_probe", Key: []string{"a", "b"}, Fixed: []string{"fixed"},
			Cols: []Column{{Name: "a", Kind: KindText}, {Name: "b", Kind: KindText}, {Name: "fixed", Kind: KindInt}, {Name: "v", Kind: KindInt}}}
		per := MaxParams / len(tb.Cols)
		n := 2*per + 7
		rows := func(v int64) [][]any {
			out := make([][]any, n)
			for i := range out {
				out[i] = []any{fmt.Sprint(i % 10), fmt.Sprint(i), v, v + int64(i)}
			}
			return out
		}
		err := db.writeTx(ctx, func(w *Wtx) error {
			if err := w.Exec(ctx, db.d.createTable(tb, "", "t")); err != nil {
				return err
			}
			if err := w.Upsert(ctx, tb, rows(1)); err != nil {
				return err
			}
			return w.Upsert(ctx, tb, rows(1000000))
		})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		err = db.writeTx(ctx, func(w *Wtx) error {
			// (3, 3) and (4, 14) exist; (3, 4) pairs a real a with a real b of another row.
			keys := [][]any{{"3", "3"}, {"4", "14"}, {"3", "4"}}
			return w.SelectKeys(ctx, tb, keys, func(r Rows) error {
				var a, b string
				var fixed, v int64
				if err := r.Scan(&a, &b, &fixed, &v); err != nil {
					return err
				}
				got = append(got, fmt.Sprintf("%s/%s %d %d", a, b, fixed, v))
				return nil
			})
		})
		if err != nil {
			t.Fatal(err)
		}
		var count int
		if err := db.w.QueryRowContext(ctx, "SELECT COUNT(*) FROM upsert_probe").Scan(&count); err != nil || count != n {
			t.Fatalf("rows = %d, %v; want %d", count, err, n)
		}
		if fmt.Sprint(got) != "[3/3 1 1000003 4/14 1 1000014]" && fmt.Sprint(got) != "[4/14 1 1000014 3/3 1 1000003]" {
			t.Fatalf("selected %v", got)
		}
	})
}
