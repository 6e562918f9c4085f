package httpx

import (
	"context"
	"log/slog"
	"path/filepath"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/lotbook/lotbook/events"
	"github.com/lotbook/lotbook/events/sqlite"
)

// countingStore counts the store subscriptions opened on it and the direct reads of its log.
type countingStore struct {
	events.Store
	subs, reads atomic.Int32
}

func (s *countingStore) ReadAll(ctx context.Context, after int64, limit int) ([]events.RecordedEvent, error) {
	s.reads.Add(1)
	return s.Store.ReadAll(ctx, after, limit)
}

func (s *countingStore) Subscribe(ctx context.Context, after int64, handle func(context.Context, []events.RecordedEvent) error) error {
	s.subs.Add(1)
	return s.Store.Subscribe(ctx, after, handle)
}

func openStore(t *testing.T) *countingStore {
	t.Helper()
	st, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "events.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = st.Close() })
	return &countingStore{Store: st}
}

// appendEvents appends n events to stream, one append each, and returns their positions.
func appendEvents(t *testing.T, st events.Store, stream string, n int) []int64 {
	t.Helper()
	var out []int64
	for range n {
		res, err := st.Append(context.Background(), stream, events.AnyVersion, []events.EventData{{ID: uuid.New(), Type: "TailTestHappened.v1",
			Data: []byte(`{}`), Metadata: events.Metadata{Actor: "system", ServerTime: time.Now().UTC()}}})
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, res.Position)
	}
	return out
}

// seen collects the positions a follower handled.
type seen struct {
	mu   sync.Mutex
	pos  []int64
	more chan struct{} // signalled on every event
}

func newSeen() *seen { return &seen{more: make(chan struct{}, 1)} }

func (s *seen) add(r events.RecordedEvent) {
	s.mu.Lock()
	s.pos = append(s.pos, r.Position)
	s.mu.Unlock()
	select {
	case s.more <- struct{}{}:
	default:
	}
}

// waitFor waits until s has handled n events and returns them.
func (s *seen) waitFor(t *testing.T, n int) []int64 {
	t.Helper()
	deadline := time.After(30 * time.Second)
	for {
		s.mu.Lock()
		got := slices.Clone(s.pos)
		s.mu.Unlock()
		if len(got) >= n {
			return got
		}
		select {
		case <-s.more:
		case <-deadline:
			t.Fatalf("handled %d events, want %d: %v", len(got), n, got)
		}
	}
}

// following waits until n followers are on st's tail.
func following(t *testing.T, st events.Store, n int) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		tails.Lock()
		tl := tails.m[st]
		tails.Unlock()
		got := 0
		if tl != nil {
			tl.mu.Lock()
			got = len(tl.followers)
			tl.mu.Unlock()
		}
		if got == n {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d followers on the tail, want %d", got, n)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// follow runs FollowLog on st until the test ends, handling each event with handle.
func follow(t *testing.T, ctx context.Context, wg *sync.WaitGroup, st events.Store, what string, handle func(events.RecordedEvent)) {
	wg.Go(func() {
		err := FollowLog(ctx, st, slog.Default(), what, func(_ context.Context, r events.RecordedEvent) { handle(r) })
		if err != context.Canceled {
			t.Errorf("%s: %v", what, err)
		}
	})
}

// Three pushers follow one store (chat, alerts, socket sessions): they share one subscription of
// its log, each handles every event appended after it started exactly once and in order, one
// that is slow to handle holds the others back in nothing and loses nothing, and the tail ends
// with the last of them.
func TestFollowLogSharesOneSubscription(t *testing.T) {
	st := openStore(t)
	appendEvents(t, st, "before", 3) // before the pushers start: not theirs
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	chat, alerts, sessions := newSeen(), newSeen(), newSeen()
	release := make(chan struct{})
	follow(t, ctx, &wg, st, "chat", chat.add)
	follow(t, ctx, &wg, st, "alerts", alerts.add)
	follow(t, ctx, &wg, st, "sessions", func(r events.RecordedEvent) {
		select { // slow: handles nothing until the others have all
		case <-release:
		case <-ctx.Done():
		}
		sessions.add(r)
	})
	following(t, st, 3)

	want := appendEvents(t, st, "after", 40)
	for _, s := range []*seen{chat, alerts} {
		if got := s.waitFor(t, len(want)); !slices.Equal(got, want) {
			t.Fatalf("handled %v, want %v", got, want)
		}
	}
	close(release)
	if got := sessions.waitFor(t, len(want)); !slices.Equal(got, want) {
		t.Fatalf("the slow pusher handled %v, want %v", got, want)
	}
	if n := st.subs.Load(); n != 1 {
		t.Fatalf("%d store subscriptions for three pushers", n)
	}
	if n := st.reads.Load(); n != 0 {
		t.Fatalf("%d direct reads of the log by pushers on the tail", n)
	}

	cancel()
	wg.Wait()
	tails.Lock()
	_, open := tails.m[st]
	tails.Unlock()
	if open {
		t.Fatal("the tail outlived its followers")
	}
}

// A pusher that falls further behind than a follower may queue is let go of the tail: it reads
// the rest from the store, in order and without a gap or a repeat, and is back on the tail once
// it has caught up, while the others go on receiving from the one subscription.
func TestFollowLogSlowPusherCatchesUpFromTheStore(t *testing.T) {
	defer func(n int) { followerCap = n }(followerCap)
	followerCap = 3
	st := openStore(t)
	var wg sync.WaitGroup
	defer wg.Wait()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	fast, slow := newSeen(), newSeen()
	entered, release := make(chan struct{}, 1), make(chan struct{})
	follow(t, ctx, &wg, st, "fast", fast.add)
	follow(t, ctx, &wg, st, "slow", func(r events.RecordedEvent) {
		select {
		case entered <- struct{}{}:
		default:
		}
		select {
		case <-release:
		case <-ctx.Done():
		}
		slow.add(r)
	})
	following(t, st, 2)

	want := appendEvents(t, st, "s", 1)
	<-entered // the slow pusher holds its first event: the next 11 queue past its 3
	want = append(want, appendEvents(t, st, "s", 11)...)
	if got := fast.waitFor(t, len(want)); !slices.Equal(got, want) {
		t.Fatalf("fast pusher handled %v, want %v", got, want)
	}
	close(release)
	if got := slow.waitFor(t, len(want)); !slices.Equal(got, want) {
		t.Fatalf("slow pusher handled %v, want %v", got, want)
	}
	// caught up, it is fed by the tail again
	more := appendEvents(t, st, "s", 2)
	want = append(want, more...)
	for _, s := range []*seen{fast, slow} {
		if got := s.waitFor(t, len(want)); !slices.Equal(got, want) {
			t.Fatalf("handled %v, want %v", got, want)
		}
	}
	if n := st.subs.Load(); n != 1 {
		t.Fatalf("%d store subscriptions", n)
	}
	if st.reads.Load() == 0 {
		t.Fatal("the slow pusher was never let go of the tail")
	}
}
