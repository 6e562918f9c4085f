package sqlite_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/lotbook/lotbook/events"
	"github.com/lotbook/lotbook/events/sqlite"
	"github.com/lotbook/lotbook/events/storetest"
)

func open(t testing.TB, path string) *sqlite.Store {
	t.Helper()
	s, err := sqlite.Open(context.Background(), path)
	if err != nil {
		t.Fatalf("open: %v", err)
	}
	return s
}

func TestConformance(t *testing.T) {
	storetest.Run(t, func(t *testing.T) events.Store {
		return open(t, filepath.Join(t.TempDir(), "events.db"))
	})
}

// Two Stores on one file are two processes: each writer trusts the stream versions of its own
// last commit only while the head it left is still the head.
func TestTwoStoresOneStream(t *testing.T) {
	path := filepath.Join(t.TempDir(), "events.db")
	a, b := open(t, path), open(t, path)
	t.Cleanup(func() { _ = a.Close(); _ = b.Close() })
	storetest.TwoStoresOneStream(t, a, b)
}

func TestTwoStoresNewStreams(t *testing.T) {
	path := filepath.Join(t.TempDir(), "events.db")
	a, b := open(t, path), open(t, path)
	t.Cleanup(func() { _ = a.Close(); _ = b.Close() })
	storetest.TwoStoresNewStreams(t, a, b)
}
