package postgres_test

import (
	"context"
	"testing"

	"github.com/lotbook/lotbook/events"
	"github.com/lotbook/lotbook/events/postgres"
	"github.com/lotbook/lotbook/events/postgres/pgtest"
	"github.com/lotbook/lotbook/events/storetest"
)

func open(t testing.TB, dsn string) *postgres.Store {
	t.Helper()
	s, err := postgres.Open(context.Background(), dsn)
	if err != nil {
		t.Fatalf("open: %v", err)
	}
	return s
}

func TestConformance(t *testing.T) {
	storetest.Run(t, func(t *testing.T) events.Store {
		return open(t, pgtest.NewDatabase(t))
	})
}

// TestManyWritersTwoStores runs the gap test with two Store instances (two pools, two writer
// goroutines, as two processes would) appending to one database at once.
func TestManyWritersTwoStores(t *testing.T) {
	dsn := pgtest.NewDatabase(t)
	a, b := open(t, dsn), open(t, dsn)
	t.Cleanup(func() { _ = a.Close(); _ = b.Close() })
	storetest.ManyWriters(t, []events.Store{a, b}, b, false)
	ta, ea := a.Stats()
	tb, eb := b.Stats()
	t.Logf("store a: %d events in %d transactions; store b: %d events in %d transactions", ea, ta, eb, tb)
}

// TestTwoStoresOneStream checks that a Store's remembered stream versions never outlive a write by
// another Store (another process) on the same database.
func TestTwoStoresOneStream(t *testing.T) {
	dsn := pgtest.NewDatabase(t)
	a, b := open(t, dsn), open(t, dsn)
	t.Cleanup(func() { _ = a.Close(); _ = b.Close() })
	storetest.TwoStoresOneStream(t, a, b)
}

// TestTwoStoresNewStreams checks the writer's own positioning of appends (which assumes a stream
// it does not know is new) against streams and positions another Store wrote meanwhile.
func TestTwoStoresNewStreams(t *testing.T) {
	dsn := pgtest.NewDatabase(t)
	a, b := open(t, dsn), open(t, dsn)
	t.Cleanup(func() { _ = a.Close(); _ = b.Close() })
	storetest.TwoStoresNewStreams(t, a, b)
}
