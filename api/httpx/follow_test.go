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

// sharedOnly fails the test unless the followers read the log through one subscription, with
// no direct read since the counter was last reset.
func (s *countingStore) sharedOnly(t *testing.T, when string) {
	t.Helper()
	if n := s.subs.Load(); n != 1 {
		t.Fatalf("%s: %d store subscriptions", when, n)
	}
	if n := s.reads.Load(); n != 0 {
		t.Fatalf("%s: %d direct reads of the log", when, n)
	}
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

// seen collects the positions a follower handled, apart from the probes (see started).
type seen struct {
	mu    sync.Mutex
	pos   []int64
	probe int64         // the last probe handled
	more  chan struct{} // signalled on every event
}

func newSeen() *seen { return &seen{more: make(chan struct{}, 1)} }

func (s *seen) add(r events.RecordedEvent) {
	s.mu.Lock()
	if r.Stream == "probe" {
		s.probe = r.Position
	} else {
		s.pos = append(s.pos, r.Position)
	}
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

// started appends probe events until every follower has handled the last one: each has then
// joined the shared subscriber (its start, the log's head, is read before) and is at its end, so
// the store's reads counted from here are those of the events after. A follower's start is
// unknown to the test, hence a new probe while one is missing.
func started(t *testing.T, st *countingStore, ss ...*seen) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		p := appendEvents(t, st, "probe", 1)[0]
		round := time.After(50 * time.Millisecond)
	wait:
		for {
			all := true
			for _, s := range ss {
				s.mu.Lock()
				all = all && s.probe >= p
				s.mu.Unlock()
			}
			if all {
				st.reads.Store(0)
				return
			}
			if time.Now().After(deadline) {
				t.Fatal("followers never started")
			}
			select {
			case <-round:
				break wait
			case <-time.After(5 * time.Millisecond):
			}
		}
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
// that is slow to handle holds the others back in nothing and loses nothing, and the shared
// subscriber ends with the last of them.
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
		if r.Stream == "after" {
			select { // slow: handles nothing until the others have all
			case <-release:
			case <-ctx.Done():
			}
		}
		sessions.add(r)
	})
	started(t, st, chat, alerts, sessions)

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
	st.sharedOnly(t, "three pushers keeping up")

	cancel()
	wg.Wait()
	followed.Lock()
	_, open := followed.m[st]
	followed.Unlock()
	if open {
		t.Fatal("the shared subscriber outlived its followers")
	}
}

// A pusher that falls further behind than the shared buffer holds is let go of it: it reads the
// rest from the store, in order and without a gap or a repeat, and is back on the buffer once it
// has caught up, while the others go on receiving from the one subscription.
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
		if r.Stream == "s" {
			select {
			case entered <- struct{}{}:
			default:
			}
			select {
			case <-release:
			case <-ctx.Done():
			}
		}
		slow.add(r)
	})
	started(t, st, fast, slow)

	want := appendEvents(t, st, "s", 1)
	<-entered // the slow pusher holds its first event: the next 11 pass the buffer's 3
	want = append(want, appendEvents(t, st, "s", 11)...)
	if got := fast.waitFor(t, len(want)); !slices.Equal(got, want) {
		t.Fatalf("fast pusher handled %v, want %v", got, want)
	}
	close(release)
	if got := slow.waitFor(t, len(want)); !slices.Equal(got, want) {
		t.Fatalf("slow pusher handled %v, want %v", got, want)
	}
	if st.reads.Load() == 0 {
		t.Fatal("the slow pusher was never let go of the shared buffer")
	}
	// caught up, it is fed by the shared subscriber again
	st.reads.Store(0)
	more := appendEvents(t, st, "s", 2)
	want = append(want, more...)
	for _, s := range []*seen{fast, slow} {
		if got := s.waitFor(t, len(want)); !slices.Equal(got, want) {
			t.Fatalf("handled %v, want %v", got, want)
		}
	}
	st.sharedOnly(t, "caught up")
}
