package sqlite_test

import (
	"context"
	"errors"
	"path/filepath"
	"testing"

	"github.com/google/uuid"

	"github.com/lotbook/lotbook/events"
	"github.com/lotbook/lotbook/events/sqlite"
	"github.com/lotbook/lotbook/events/sqlite/sqlitedb"
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

// An append larger than one multi-row INSERT whose later event reuses a stored id is refused and
// writes nothing, although the statement had inserted rows before the refused one; the writer
// goes on after it, and a retry of a large append answers with what it stored.
func TestRefusedInsideMultiRowInsert(t *testing.T) {
	ctx := context.Background()
	st := open(t, filepath.Join(t.TempDir(), "events.db"))
	t.Cleanup(func() { _ = st.Close() })
	evs := func(n int) []events.EventData {
		out := make([]events.EventData, n)
		for i := range out {
			out[i] = events.EventData{ID: uuid.New(), Type: "Tested.v1", Data: []byte(`{}`), Metadata: events.Metadata{CommandID: "c", Actor: "system"}}
		}
		return out
	}
	first := evs(40)
	stored, err := st.Append(ctx, "member-a", events.NoStream, first)
	if err != nil {
		t.Fatalf("append 40 events: %v", err)
	}
	if again, err := st.Append(ctx, "member-a", events.NoStream, first); err != nil || again.Version != 40 || again.Position != stored.Position || again.Written {
		t.Fatalf("retry of the 40 events = %+v, %v; want the stored %+v, not written", again, err, stored)
	}

	clash := evs(40)
	clash[20].ID = first[7].ID // inside the first 32-row statement
	if _, err := st.Append(ctx, "member-b", events.NoStream, clash); !errors.Is(err, events.ErrWrongExpectedVersion) {
		t.Fatalf("append reusing a stored id = %v, want ErrWrongExpectedVersion", err)
	}
	if h, err := st.Head(ctx); err != nil || h != stored.Position {
		t.Fatalf("head after the refused append = %d, %v; want %d", h, err, stored.Position)
	}
	if got, err := st.ReadStream(ctx, "member-b", 0); err != nil || len(got) != 0 {
		t.Fatalf("member-b holds %d events (%v) after its refused append, want none", len(got), err)
	}
	if res, err := st.Append(ctx, "member-b", events.NoStream, evs(40)); err != nil || res.Version != 40 || res.Position != stored.Position+40 {
		t.Fatalf("append after the refused one = %+v, %v; want version 40 at position %d", res, err, stored.Position+40)
	}
}

// A commit whose WAL frames far exceed one write call of the WAL-buffering VFS (about 2.5 MB here)
// is stored whole: another Store on the file (another connection, as another process would be)
// and a connection on the default VFS read every event back, and so does the file opened again
// after both closed.
func TestLargeCommit(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "events.db")
	a, b := open(t, path), open(t, path)
	big := make([]byte, 4000)
	for i := range big {
		big[i] = byte('a' + i%26)
	}
	evs := make([]events.EventData, 600)
	for i := range evs {
		evs[i] = events.EventData{ID: uuid.New(), Type: "Tested.v1", Data: big, Metadata: events.Metadata{CommandID: "c", Actor: "system"}}
	}
	if _, err := a.Append(ctx, "member-a", events.NoStream, evs); err != nil {
		t.Fatalf("append of 600 events of 4 KB: %v", err)
	}
	readBack := func(st *sqlite.Store, who string) {
		t.Helper()
		got, err := st.ReadStream(ctx, "member-a", 0)
		if err != nil || len(got) != len(evs) {
			t.Fatalf("%s reads %d events (%v), want %d", who, len(got), err, len(evs))
		}
		for i, e := range got {
			if e.ID != evs[i].ID || string(e.Data) != string(big) {
				t.Fatalf("%s: event %d is %s with %d bytes, want %s with the 4 KB written", who, i, e.ID, len(e.Data), evs[i].ID)
			}
		}
	}
	readBack(b, "the other store")
	// A program on SQLite's default VFS (the sqlite3 shell, a backup tool) sees the commit too.
	plain := sqlitedb.Open(path, false)
	defer plain.Close()
	var n int
	if err := plain.QueryRowContext(ctx, `SELECT count(*) FROM events WHERE length(data) = 4000`).Scan(&n); err != nil || n != len(evs) {
		t.Fatalf("the default VFS counts %d events (%v), want %d", n, err, len(evs))
	}
	if err := errors.Join(a.Close(), b.Close()); err != nil {
		t.Fatalf("close: %v", err)
	}
	c := open(t, path)
	t.Cleanup(func() { _ = c.Close() })
	readBack(c, "the file opened again")
}
