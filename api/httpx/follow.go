package httpx

import (
	"context"
	"fmt"
	"log/slog"
	"reflect"
	"sync"

	"github.com/lotbook/lotbook/events"
	"github.com/lotbook/lotbook/pipeline"
)

// The FollowLog callers of a store (the chat and alert pushes, the socket hub's session
// follower) share one pipeline.Subscriber of its log, as the projectors and the process managers
// share theirs: it reads each page once into a buffer every follower pages from on its own
// goroutine, so a slow follower holds nobody back (NeverWait), and one that falls more than
// followerCap events behind reads the store itself until it catches up: memory stays bounded
// and nothing is lost. The subscriber ends with its last follower.

// followerCap bounds the events buffered for the followers (a variable for the tests).
var followerCap = 10_000

// followPage is how many events a follower takes at a time.
const followPage = 1000

// followed are the shared subscribers by store.
var followed = struct {
	sync.Mutex
	m map[events.Store]*followers
}{m: map[events.Store]*followers{}}

// followers is one store's subscriber and how many FollowLog calls are on it.
type followers struct {
	sub  *pipeline.Subscriber
	stop context.CancelFunc
	n    int
}

// shareable tells whether store can key the shared subscribers: a pointer, as every backend is.
// Any other store gets a subscriber of its own.
func shareable(store events.Store) bool {
	return reflect.TypeOf(store).Kind() == reflect.Pointer
}

// FollowLog calls handle with every event appended from now on, in order, until ctx ends. The
// callers on one store share one subscription of its log; handle runs on the caller's goroutine,
// and a slow one loses nothing. When the store fails it goes on from the last event handled after
// a pause. For pushes: a missed push is read over HTTP, so events from before the call are not
// replayed.
func FollowLog(ctx context.Context, store events.Store, log *slog.Logger, what string, handle func(ctx context.Context, r events.RecordedEvent)) error {
	from, err := store.Head(ctx)
	if err != nil {
		return fmt.Errorf("%s: head: %w", what, err)
	}
	sub, leave := join(store, log, from)
	defer leave()
	return sub.Follow(ctx, what, from, func(ctx context.Context, page []events.RecordedEvent) {
		for _, r := range page {
			handle(ctx, r)
		}
	})
}

// join counts a follower on store's subscriber, starting one (reading after position from) when
// store has none; leave takes it off, ending the subscriber after its last follower.
func join(store events.Store, log *slog.Logger, from int64) (sub *pipeline.Subscriber, leave func()) {
	followed.Lock()
	defer followed.Unlock()
	f := followed.m[store]
	if f == nil {
		ctx, cancel := context.WithCancel(context.Background())
		f = &followers{stop: cancel, sub: pipeline.NewSubscriber(pipeline.Config{Store: store, Logger: log,
			MaxPage: followPage, HubCapacity: followerCap, NeverWait: true, After: from})}
		if shareable(store) {
			followed.m[store] = f
		}
		go func() { f.sub.Run(ctx) }() // a frame of its own: profiles tell this reader from the projectors'
	}
	f.n++
	return f.sub, func() {
		followed.Lock()
		defer followed.Unlock()
		if f.n--; f.n == 0 {
			f.stop()
			if followed.m[store] == f {
				delete(followed.m, store)
			}
		}
	}
}
