package httpx

import (
	"context"
	"log/slog"
	"reflect"
	"sync"
	"time"

	"github.com/lotbook/lotbook/events"
)

// The FollowLog callers of a store (the chat and alert pushes, the socket hub's session
// follower) share one subscription of its log, a tail: it reads each page once and queues it
// for every follower, which handles it on its own goroutine, so a slow follower holds nobody
// back. Each follower skips what it has handled (by position) and so sees every event after its
// start exactly once, in order. One that falls more than followerCap events behind is let go of
// the tail and reads the store itself from where it is until it catches up: memory stays bounded
// and nothing is lost. The tail ends with its last follower.

// followerCap bounds the events queued for one follower (a variable for the tests).
var followerCap = 10_000

// tails are the shared tails by store.
var tails = struct {
	sync.Mutex
	m map[events.Store]*tail
}{m: map[events.Store]*tail{}}

// tail is one store subscription handing its pages to the followers.
type tail struct {
	store  events.Store
	log    *slog.Logger
	cancel context.CancelFunc

	mu        sync.Mutex
	pos       int64 // the last position handed to the followers
	followers map[*follower]struct{}
}

// follower is one FollowLog caller on a tail. Its fields are guarded by the tail's mu.
type follower struct {
	wake     chan struct{} // one pending signal: pages queued, or let go
	pages    [][]events.RecordedEvent
	queued   int  // events in pages
	attached bool // receiving pages; when not, it reads the store
}

// shareable tells whether store can key the shared tails: a pointer, as every backend is. Any
// other store gets a tail of its own.
func shareable(store events.Store) bool {
	return reflect.TypeOf(store).Kind() == reflect.Pointer
}

// join adds a follower starting after position from to store's tail, starting the tail (at
// from) when store has none.
func join(store events.Store, log *slog.Logger, from int64) (*tail, *follower) {
	f := &follower{wake: make(chan struct{}, 1)}
	tails.Lock()
	defer tails.Unlock()
	t := tails.m[store]
	if t == nil {
		ctx, cancel := context.WithCancel(context.Background())
		t = &tail{store: store, log: log, cancel: cancel, pos: from, followers: map[*follower]struct{}{}}
		if shareable(store) {
			tails.m[store] = t
		}
		go t.run(ctx)
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	// behind the tail, the events in between come from the store first
	f.attached = from >= t.pos
	t.followers[f] = struct{}{}
	return t, f
}

// leave takes f off the tail, ending the tail when f was its last follower.
func (t *tail) leave(f *follower) {
	tails.Lock()
	defer tails.Unlock()
	t.mu.Lock()
	delete(t.followers, f)
	last := len(t.followers) == 0
	t.mu.Unlock()
	if last {
		t.cancel()
		if tails.m[t.store] == t {
			delete(tails.m, t.store)
		}
	}
}

// run subscribes to the log after the last position handed out until ctx ends, again after a
// pause when the store fails.
func (t *tail) run(ctx context.Context) {
	for {
		t.mu.Lock()
		from := t.pos
		t.mu.Unlock()
		err := t.store.Subscribe(ctx, from, func(_ context.Context, page []events.RecordedEvent) error {
			t.hand(page)
			return nil
		})
		if ctx.Err() != nil {
			return
		}
		t.mu.Lock()
		from = t.pos
		t.mu.Unlock()
		t.log.WarnContext(ctx, "log tail: following the log", "err", err, "position", from)
		select {
		case <-ctx.Done():
			return
		case <-time.After(followRetry):
		}
	}
}

// hand queues page for every attached follower; one whose queue would pass followerCap is let go.
func (t *tail) hand(page []events.RecordedEvent) {
	if len(page) == 0 {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	for f := range t.followers {
		if !f.attached {
			continue
		}
		if f.queued+len(page) > followerCap {
			f.attached, f.pages, f.queued = false, nil, 0
		} else {
			f.pages, f.queued = append(f.pages, page), f.queued+len(page)
		}
		select {
		case f.wake <- struct{}{}:
		default:
		}
	}
	t.pos = page[len(page)-1].Position
}

// take returns the pages queued for f, and whether f is still attached.
func (t *tail) take(f *follower) ([][]events.RecordedEvent, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	pages := f.pages
	f.pages, f.queued = nil, 0
	return pages, f.attached
}

// attach puts f back on the tail once it has handled up to pos, when that reaches the tail.
func (t *tail) attach(f *follower, pos int64) {
	t.mu.Lock()
	defer t.mu.Unlock()
	f.attached = pos >= t.pos
}
