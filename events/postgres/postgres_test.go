package postgres_test

import (
	"context"
	"errors"
	"testing"

	"github.com/google/uuid"

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
	ctx := context.Background()
	ev := func() []events.EventData {
		return []events.EventData{{ID: uuid.New(), Type: "T.v1", Data: []byte(`{}`), Metadata: events.Metadata{Actor: "system"}}}
	}
	steps := []struct {
		st       *postgres.Store
		expected int64
		version  int64 // 0: wrong expected version
	}{
		{a, events.NoStream, 1},
		{a, 1, 2},
		{b, 2, 3},
		{a, 2, 0}, // a remembers 2, the stream is at 3
		{a, 3, 4},
		{b, 3, 0},
		{b, events.AnyVersion, 5},
		{a, events.AnyVersion, 6},
		{a, 6, 7},
	}
	for i, s := range steps {
		res, err := s.st.Append(ctx, "shared", s.expected, ev())
		switch {
		case s.version == 0 && !errors.Is(err, events.ErrWrongExpectedVersion):
			t.Fatalf("step %d: err %v, want ErrWrongExpectedVersion", i, err)
		case s.version != 0 && (err != nil || res.Version != s.version):
			t.Fatalf("step %d: %+v, %v; want version %d", i, res, err, s.version)
		}
	}
	got, err := a.ReadStream(ctx, "shared", 0)
	if err != nil || len(got) != 7 {
		t.Fatalf("stream has %d events (%v), want 7", len(got), err)
	}
	for i, e := range got {
		if e.Version != int64(i+1) || e.Position != int64(i+1) {
			t.Fatalf("event %d at v%d position %d", i, e.Version, e.Position)
		}
	}
}

// TestTwoStoresNewStreams checks the writer's own positioning of appends (which assumes a stream
// it does not know is new) against streams and positions another Store wrote meanwhile.
func TestTwoStoresNewStreams(t *testing.T) {
	dsn := pgtest.NewDatabase(t)
	a, b := open(t, dsn), open(t, dsn)
	t.Cleanup(func() { _ = a.Close(); _ = b.Close() })
	ctx := context.Background()
	steps := []struct {
		st       *postgres.Store
		stream   string
		expected int64
		version  int64 // 0: wrong expected version
	}{
		{a, "s1", events.NoStream, 1},
		{b, "s2", events.NoStream, 1},
		{a, "s2", events.NoStream, 0}, // a never saw s2, and b moved the head
		{a, "s3", events.NoStream, 1},
		{b, "s3", events.NoStream, 0},
		{b, "s4", events.NoStream, 1},
		{a, "s1", 1, 2}, // a's known version of s1 still holds after b's writes
		{a, "s5", events.NoStream, 1},
		{a, "s5", 1, 2},
	}
	for i, s := range steps {
		evs := []events.EventData{{ID: uuid.New(), Type: "T.v1", Data: []byte(`{}`), Metadata: events.Metadata{Actor: "system"}}}
		res, err := s.st.Append(ctx, s.stream, s.expected, evs)
		switch {
		case s.version == 0 && !errors.Is(err, events.ErrWrongExpectedVersion):
			t.Fatalf("step %d: err %v, want ErrWrongExpectedVersion", i, err)
		case s.version != 0 && (err != nil || res.Version != s.version):
			t.Fatalf("step %d: %+v, %v; want version %d", i, res, err, s.version)
		}
	}
	all, err := a.ReadAll(ctx, 0, 100)
	if err != nil || len(all) != 7 {
		t.Fatalf("log has %d events (%v), want 7", len(all), err)
	}
	for i, e := range all {
		if e.Position != int64(i+1) {
			t.Fatalf("event %d at position %d", i, e.Position)
		}
	}
}
