package sqlite_test

import (
	"context"
	"fmt"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/lotbook/lotbook/events"
)

// TestReadAllFromRecentEqualsTheFile: the events a writer committed last are read from memory,
// and every read of them equals a read of the file, also when another process's commits lie
// between this writer's (two Stores on one file), at every start and page length, and after
// more commits than memory holds.
func TestReadAllFromRecentEqualsTheFile(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "events.db")
	a, b := open(t, path), open(t, path)
	t.Cleanup(func() { _ = a.Close(); _ = b.Close() })
	at := time.Date(2026, 11, 25, 1, 2, 3, 456789, time.UTC)
	appendN := func(st events.Store, stream string, n int) {
		t.Helper()
		evs := make([]events.EventData, n)
		for i := range evs {
			evs[i] = events.EventData{ID: uuid.New(), Type: "Tested.v1", Data: fmt.Appendf(nil, `{"i":%d}`, i),
				Metadata: events.Metadata{CommandID: uuid.NewString(), Actor: "system", Request: "r", ServerTime: at}}
		}
		if _, err := st.Append(ctx, stream, events.AnyVersion, evs); err != nil {
			t.Fatal(err)
		}
	}
	appendN(a, "s-a", 3)
	appendN(b, "s-b", 2) // between a's commits: a's memory must not bridge it
	appendN(a, "s-a", 4)
	appendN(a, "s-c", 1)
	appendN(b, "s-b", 1)
	appendN(a, "s-a", 2)
	check := func(afters func(head int64) []int64) {
		t.Helper()
		file := open(t, path) // a store of its own, which committed nothing: it reads the file
		defer file.Close()
		head, err := file.Head(ctx)
		if err != nil {
			t.Fatal(err)
		}
		for _, after := range afters(head) {
			for _, limit := range []int{1, 2, 5, 1000} {
				got, err := a.ReadAll(ctx, after, limit)
				if err != nil {
					t.Fatal(err)
				}
				want, err := file.ReadAll(ctx, after, limit)
				if err != nil {
					t.Fatal(err)
				}
				if !reflect.DeepEqual(got, want) {
					t.Fatalf("ReadAll after %d limit %d:\n got %+v\nwant %+v", after, limit, got, want)
				}
			}
		}
	}
	check(func(head int64) []int64 {
		all := make([]int64, head+1)
		for i := range all {
			all[i] = int64(i)
		}
		return all
	})
	for range 3 {
		appendN(a, "s-big", 4000) // past what memory keeps
	}
	check(func(head int64) []int64 { // around where memory starts, and its end
		return []int64{0, 12, head - 8001, head - 8000, head - 4097, head - 4096, head - 4095, head - 2, head - 1, head}
	})
}
