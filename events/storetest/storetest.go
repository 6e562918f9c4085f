// Package storetest is the conformance suite that every events.Store backend passes. A backend's
// test calls Run with a constructor that returns a fresh, empty store for each subtest.
package storetest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/lotbook/lotbook/events"
)

// Option adjusts the suite to what a backend declares about itself.
type Option func(*config)

type config struct {
	sparse bool
}

// SparsePositions declares that the backend's global positions increase strictly but are not
// consecutive integers (KurrentDB's commit positions are log offsets). Every other check stays.
func SparsePositions() Option { return func(c *config) { c.sparse = true } }

// Run runs the whole suite. newStore must return a fresh, empty store; the suite closes it.
func Run(t *testing.T, newStore func(t *testing.T) events.Store, opts ...Option) {
	var c config
	for _, o := range opts {
		o(&c)
	}
	s := suite{cfg: c, newStore: newStore}
	tests := []struct {
		name string
		fn   func(t *testing.T)
	}{
		{"AppendAndReadStream", s.appendAndReadStream},
		{"ReadStreamAfter", s.readStreamAfter},
		{"MetadataRoundTrip", s.metadataRoundTrip},
		{"ExpectedVersion", s.expectedVersion},
		{"IdempotentReappend", s.idempotentReappend},
		{"AppendReportsWrite", s.appendReportsWrite},
		{"ReadAll", s.readAll},
		{"Head", s.head},
		{"SubscribeCatchUpThenLive", s.subscribeCatchUpThenLive},
		{"SubscribeAfterPosition", s.subscribeAfterPosition},
		{"SubscribeHandlerError", s.subscribeHandlerError},
		{"SubscribeContextCancel", s.subscribeContextCancel},
		{"Closed", s.closed},
		{"ManyWriters", s.manyWriters},
		{"Checkpoints", s.checkpoints},
		{"Snapshots", s.snapshots},
	}
	for _, tc := range tests {
		t.Run(tc.name, tc.fn)
	}
}

type suite struct {
	cfg      config
	newStore func(t *testing.T) events.Store
}

func (s suite) open(t *testing.T) events.Store {
	t.Helper()
	st := s.newStore(t)
	t.Cleanup(func() { _ = st.Close() })
	return st
}

func testContext(t *testing.T, d time.Duration) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	t.Cleanup(cancel)
	return ctx
}

// event builds a test event with a fresh id and a payload naming n.
func event(n int) events.EventData {
	return events.EventData{
		ID:   uuid.New(),
		Type: "StoreTestHappened.v1",
		Data: []byte(fmt.Sprintf(`{"n":%d,"note":"x  y"}`, n)),
		Metadata: events.Metadata{
			CommandID:     uuid.NewString(),
			Actor:         "system",
			CorrelationID: "corr-" + fmt.Sprint(n),
			CausationID:   "cause-" + fmt.Sprint(n),
			ServerTime:    time.Now().UTC(),
		},
	}
}

func batch(from, n int) []events.EventData {
	out := make([]events.EventData, n)
	for i := range out {
		out[i] = event(from + i)
	}
	return out
}

// check returns what a store call returned, failing the test when the call failed; what and args
// name the call.
func check[T any](v T, err error) func(t *testing.T, what string, args ...any) T {
	return func(t *testing.T, what string, args ...any) T {
		t.Helper()
		if err != nil {
			t.Fatalf(what+": %v", append(args, err)...)
		}
		return v
	}
}

// pages reads with read, limit events a page, from the start until a page comes back empty, and
// returns the events of all pages.
func pages(t *testing.T, limit int, read func(after int64, limit int) []events.RecordedEvent) []events.RecordedEvent {
	t.Helper()
	var all []events.RecordedEvent
	after := int64(0)
	for {
		page := read(after, limit)
		if len(page) > limit {
			t.Fatalf("page after %d has %d events, limit %d", after, len(page), limit)
		}
		if len(page) == 0 {
			return all
		}
		all = append(all, page...)
		after = page[len(page)-1].Position
	}
}

func mustAppend(t *testing.T, st events.Store, stream string, expected int64, evs []events.EventData) events.AppendResult {
	t.Helper()
	return check(st.Append(testContext(t, 10*time.Second), stream, expected, evs))(t, "append %d events to %s at %d", len(evs), stream, expected)
}

func mustReadStream(t *testing.T, st events.Store, stream string, after int64) []events.RecordedEvent {
	t.Helper()
	return check(st.ReadStream(testContext(t, 10*time.Second), stream, after))(t, "read stream %s after %d", stream, after)
}

func mustReadAll(t *testing.T, st events.Store, after int64, limit int) []events.RecordedEvent {
	t.Helper()
	return check(st.ReadAll(testContext(t, 10*time.Second), after, limit))(t, "read all after %d limit %d", after, limit)
}

func mustHead(t *testing.T, st events.Store) int64 {
	t.Helper()
	return check(st.Head(testContext(t, 10*time.Second)))(t, "head")
}

// sameEvent fails unless got is want as recorded in stream at version.
func sameEvent(t *testing.T, got events.RecordedEvent, want events.EventData, stream string, version int64) {
	t.Helper()
	if got.ID != want.ID || got.Stream != stream || got.Version != version || got.Type != want.Type {
		t.Fatalf("got event %s %s v%d %s, want %s %s v%d %s",
			got.ID, got.Stream, got.Version, got.Type, want.ID, stream, version, want.Type)
	}
	if string(got.Data) != string(want.Data) {
		t.Fatalf("event %s data %q, want byte-identical %q", got.ID, got.Data, want.Data)
	}
	gm, wm := got.Metadata, want.Metadata
	if gm.CommandID != wm.CommandID || gm.Actor != wm.Actor || gm.CorrelationID != wm.CorrelationID || gm.CausationID != wm.CausationID ||
		gm.Request != wm.Request {
		t.Fatalf("event %s metadata %+v, want %+v", got.ID, gm, wm)
	}
	if gm.ServerTime.Location() != time.UTC {
		t.Fatalf("event %s server time %v is not in UTC", got.ID, gm.ServerTime)
	}
	if d := gm.ServerTime.Sub(wm.ServerTime); d >= time.Microsecond || d <= -time.Microsecond {
		t.Fatalf("event %s server time %v, want %v to the microsecond", got.ID, gm.ServerTime, wm.ServerTime)
	}
}

// checkOrder fails unless positions increase (by exactly one when the backend is dense).
func (s suite) checkOrder(t *testing.T, evs []events.RecordedEvent, after int64) {
	t.Helper()
	prev := after
	for i, e := range evs {
		if e.Position <= prev || (!s.cfg.sparse && e.Position != prev+1) {
			t.Fatalf("event %d has position %d after %d (dense=%v)", i, e.Position, prev, !s.cfg.sparse)
		}
		prev = e.Position
	}
}

func (s suite) appendAndReadStream(t *testing.T) {
	st := s.open(t)
	evs := batch(1, 3)
	res := mustAppend(t, st, "order-1", events.NoStream, evs)
	if res.Version != 3 {
		t.Fatalf("version after 3 events = %d, want 3", res.Version)
	}
	if !s.cfg.sparse && res.Position != 3 {
		t.Fatalf("position after 3 events in an empty store = %d, want 3", res.Position)
	}
	got := mustReadStream(t, st, "order-1", 0)
	if len(got) != 3 {
		t.Fatalf("read %d events, want 3", len(got))
	}
	for i := range got {
		sameEvent(t, got[i], evs[i], "order-1", int64(i+1))
	}
	s.checkOrder(t, got, 0)
	if got[2].Position != res.Position {
		t.Fatalf("last event position %d, append said %d", got[2].Position, res.Position)
	}

	more := batch(4, 2)
	res2 := mustAppend(t, st, "order-1", 3, more)
	if res2.Version != 5 || res2.Position <= res.Position {
		t.Fatalf("second append = %+v after %+v", res2, res)
	}
	tail := mustReadStream(t, st, "order-1", 3)
	if len(tail) != 2 {
		t.Fatalf("read after version 3: %d events, want 2", len(tail))
	}
	sameEvent(t, tail[0], more[0], "order-1", 4)
	sameEvent(t, tail[1], more[1], "order-1", 5)
	if n := len(mustReadStream(t, st, "order-1", 5)); n != 0 {
		t.Fatalf("read after the last version returned %d events", n)
	}
	if n := len(mustReadStream(t, st, "no-such-stream", 0)); n != 0 {
		t.Fatalf("missing stream returned %d events", n)
	}
	// A stream whose name prefixes another must not see its events.
	mustAppend(t, st, "order-10", events.NoStream, batch(6, 1))
	if n := len(mustReadStream(t, st, "order-1", 0)); n != 5 {
		t.Fatalf("order-1 has %d events after appending to order-10, want 5", n)
	}
}

// readStreamAfter pages one stream by global position while another stream interleaves with it.
func (s suite) readStreamAfter(t *testing.T) {
	st := s.open(t)
	var want []events.EventData
	for i := 0; i < 5; i++ {
		e := event(i)
		mustAppend(t, st, "pager", int64(i), []events.EventData{e})
		want = append(want, e)
		mustAppend(t, st, "pager-other", int64(i), batch(10*i, 1))
	}
	read := func(after int64, limit int) []events.RecordedEvent {
		t.Helper()
		return check(st.ReadStreamAfter(testContext(t, 10*time.Second), "pager", after, limit))(t, "read pager after %d limit %d", after, limit)
	}
	got := pages(t, 2, read)
	if len(got) != len(want) {
		t.Fatalf("paged %d events, want %d", len(got), len(want))
	}
	for i := range got {
		sameEvent(t, got[i], want[i], "pager", int64(i+1))
	}
	// A position between two of the stream's events starts the page at the next one.
	if page := read(got[1].Position+1, 10); len(page) != 3 || page[0].Version != 3 {
		t.Fatalf("after position %d: %+v, want 3 events from v3", got[1].Position+1, page)
	}
	if page := read(0, 1); len(page) != 1 || page[0].Version != 1 {
		t.Fatalf("first page %+v", page)
	}
	if n := len(read(got[4].Position, 10)); n != 0 {
		t.Fatalf("after the last event: %d events", n)
	}
	if _, err := st.ReadStreamAfter(testContext(t, 10*time.Second), "pager", 0, 0); err == nil {
		t.Fatal("limit 0 accepted")
	}
}

func (s suite) metadataRoundTrip(t *testing.T) {
	st := s.open(t)
	taipei := time.FixedZone("Asia/Taipei", 8*3600)
	e := event(1)
	e.Metadata = events.Metadata{
		CommandID:     "4b0f9a4e-3c1d-4a57-9d0e-2f8c6b1a7e55",
		Actor:         "ops:alice",
		CorrelationID: "flow-42",
		CausationID:   "cmd-7",
		Request:       "deposit.approve 3f9a1c",
		ServerTime:    time.Date(2025, 3, 14, 9, 26, 53, 589793238, taipei),
	}
	e.Data = []byte(`{"amount":"1000.50","z":1,"a":[1,2,{"k":"\u00e9"}],  "sp":"  "}`)
	mustAppend(t, st, "meta", events.NoStream, []events.EventData{e})
	got := mustReadStream(t, st, "meta", 0)
	if len(got) != 1 {
		t.Fatalf("read %d events, want 1", len(got))
	}
	sameEvent(t, got[0], e, "meta", 1)
	all := mustReadAll(t, st, 0, 10)
	if len(all) != 1 {
		t.Fatalf("read all: %d events, want 1", len(all))
	}
	sameEvent(t, all[0], e, "meta", 1)

	// Optional fields stay empty; a zero server time is stamped by the store.
	bare := events.EventData{ID: uuid.New(), Type: "StoreTestHappened.v1", Data: []byte(`{}`),
		Metadata: events.Metadata{CommandID: "c", Actor: "system"}}
	before := time.Now()
	mustAppend(t, st, "meta", 1, []events.EventData{bare})
	got = mustReadStream(t, st, "meta", 1)
	if len(got) != 1 {
		t.Fatalf("read %d events, want 1", len(got))
	}
	m := got[0].Metadata
	if m.CorrelationID != "" || m.CausationID != "" || m.Request != "" || m.CommandID != "c" || m.Actor != "system" {
		t.Fatalf("bare metadata came back as %+v", m)
	}
	if m.ServerTime.Location() != time.UTC || m.ServerTime.Before(before.Add(-time.Minute)) || m.ServerTime.After(time.Now().Add(time.Minute)) {
		t.Fatalf("zero server time stamped as %v, want about now in UTC", m.ServerTime)
	}
	var v any
	if err := json.Unmarshal(got[0].Data, &v); err != nil {
		t.Fatalf("data is not JSON: %v", err)
	}
}

func (s suite) expectedVersion(t *testing.T) {
	st := s.open(t)
	ctx := testContext(t, 20*time.Second)
	wrong := func(what string, stream string, expected int64) {
		t.Helper()
		head := mustHead(t, st)
		_, err := st.Append(ctx, stream, expected, batch(100, 2))
		if !errors.Is(err, events.ErrWrongExpectedVersion) {
			t.Fatalf("%s: err = %v, want ErrWrongExpectedVersion", what, err)
		}
		if h := mustHead(t, st); h != head {
			t.Fatalf("%s: head moved from %d to %d on a rejected append", what, head, h)
		}
	}
	wrong("expecting version 5 on a new stream", "acct-a", 5)
	wrong("expecting version 1 on a new stream", "acct-a", 1)
	if n := len(mustReadStream(t, st, "acct-a", 0)); n != 0 {
		t.Fatalf("rejected appends created %d events", n)
	}
	mustAppend(t, st, "acct-a", events.NoStream, batch(1, 2))
	wrong("expecting no stream on an existing stream", "acct-a", events.NoStream)
	wrong("expecting a stale version", "acct-a", 1)
	wrong("expecting a future version", "acct-a", 3)
	if res := mustAppend(t, st, "acct-a", 2, batch(3, 1)); res.Version != 3 {
		t.Fatalf("append at version 2 gave version %d, want 3", res.Version)
	}
	if res := mustAppend(t, st, "acct-a", events.AnyVersion, batch(4, 2)); res.Version != 5 {
		t.Fatalf("append with AnyVersion on an existing stream gave version %d, want 5", res.Version)
	}
	if res := mustAppend(t, st, "acct-b", events.AnyVersion, batch(6, 1)); res.Version != 1 {
		t.Fatalf("append with AnyVersion on a new stream gave version %d, want 1", res.Version)
	}
	got := mustReadStream(t, st, "acct-a", 0)
	if len(got) != 5 {
		t.Fatalf("acct-a has %d events, want 5", len(got))
	}
	for i, e := range got {
		if e.Version != int64(i+1) {
			t.Fatalf("acct-a event %d has version %d", i, e.Version)
		}
	}

	// Many concurrent appends expecting the same version: exactly one wins.
	const racers = 16
	var wins, conflicts atomic.Int64
	var wg sync.WaitGroup
	for i := 0; i < racers; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := st.Append(ctx, "race", events.NoStream, batch(i, 2))
			switch {
			case err == nil:
				wins.Add(1)
			case errors.Is(err, events.ErrWrongExpectedVersion):
				conflicts.Add(1)
			default:
				t.Errorf("racer %d: %v", i, err)
			}
		}()
	}
	wg.Wait()
	if wins.Load() != 1 || conflicts.Load() != racers-1 {
		t.Fatalf("%d racers expecting NoStream: %d won, %d conflicted; want 1 and %d", racers, wins.Load(), conflicts.Load(), racers-1)
	}
	if n := len(mustReadStream(t, st, "race", 0)); n != 2 {
		t.Fatalf("race stream has %d events, want 2", n)
	}
}

func (s suite) idempotentReappend(t *testing.T) {
	st := s.open(t)
	ctx := testContext(t, 20*time.Second)
	first := batch(1, 3)
	res := mustAppend(t, st, "member-x", events.NoStream, first)
	mustAppend(t, st, "member-x", 3, batch(4, 1))
	mustAppend(t, st, "other", events.NoStream, batch(5, 2))
	head := mustHead(t, st)

	for _, expected := range []int64{events.NoStream, events.AnyVersion, 4, 1, 9} {
		again, err := st.Append(ctx, "member-x", expected, first)
		if err != nil {
			t.Fatalf("re-append expecting %d: %v", expected, err)
		}
		if again.Version != res.Version || again.Position != res.Position || again.Written {
			t.Fatalf("re-append expecting %d returned %+v, want the stored %+v, not written", expected, again, res)
		}
	}
	if h := mustHead(t, st); h != head {
		t.Fatalf("head moved from %d to %d on idempotent re-appends", head, h)
	}
	if n := len(mustReadStream(t, st, "member-x", 0)); n != 4 {
		t.Fatalf("member-x has %d events after re-appends, want 4", n)
	}

	// Concurrent retries of one command: one write, every caller gets the same answer.
	retry := batch(10, 2)
	var wg sync.WaitGroup
	results := make([]events.AppendResult, 8)
	for i := range results {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r, err := st.Append(ctx, "member-y", events.NoStream, retry)
			if err != nil {
				t.Errorf("concurrent retry %d: %v", i, err)
			}
			results[i] = r
		}()
	}
	wg.Wait()
	written := 0
	for i, r := range results {
		if r.Version != results[0].Version || r.Position != results[0].Position || r.Version != 2 {
			t.Fatalf("concurrent retry %d got %+v, retry 0 got %+v", i, r, results[0])
		}
		if r.Written {
			written++
		}
	}
	if want := s.writesReported(); written != want {
		t.Fatalf("%d of the concurrent retries say they wrote, want %d", written, want)
	}
	if n := len(mustReadStream(t, st, "member-y", 0)); n != 2 {
		t.Fatalf("member-y has %d events after concurrent retries, want 2", n)
	}

	// Stored ids mixed with new ones are not a retry: refused, nothing written.
	head = mustHead(t, st)
	mixed := append([]events.EventData{first[0]}, event(99))
	if _, err := st.Append(ctx, "member-x", events.AnyVersion, mixed); err == nil {
		t.Fatalf("append of a stored id with a new one succeeded")
	}
	if h := mustHead(t, st); h != head {
		t.Fatalf("head moved from %d to %d on a refused mixed append", head, h)
	}
}

// writesReported is how many appends of one write say so: one with dense positions, none with
// sparse ones (see events.AppendResult).
func (s suite) writesReported() int {
	if s.cfg.sparse {
		return 0
	}
	return 1
}

// appendReportsWrite: an append that stored its events says so, and ReadStream then returns them
// exactly at the versions and positions the result implies (server time to the nanosecond), so a
// caller can apply its own events without reading them back; appends that share one group commit
// each learn their own places. An idempotent re-append says it wrote nothing.
func (s suite) appendReportsWrite(t *testing.T) {
	st := s.open(t)
	ctx := testContext(t, 20*time.Second)
	type appended struct {
		stream string
		evs    []events.EventData
		res    events.AppendResult
	}
	var done []appended
	for _, a := range []struct {
		stream   string
		expected int64
		n        int
	}{
		{"w-a", events.NoStream, 3},
		{"w-b", events.AnyVersion, 1},
		{"w-a", 3, 2},
	} {
		evs := batch(len(done)*10, a.n)
		done = append(done, appended{a.stream, evs, mustAppend(t, st, a.stream, a.expected, evs)})
	}
	racing := make([]appended, 8)
	var wg sync.WaitGroup
	for i := range racing {
		wg.Add(1)
		go func() {
			defer wg.Done()
			a := appended{stream: fmt.Sprintf("w-race-%d", i), evs: batch(100+10*i, 1+i%3)}
			var err error
			if a.res, err = st.Append(ctx, a.stream, events.NoStream, a.evs); err != nil {
				t.Errorf("racing append %d: %v", i, err)
			}
			racing[i] = a
		}()
	}
	wg.Wait()
	if t.Failed() {
		return
	}
	for _, a := range append(done, racing...) {
		if a.res.Written == s.cfg.sparse {
			t.Fatalf("append of %d events to %s: %+v, want written %v", len(a.evs), a.stream, a.res, !s.cfg.sparse)
		}
		n := int64(len(a.evs))
		got := mustReadStream(t, st, a.stream, a.res.Version-n)
		if int64(len(got)) < n || got[n-1].Version != a.res.Version || got[n-1].Position != a.res.Position {
			t.Fatalf("%s after v%d: %d events, want the %d of %+v first", a.stream, a.res.Version-n, len(got), n, a.res)
		}
		got = got[:n]
		for k, e := range got {
			sameEvent(t, e, a.evs[k], a.stream, a.res.Version-n+1+int64(k))
			if a.res.Written && (e.Position != a.res.Position-n+1+int64(k) || !e.Metadata.ServerTime.Equal(a.evs[k].Metadata.ServerTime)) {
				t.Fatalf("event %d of %s at position %d, time %v; written as %d of an append ending at %d, time %v",
					k, a.stream, e.Position, e.Metadata.ServerTime, k, a.res.Position, a.evs[k].Metadata.ServerTime)
			}
		}
	}
	again := mustAppend(t, st, "w-a", events.NoStream, done[0].evs)
	if again.Written || again.Version != done[0].res.Version || again.Position != done[0].res.Position {
		t.Fatalf("re-append = %+v, want the stored %+v, not written", again, done[0].res)
	}
}

func (s suite) readAll(t *testing.T) {
	st := s.open(t)
	if got := mustReadAll(t, st, 0, 100); len(got) != 0 {
		t.Fatalf("empty store read %d events", len(got))
	}
	var want []events.EventData
	var streams []string
	for i := 0; i < 12; i++ {
		stream := fmt.Sprintf("s-%d", i%3)
		evs := batch(i*2, 1+i%2)
		mustAppend(t, st, stream, events.AnyVersion, evs)
		for range evs {
			streams = append(streams, stream)
		}
		want = append(want, evs...)
	}
	all := mustReadAll(t, st, 0, 1000)
	if len(all) != len(want) {
		t.Fatalf("read all: %d events, want %d", len(all), len(want))
	}
	s.checkOrder(t, all, 0)
	versions := map[string]int64{}
	for i, e := range all {
		versions[streams[i]]++
		sameEvent(t, e, want[i], streams[i], versions[streams[i]])
	}
	// Paging with limit and afterPosition walks the same sequence.
	paged := pages(t, 5, func(after int64, limit int) []events.RecordedEvent { return mustReadAll(t, st, after, limit) })
	if len(paged) != len(all) {
		t.Fatalf("paging read %d events, want %d", len(paged), len(all))
	}
	for i := range paged {
		if paged[i].ID != all[i].ID || paged[i].Position != all[i].Position {
			t.Fatalf("paged event %d is %s@%d, want %s@%d", i, paged[i].ID, paged[i].Position, all[i].ID, all[i].Position)
		}
	}
	mid := all[6].Position
	rest := mustReadAll(t, st, mid, 1000)
	if len(rest) != len(all)-7 || rest[0].ID != all[7].ID {
		t.Fatalf("read after position %d: %d events starting %v, want %d starting %s", mid, len(rest), rest, len(all)-7, all[7].ID)
	}
	if n := len(mustReadAll(t, st, all[len(all)-1].Position, 10)); n != 0 {
		t.Fatalf("read after the last position returned %d events", n)
	}
}

func (s suite) head(t *testing.T) {
	st := s.open(t)
	if h := mustHead(t, st); h != 0 {
		t.Fatalf("head of an empty store = %d, want 0", h)
	}
	r1 := mustAppend(t, st, "h-1", events.NoStream, batch(1, 2))
	if h := mustHead(t, st); h != r1.Position {
		t.Fatalf("head = %d, want %d", h, r1.Position)
	}
	r2 := mustAppend(t, st, "h-2", events.NoStream, batch(3, 3))
	if h := mustHead(t, st); h != r2.Position {
		t.Fatalf("head = %d, want %d", h, r2.Position)
	}
	if !s.cfg.sparse && r2.Position != 5 {
		t.Fatalf("position after 5 events = %d", r2.Position)
	}
}

// collector gathers what a subscription delivers and says when it has n events.
type collector struct {
	mu     sync.Mutex
	got    []events.RecordedEvent
	pages  int
	want   int
	done   chan struct{}
	closed bool
}

func newCollector(want int) *collector { return &collector{want: want, done: make(chan struct{})} }

func (c *collector) handle(_ context.Context, page []events.RecordedEvent) error {
	if len(page) == 0 {
		return errors.New("storetest: handler got an empty page")
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.got = append(c.got, page...)
	c.pages++
	if len(c.got) >= c.want && !c.closed {
		c.closed = true
		close(c.done)
	}
	return nil
}

func (c *collector) events() []events.RecordedEvent {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]events.RecordedEvent(nil), c.got...)
}

func (c *collector) wait(t *testing.T, d time.Duration) {
	t.Helper()
	select {
	case <-c.done:
	case <-time.After(d):
		t.Fatalf("subscription delivered %d of %d events within %v", len(c.events()), c.want, d)
	}
}

// subscribe runs st.Subscribe in the background; the returned func stops it and returns its error.
func subscribe(st events.Store, after int64, handle func(context.Context, []events.RecordedEvent) error) (stop func() error) {
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() { errc <- st.Subscribe(ctx, after, handle) }()
	return func() error {
		cancel()
		select {
		case err := <-errc:
			return err
		case <-time.After(10 * time.Second):
			return errors.New("storetest: subscription did not stop within 10s of cancel")
		}
	}
}

func (s suite) subscribeCatchUpThenLive(t *testing.T) {
	st := s.open(t)
	var want []events.EventData
	for i := 0; i < 30; i++ {
		evs := batch(i, 1+i%3)
		mustAppend(t, st, fmt.Sprintf("sub-%d", i%4), events.AnyVersion, evs)
		want = append(want, evs...)
	}
	stored := len(want)
	for i := 0; i < 10; i++ {
		want = append(want, event(1000+i))
	}
	c := newCollector(len(want))
	stop := subscribe(st, 0, c.handle)
	// Live appends, spaced so that some arrive while the subscription is idle.
	for i := stored; i < len(want); i++ {
		mustAppend(t, st, "sub-live", events.AnyVersion, []events.EventData{want[i]})
		time.Sleep(5 * time.Millisecond)
	}
	c.wait(t, 15*time.Second)
	time.Sleep(100 * time.Millisecond) // anything delivered twice would show up now
	if err := stop(); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled subscription returned %v, want context.Canceled", err)
	}
	got := c.events()
	if len(got) != len(want) {
		t.Fatalf("subscription delivered %d events, want %d", len(got), len(want))
	}
	s.checkOrder(t, got, 0)
	for i := range want {
		if got[i].ID != want[i].ID {
			t.Fatalf("delivered event %d is %s, want %s", i, got[i].ID, want[i].ID)
		}
	}
	if c.pages >= len(got) {
		t.Fatalf("%d events came in %d pages: catch-up must deliver stored events in pages", len(got), c.pages)
	}
}

func (s suite) subscribeAfterPosition(t *testing.T) {
	st := s.open(t)
	mustAppend(t, st, "a", events.NoStream, batch(0, 5))
	all := mustReadAll(t, st, 0, 100)
	after := all[2].Position
	c := newCollector(2)
	stop := subscribe(st, after, c.handle)
	c.wait(t, 10*time.Second)
	more := batch(10, 3)
	c2 := newCollector(5)
	stop2 := subscribe(st, after, c2.handle)
	mustAppend(t, st, "a", 5, more)
	c2.wait(t, 10*time.Second)
	_ = stop()
	_ = stop2()
	got := c2.events()
	if len(got) != 5 || got[0].ID != all[3].ID || got[4].ID != more[2].ID {
		t.Fatalf("subscription after %d delivered %d events", after, len(got))
	}
	s.checkOrder(t, got, after)
}

func (s suite) subscribeHandlerError(t *testing.T) {
	st := s.open(t)
	mustAppend(t, st, "e", events.NoStream, batch(0, 3))
	boom := errors.New("projector broke")
	calls := 0
	ctx := testContext(t, 10*time.Second)
	err := st.Subscribe(ctx, 0, func(context.Context, []events.RecordedEvent) error {
		calls++
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("Subscribe returned %v, want the handler's error", err)
	}
	if calls != 1 {
		t.Fatalf("handler called %d times after failing, want 1", calls)
	}
	// A live page failing stops it too.
	errc := make(chan error, 1)
	go func() {
		errc <- st.Subscribe(ctx, 3, func(context.Context, []events.RecordedEvent) error { return boom })
	}()
	time.Sleep(50 * time.Millisecond)
	mustAppend(t, st, "e", 3, batch(3, 1))
	select {
	case err := <-errc:
		if !errors.Is(err, boom) {
			t.Fatalf("live Subscribe returned %v, want the handler's error", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatalf("live Subscribe did not stop on the handler's error")
	}
}

func (s suite) subscribeContextCancel(t *testing.T) {
	st := s.open(t)
	mustAppend(t, st, "c", events.NoStream, batch(0, 2))
	c := newCollector(2)
	stop := subscribe(st, 0, c.handle)
	c.wait(t, 10*time.Second)
	time.Sleep(50 * time.Millisecond) // idle, waiting for live events
	start := time.Now()
	if err := stop(); !errors.Is(err, context.Canceled) {
		t.Fatalf("Subscribe returned %v, want context.Canceled", err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Fatalf("Subscribe took %v to notice the cancel", d)
	}
	// An already ended context stops it before anything is delivered.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	called := false
	err := st.Subscribe(ctx, 0, func(context.Context, []events.RecordedEvent) error { called = true; return nil })
	if !errors.Is(err, context.Canceled) || called {
		t.Fatalf("Subscribe with a cancelled context returned %v (handler called: %v)", err, called)
	}
}

func (s suite) closed(t *testing.T) {
	st := s.newStore(t)
	mustAppend(t, st, "z", events.NoStream, batch(0, 1))
	if err := st.Close(); err != nil {
		t.Fatalf("close: %v", err)
	}
	if err := st.Close(); err != nil {
		t.Fatalf("second close: %v", err)
	}
	ctx := testContext(t, 5*time.Second)
	if _, err := st.Append(ctx, "z", events.AnyVersion, batch(1, 1)); !errors.Is(err, events.ErrClosed) {
		t.Fatalf("append after close: %v, want ErrClosed", err)
	}
}

// manyWriters is the gap test of ARCHITECTURE.md: concurrent writers, some contending on shared
// streams, while a subscriber started at 0 must see every event exactly once, in order.
func (s suite) manyWriters(t *testing.T) {
	st := s.open(t)
	ManyWriters(t, []events.Store{st}, st, s.cfg.sparse)
}

// ManyWriters appends 20,000 events with 8 concurrent writers spread over the given stores (which
// share one database) and checks that a subscriber on sub, started at position 0 before the
// writers, receives every event exactly once with strictly increasing positions (consecutive
// unless sparse), each stream's versions in order, and the positions Append returned.
func ManyWriters(t *testing.T, writers []events.Store, sub events.Store, sparse bool) {
	const (
		nWriters  = 8
		total     = 20000
		perWriter = total / nWriters
		ownPer    = 16 // streams per writer
		shared    = 3  // streams every writer contends on
	)
	ctx := testContext(t, 90*time.Second)
	c := newCollector(total)
	stop := subscribe(sub, 0, c.handle)
	defer func() { _ = stop() }()

	type ack struct {
		ids []uuid.UUID
		res events.AppendResult
	}
	acks := make([][]ack, nWriters)
	var conflicts atomic.Int64
	start := time.Now()
	var wg sync.WaitGroup
	for w := 0; w < nWriters; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			st := writers[w%len(writers)]
			own := map[string]int64{}
			known := map[string]int64{} // last version seen of shared streams
			written := 0
			for i := 0; written < perWriter; i++ {
				n := min(1+(i+w)%8, perWriter-written)
				evs := batch(w*perWriter+written, n)
				var stream string
				var res events.AppendResult
				var err error
				if i%6 == 5 {
					stream = fmt.Sprintf("mw-shared-%d", i%shared)
					for attempt := 0; ; attempt++ {
						res, err = st.Append(ctx, stream, known[stream], evs)
						if !errors.Is(err, events.ErrWrongExpectedVersion) {
							break
						}
						conflicts.Add(1)
						if attempt > 1000 {
							t.Errorf("writer %d: gave up on %s after %d conflicts", w, stream, attempt)
							return
						}
						seen, rerr := st.ReadStream(ctx, stream, known[stream])
						if rerr != nil {
							t.Errorf("writer %d: read %s: %v", w, stream, rerr)
							return
						}
						if len(seen) > 0 {
							known[stream] = seen[len(seen)-1].Version
						}
					}
				} else {
					stream = fmt.Sprintf("mw-%d-%d", w, i%ownPer)
					expected := own[stream]
					if i%7 == 0 {
						expected = events.AnyVersion
					}
					res, err = st.Append(ctx, stream, expected, evs)
				}
				if err != nil {
					t.Errorf("writer %d: append to %s: %v", w, stream, err)
					return
				}
				if i%6 == 5 {
					known[stream] = res.Version
				} else {
					own[stream] = res.Version
				}
				ids := make([]uuid.UUID, n)
				for k := range evs {
					ids[k] = evs[k].ID
				}
				acks[w] = append(acks[w], ack{ids: ids, res: res})
				written += n
			}
		}()
	}
	wg.Wait()
	if t.Failed() {
		return
	}
	elapsed := time.Since(start)
	c.wait(t, 30*time.Second)
	time.Sleep(200 * time.Millisecond) // anything delivered twice would show up now
	got := c.events()
	t.Logf("%d events by %d writers over %d store(s) in %v (%.0f events/s), %d conflicts retried, subscriber pages %d",
		total, nWriters, len(writers), elapsed.Round(time.Millisecond), float64(total)/elapsed.Seconds(), conflicts.Load(), c.pages)
	if len(got) != total {
		t.Fatalf("subscriber received %d events, want exactly %d", len(got), total)
	}
	byID := make(map[uuid.UUID]events.RecordedEvent, total)
	versions := map[string]int64{}
	prev := int64(0)
	for i, e := range got {
		if _, dup := byID[e.ID]; dup {
			t.Fatalf("event %s delivered twice", e.ID)
		}
		byID[e.ID] = e
		if e.Position <= prev || (!sparse && e.Position != prev+1) {
			t.Fatalf("delivery %d: position %d after %d (a gap or a reorder)", i, e.Position, prev)
		}
		prev = e.Position
		if e.Version != versions[e.Stream]+1 {
			t.Fatalf("delivery %d: %s version %d after %d", i, e.Stream, e.Version, versions[e.Stream])
		}
		versions[e.Stream] = e.Version
	}
	for w := range acks {
		for _, a := range acks[w] {
			for k, id := range a.ids {
				e, ok := byID[id]
				if !ok {
					t.Fatalf("acknowledged event %s never delivered", id)
				}
				if k == len(a.ids)-1 && (e.Position != a.res.Position || e.Version != a.res.Version) {
					t.Fatalf("event %s delivered at %d v%d, Append said %+v", id, e.Position, e.Version, a.res)
				}
				// A written append's events hold consecutive places ending at its result.
				back := int64(len(a.ids) - 1 - k)
				if a.res.Written && (e.Position != a.res.Position-back || e.Version != a.res.Version-back) {
					t.Fatalf("event %s delivered at %d v%d, %d before the end of written %+v", id, e.Position, e.Version, back, a.res)
				}
			}
		}
	}
	if h := mustHead(t, sub); h != prev {
		t.Fatalf("head %d, last delivered position %d", h, prev)
	}
	all := make([]events.RecordedEvent, 0, total)
	for after := int64(0); ; {
		page := mustReadAll(t, sub, after, 5000)
		if len(page) == 0 {
			break
		}
		all = append(all, page...)
		after = page[len(page)-1].Position
	}
	if len(all) != total {
		t.Fatalf("read all: %d events, want %d", len(all), total)
	}
	for i := range all {
		if all[i].ID != got[i].ID {
			t.Fatalf("read all and the subscription disagree at %d", i)
		}
	}
}

// checkpoints: a backend that keeps checkpoints returns what was saved, keeps names apart, and
// never moves a checkpoint back.
func (s suite) checkpoints(t *testing.T) {
	st := s.open(t)
	cps, ok := st.(events.Checkpoints)
	if !ok {
		t.Skip("the backend keeps no checkpoints")
	}
	ctx := testContext(t, 10*time.Second)
	if cp, err := cps.LoadCheckpoint(ctx, "a"); err != nil || cp.Position != 0 || len(cp.State) != 0 {
		t.Fatalf("unsaved checkpoint = %+v, %v; want zero", cp, err)
	}
	for _, save := range []struct {
		name string
		cp   events.Checkpoint
	}{
		{"a", events.Checkpoint{Position: 5, State: []byte("five")}},
		{"b", events.Checkpoint{Position: 2}},
		{"a", events.Checkpoint{Position: 7, State: []byte("seven")}},
		{"a", events.Checkpoint{Position: 6, State: []byte("six")}}, // behind: ignored
	} {
		if err := cps.SaveCheckpoint(ctx, save.name, save.cp); err != nil {
			t.Fatalf("save %s %+v: %v", save.name, save.cp, err)
		}
	}
	if cp, err := cps.LoadCheckpoint(ctx, "a"); err != nil || cp.Position != 7 || string(cp.State) != "seven" {
		t.Fatalf("checkpoint a = %+v, %v; want 7 seven", cp, err)
	}
	if cp, err := cps.LoadCheckpoint(ctx, "b"); err != nil || cp.Position != 2 || len(cp.State) != 0 {
		t.Fatalf("checkpoint b = %+v, %v; want 2 with no state", cp, err)
	}
}

// snapshots: a backend that keeps snapshots returns the last saved per stream, never moves one
// back within a schema, and lets a snapshot of another schema replace it.
func (s suite) snapshots(t *testing.T) {
	st := s.open(t)
	ss, ok := st.(events.SnapshotStore)
	if !ok {
		t.Skip("the backend keeps no snapshots")
	}
	ctx := testContext(t, 10*time.Second)
	if snap, found, err := ss.LoadSnapshot(ctx, "s-1"); err != nil || found {
		t.Fatalf("unsaved snapshot = %+v, %v, %v; want none", snap, found, err)
	}
	for _, save := range []events.Snapshot{
		{Stream: "s-1", Version: 200, Position: 900, Schema: "x-1", State: []byte("200")},
		{Stream: "s-2", Version: 5, Position: 3, Schema: "x-1"},
		{Stream: "s-1", Version: 400, Position: 1200, Schema: "x-1", State: []byte("400")},
		{Stream: "s-1", Version: 300, Position: 1000, Schema: "x-1", State: []byte("300")}, // behind: ignored
		{Stream: "s-2", Version: 4, Position: 2, Schema: "x-2", State: []byte("new")},      // another schema: replaces
	} {
		if err := ss.SaveSnapshot(ctx, save); err != nil {
			t.Fatalf("save %+v: %v", save, err)
		}
	}
	for _, want := range []events.Snapshot{
		{Stream: "s-1", Version: 400, Position: 1200, Schema: "x-1", State: []byte("400")},
		{Stream: "s-2", Version: 4, Position: 2, Schema: "x-2", State: []byte("new")},
	} {
		got, found, err := ss.LoadSnapshot(ctx, want.Stream)
		if err != nil || !found || got.Version != want.Version || got.Position != want.Position ||
			got.Schema != want.Schema || string(got.State) != string(want.State) || got.Stream != want.Stream {
			t.Fatalf("snapshot of %s = %+v, %v, %v; want %+v", want.Stream, got, found, err, want)
		}
	}
}

// TwoStoresOneStream checks that a Store's remembered stream versions never outlive a write by
// another Store (another process) on the same log: a and b are two Stores on one database.
func TwoStoresOneStream(t *testing.T, a, b events.Store) {
	t.Helper()
	ctx := context.Background()
	ev := func() []events.EventData {
		return []events.EventData{{ID: uuid.New(), Type: "T.v1", Data: []byte(`{}`), Metadata: events.Metadata{Actor: "system"}}}
	}
	steps := []struct {
		st       events.Store
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

// TwoStoresNewStreams checks a writer's own positioning of appends (which may assume that a
// stream it does not know is new) against streams and positions another Store on the same log
// (b) wrote meanwhile.
func TwoStoresNewStreams(t *testing.T, a, b events.Store) {
	t.Helper()
	ctx := context.Background()
	steps := []struct {
		st       events.Store
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
