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
