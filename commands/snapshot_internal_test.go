package commands

import (
	"bytes"
	"context"
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"

	"github.com/lotbook/lotbook/events"
	"github.com/lotbook/lotbook/events/sqlite"
	"github.com/lotbook/lotbook/events/sqlite/sqlitetest"
)

// plainPart is a part that cannot be snapshot.
type plainPart struct{}

func (plainPart) Apply(events.RecordedEvent, events.Payload) {}

// TestPartWithoutSnapshotDisablesSnapshots: one part that does not implement SnapshotPart makes
// its whole aggregate replayed as before, never encoded.
func TestPartWithoutSnapshotDisablesSnapshots(t *testing.T) {
	m := NewMember("m1")
	e := newEntry(events.MemberStream("m1"))
	e.st, e.version = m, 1
	if _, ok, err := encodeSnapshot(e, nil); !ok || err != nil {
		t.Fatalf("a member whose parts all encode: snapshot ok %v, %v", ok, err)
	}
	m.parts = append(m.parts, plainPart{})
	if _, ok, err := encodeSnapshot(e, nil); ok || err != nil {
		t.Fatalf("a member with a part that does not encode: snapshot ok %v, %v; want none", ok, err)
	}
}

// readsNoted is a SQLite store that notes after which version each stream read starts.
type readsNoted struct {
	*sqlite.Store
	after []int64
}

func (r *readsNoted) ReadStream(ctx context.Context, stream string, after int64) ([]events.RecordedEvent, error) {
	r.after = append(r.after, after)
	return r.Store.ReadStream(ctx, stream, after)
}

// noSaves keeps the snapshot a test stored: the snapshots its loads offer are not written.
type noSaves struct{ *readsNoted }

func (noSaves) SaveSnapshot(context.Context, events.Snapshot) error { return nil }

// TestSnapshotWrittenThenRestored: a member stream that grew past snapshotEvery is offered to the
// writer; its snapshot, once stored, lets a cold service read only the events after it, to the
// same aggregate; a snapshot of another schema is ignored. An account that grew as much is
// offered too.
func TestSnapshotWrittenThenRestored(t *testing.T) {
	ctx := context.Background()
	store := &readsNoted{Store: sqlitetest.Open(t)}
	member, account := events.MemberStream("m1"), events.AccountStream("m1")
	first := appendUploads(t, store, member, 0, snapshotEvery+10)[0]
	appendUploads(t, store, account, 0, snapshotEvery+10)
	s := New(store, Options{})
	for _, stream := range []string{member, account} {
		e, _, err := s.loadWithin(ctx, stream, 0)
		if err != nil {
			t.Fatal(err)
		}
		e.mu.Unlock()
		if offered := e.snapped == e.version; !offered {
			t.Fatalf("%s at v%d: offered for a snapshot %v", stream, e.version, offered)
		}
	}
	if err := s.writeSnapshot(s.cache.peek(member)); err != nil { // as the writer does, here and now
		t.Fatal(err)
	}
	appendUploads(t, store, member, snapshotEvery+10, 5)

	cold := New(store, Options{})
	store.after = nil
	got, _, err := cold.loadWithin(ctx, member, 0)
	if err != nil {
		t.Fatal(err)
	}
	got.mu.Unlock()
	if len(store.after) != 1 || store.after[0] != snapshotEvery+10 || got.version != snapshotEvery+15 {
		t.Fatalf("cold load read after %v to v%d; want after v%d to v%d", store.after, got.version, snapshotEvery+10, snapshotEvery+15)
	}
	// A retry of a command older than the snapshot is answered with what it wrote.
	rec, err := got.Replay(Cmd{Meta: Meta{CommandID: first}})
	if err != nil || rec == nil || len(rec.Payloads) != 1 || rec.Payloads[0].(events.FileUploaded).FileID != "f0" {
		t.Fatalf("retry of the stream's first command after a restore: %+v, %v; want its upload f0", rec, err)
	}
	// Its next snapshot carries the records on, those a retry decoded and those still as restored.
	again, ok, err := encodeSnapshot(got, nil)
	if err != nil || !ok {
		t.Fatalf("snapshot of a restored member: %v, %v", ok, err)
	}
	fresh := newEntry(member)
	if ok, err := restoreSnapshot(fresh, again); !ok || err != nil || len(fresh.seen) != len(got.seen) {
		t.Fatalf("restore of a restored member's snapshot: %v, %v, %d records of %d", ok, err, len(fresh.seen), len(got.seen))
	}
	for id, rec := range fresh.seen {
		if err := rec.decodeRestored(fresh.st); err != nil || len(rec.Payloads) != 1 {
			t.Fatalf("record %s after two snapshots: %d events, %v", id, len(rec.Payloads), err)
		}
	}
	if rec := fresh.seen[first]; rec.Payloads[0].(events.FileUploaded).FileID != "f0" {
		t.Fatalf("first record after two snapshots: %+v", rec.Payloads)
	}
	want := newEntry(member)
	if err := New(store.Store, Options{}).catchUp(ctx, want); err != nil {
		t.Fatal(err)
	}
	if a, b := got.st.(*Member), want.st.(*Member); len(a.files) != len(b.files) || a.storedBytes != b.storedBytes || len(got.seen) != len(want.seen) {
		t.Fatalf("restored member holds %d files (%d bytes), %d records; a replay %d (%d), %d",
			len(a.files), a.storedBytes, len(got.seen), len(b.files), b.storedBytes, len(want.seen))
	}

	snap, _, err := store.LoadSnapshot(ctx, member)
	if err != nil {
		t.Fatal(err)
	}
	for name, bad := range map[string]events.Snapshot{
		"of another schema": {Stream: member, Version: snap.Version + 1, Position: snap.Position, Schema: "member-other", State: snap.State},
		"cut short":         {Stream: member, Version: snap.Version + 2, Position: snap.Position, Schema: snap.Schema, State: snap.State[:len(snap.State)-3]},
	} {
		if err := store.SaveSnapshot(ctx, bad); err != nil {
			t.Fatal(err)
		}
		store.after = nil
		e, _, err := New(noSaves{store}, Options{}).loadWithin(ctx, member, 0)
		if err != nil {
			t.Fatal(err)
		}
		version, records := e.version, len(e.seen) // under its lock: the snapshot writer may hold it next
		e.mu.Unlock()
		if len(store.after) != 1 || store.after[0] != 0 || version != snapshotEvery+15 || records != snapshotEvery+15 {
			t.Fatalf("a snapshot %s: read after %v to v%d with %d records; want a replay from 0", name, store.after, version, records)
		}
	}
}

// TestSnapshotKeepsRecordsEncoded: a snapshot leaves the records it encoded in their encoded
// form, so that the next one copies them: both encode the same bytes, a retry after them is
// answered as before, and a record a command still holds (its own answer) is not changed under
// it.
func TestSnapshotKeepsRecordsEncoded(t *testing.T) {
	ctx := context.Background()
	store := sqlitetest.Open(t)
	appendDeposits(t, store, "m1", 20)
	s := New(store, Options{})
	e, _, err := s.loadWithin(ctx, events.AccountStream("m1"), 0)
	if err != nil {
		t.Fatal(err)
	}
	defer e.mu.Unlock()
	id := ""
	for k, rec := range e.seen {
		if id == "" || rec.Position < e.seen[id].Position {
			id = k
		}
	}
	held, err := e.Replay(Cmd{Meta: Meta{CommandID: id}})
	if err != nil || held == nil || len(held.Payloads) != 1 || held.Snapshot == nil {
		t.Fatalf("the first command's record: %+v, %v", held, err)
	}
	want := held.Payloads[0].(events.DepositRequested)
	first, ok, err := encodeSnapshot(e, nil)
	if err != nil || !ok {
		t.Fatalf("first snapshot: %v, %v", ok, err)
	}
	if rec := e.seen[id]; rec == held || len(rec.Payloads) != 0 || len(rec.restored) != 1 || rec.restoredCopy == nil {
		t.Fatalf("record after a snapshot: %d decoded, %d encoded events, copy %v; want it kept encoded in a new record",
			len(rec.Payloads), len(rec.restored), rec.restoredCopy != nil)
	}
	if len(held.Payloads) != 1 || held.Payloads[0].(events.DepositRequested).OrderNo != want.OrderNo || held.restored != nil || held.Snapshot == nil {
		t.Fatalf("the record the command holds changed under it: %+v", held)
	}
	second, _, err := encodeSnapshot(e, nil)
	if err != nil || !bytes.Equal(first.State, second.State) {
		t.Fatalf("second snapshot of the same entry differs (%v): %d bytes against %d", err, len(second.State), len(first.State))
	}
	again, err := e.Replay(Cmd{Meta: Meta{CommandID: id}})
	if err != nil || again == nil || len(again.Payloads) != 1 || !sameDeposit(again.Payloads[0], want) ||
		!reflect.DeepEqual(again.Snapshot, held.Snapshot) {
		t.Fatalf("retry after the snapshots: %+v, %v; want %+v with copy %v", again, err, want, held.Snapshot)
	}
}

func sameDeposit(p events.Payload, want events.DepositRequested) bool {
	d, ok := p.(events.DepositRequested)
	return ok && d.OrderNo == want.OrderNo && d.Amount.Equal(want.Amount) && d.ProofFileID == want.ProofFileID
}

// appendUploads appends n FileUploaded events of their own commands to stream at version from,
// and returns the commands' ids.
func appendUploads(t testing.TB, store events.Store, stream string, from, n int) []string {
	ps := make([]events.Payload, n)
	for i := range ps {
		ps[i] = events.FileUploaded{FileID: fmt.Sprintf("f%d", from+i), Size: 10}
	}
	return appendEach(t, store, stream, from, ps)
}

// appendDeposits appends n deposits, each requested then approved by its own command (2n events),
// to a member's account stream at version 0: what the load generator's members write there.
func appendDeposits(t testing.TB, store events.Store, memberID string, n int) {
	ps := make([]events.Payload, 0, 2*n)
	amount := decimal.RequireFromString("1000.00")
	for i := range n {
		no := fmt.Sprintf("D%08d", i)
		ps = append(ps, events.DepositRequested{OrderNo: no, ChannelID: "bank", ChannelName: "Bank", Currency: "TWD", Amount: amount, ProofFileID: "proof-" + no},
			events.DepositApproved{OrderNo: no, Currency: "TWD", Amount: amount,
				Postings: []events.Posting{{Account: events.MemberAvailable(memberID), Currency: "TWD", Amount: amount}, {Account: "bank-clearing", Currency: "TWD", Amount: amount.Neg()}}})
	}
	appendEach(t, store, events.AccountStream(memberID), 0, ps)
}

// appendEach appends ps to stream at version from, each event its own command, and returns the
// commands' ids.
func appendEach(t testing.TB, store events.Store, stream string, from int, ps []events.Payload) []string {
	t.Helper()
	ids := make([]string, len(ps))
	batch := make([]events.EventData, len(ps))
	for i, p := range ps {
		typ, data, err := events.Encode(p)
		if err != nil {
			t.Fatal(err)
		}
		ids[i] = uuid.NewString()
		batch[i] = events.EventData{ID: events.EventID(ids[i], stream, 0), Type: typ, Data: data,
			Metadata: events.Metadata{CommandID: ids[i], Actor: "system", ServerTime: time.Date(2026, 11, 20, 0, 0, i, 0, time.UTC)}}
	}
	if _, err := store.Append(context.Background(), stream, int64(from), batch); err != nil {
		t.Fatal(err)
	}
	return ids
}

// BenchmarkFirstLoad is a cache miss on a stream of a thousand events, replayed whole or restored
// from a snapshot at its head: a member's uploads (the load generator's deposit proofs), an
// account's deposits (requested, approved), whose records keep balances copies.
func BenchmarkFirstLoad(b *testing.B) {
	ctx := context.Background()
	store := sqlitetest.Open(b)
	member, account := events.MemberStream("m1"), events.AccountStream("m1")
	appendUploads(b, store, member, 0, 1000)
	appendDeposits(b, store, "m1", 500)
	for kind, stream := range map[string]string{"member": member, "account": account} {
		s := New(store, Options{})
		e, _, err := s.loadWithin(ctx, stream, 0)
		if err != nil {
			b.Fatal(err)
		}
		e.mu.Unlock()
		if err := s.writeSnapshot(e); err != nil {
			b.Fatal(err)
		}
		for name, st := range map[string]events.Store{"replay": struct{ events.Store }{store}, "snapshot": store} {
			b.Run(kind+"/"+name, func(b *testing.B) {
				s := New(st, Options{})
				for b.Loop() {
					if err := s.catchUp(ctx, newEntry(stream)); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkSnapshotAgain is the snapshot of an account of a thousand events (500 deposits, each
// requested and approved) that was snapshot before, as its next one is: what a busy account pays
// every snapshotEvery events.
func BenchmarkSnapshotAgain(b *testing.B) {
	ctx := context.Background()
	store := sqlitetest.Open(b)
	appendDeposits(b, store, "m1", 500)
	s := New(struct{ events.Store }{store}, Options{}) // no snapshot store: nothing writes in the background
	e, _, err := s.loadWithin(ctx, events.AccountStream("m1"), 0)
	if err != nil {
		b.Fatal(err)
	}
	defer e.mu.Unlock()
	if _, _, err := encodeSnapshot(e, nil); err != nil {
		b.Fatal(err)
	}
	var buf []byte
	for b.Loop() {
		snap, _, err := encodeSnapshot(e, buf[:0])
		if err != nil {
			b.Fatal(err)
		}
		buf = snap.State
	}
}
