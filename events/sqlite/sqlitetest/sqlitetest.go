// Package sqlitetest gives tests a fresh SQLite event store of their own in a temporary folder,
// closed when the test ends.
package sqlitetest

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/lotbook/lotbook/events/sqlite"
)

// Open opens a new event store under t.TempDir().
func Open(t testing.TB) *sqlite.Store {
	t.Helper()
	st, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "events.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = st.Close() })
	return st
}
