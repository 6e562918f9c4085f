package pipeline_test

import (
	"context"
	"errors"
	"log/slog"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/ThreeDotsLabs/watermill/message"
	"github.com/google/uuid"

	"github.com/lotbook/lotbook/events"
	"github.com/lotbook/lotbook/events/sqlite"
	"github.com/lotbook/lotbook/events/sqlite/sqlitetest"
	"github.com/lotbook/lotbook/pipeline"
)

func openStore(t *testing.T) *sqlite.Store { return sqlitetest.Open(t) }

func add(t *testing.T, st events.Store, n int) {
	t.Helper()
	for range n {
		typ, data, err := events.Encode(events.FavoriteAdded{Symbol: "2330"})
		if err != nil {
			t.Fatal(err)
		}
		ev := events.EventData{ID: uuid.New(), Type: typ, Data: data, Metadata: events.Metadata{CommandID: "t", Actor: "system", ServerTime: time.Now()}}
		if _, err := st.Append(context.Background(), "s", events.AnyVersion, []events.EventData{ev}); err != nil {
			t.Fatal(err)
		}
	}
}

// subscriber returns a running subscriber whose topics start after from[topic].
func subscriber(t *testing.T, st events.Store, maxPage int, from map[string]int64) *pipeline.Subscriber {
	t.Helper()
	return running(t, pipeline.Config{Store: st, MaxPage: maxPage, HubCapacity: 2 * maxPage, Logger: slog.New(slog.DiscardHandler),
		From: func(_ context.Context, topic string) (int64, error) { return from[topic], nil }})
}

// running returns a subscriber of cfg whose reader runs until the test ends.
func running(t *testing.T, cfg pipeline.Config) *pipeline.Subscriber {
	t.Helper()
	sub := pipeline.NewSubscriber(cfg)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { sub.Run(ctx); close(done) }()
	t.Cleanup(func() {
		cancel()
		<-done
		sub.Close()
	})
	return sub
}

func receive(t *testing.T, ch <-chan *message.Message) (*message.Message, []int64) {
	t.Helper()
	select {
	case msg, ok := <-ch:
		if !ok {
			t.Fatal("channel closed")
		}
		page, err := pipeline.Page(msg)
		if err != nil {
			t.Fatal(err)
		}
		var pos []int64
		for _, ev := range page {
			pos = append(pos, ev.Position)
		}
		return msg, pos
	case <-time.After(5 * time.Second):
		t.Fatal("no message")
	}
	return nil, nil
}

func nothing(t *testing.T, ch <-chan *message.Message) {
	t.Helper()
	select {
	case msg := <-ch:
		t.Fatalf("unexpected message %s", msg.UUID)
	case <-time.After(100 * time.Millisecond):
	}
}

func subscribe(t *testing.T, sub *pipeline.Subscriber, ctx context.Context, topic string) <-chan *message.Message {
	t.Helper()
	ch, err := sub.Subscribe(ctx, topic)
	if err != nil {
		t.Fatal(err)
	}
	return ch
}

func TestPagesComeInOrderInThePayloadOneAtATime(t *testing.T) {
	st := openStore(t)
	add(t, st, 7)
	sub := subscriber(t, st, 3, nil)
	ch := subscribe(t, sub, context.Background(), "a")
	var got []int64
	for len(got) < 7 {
		msg, pos := receive(t, ch)
		if first, last := msg.Metadata.Get(pipeline.MetaFirst), msg.Metadata.Get(pipeline.MetaLast); first == "" || last == "" {
			t.Fatalf("metadata %v", msg.Metadata)
		}
		if msg.Context().Value(struct{}{}) != nil {
			t.Fatal("context carries a value")
		}
		nothing(t, ch) // the next page waits for the ack
		msg.Ack()
		got = append(got, pos...)
	}
	if want := []int64{1, 2, 3, 4, 5, 6, 7}; !slices.Equal(got, want) {
		t.Fatalf("positions %v, want %v", got, want)
	}
	add(t, st, 2) // live events after the catch-up
	msg, pos := receive(t, ch)
	msg.Ack()
	if len(pos) == 0 || pos[0] != 8 {
		t.Fatalf("live page %v, want from 8", pos)
	}
}

func TestANackedPageComesAgain(t *testing.T) {
	st := openStore(t)
	add(t, st, 4)
	sub := subscriber(t, st, 2, nil)
	ch := subscribe(t, sub, context.Background(), "a")
	first, pos := receive(t, ch)
	first.Nack()
	again, pos2 := receive(t, ch)
	if again.UUID != first.UUID || !slices.Equal(pos, pos2) {
		t.Fatalf("after a nack got %s %v, want %s %v again", again.UUID, pos2, first.UUID, pos)
	}
	again.Ack()
	msg, pos3 := receive(t, ch)
	msg.Ack()
	if !slices.Equal(pos3, []int64{3, 4}) {
		t.Fatalf("next page %v", pos3)
	}
}

func TestATopicStartsAfterItsCheckpoint(t *testing.T) {
	st := openStore(t)
	add(t, st, 6)
	sub := subscriber(t, st, 10, map[string]int64{"b": 4})
	msg, pos := receive(t, subscribe(t, sub, context.Background(), "b"))
	msg.Ack()
	if !slices.Equal(pos, []int64{5, 6}) {
		t.Fatalf("topic b got %v, want 5 6", pos)
	}
}

func TestConcurrentSubscriptionsEachGetTheWholeLog(t *testing.T) {
	st := openStore(t)
	add(t, st, 50)
	sub := subscriber(t, st, 7, nil)
	var wg sync.WaitGroup
	for _, topic := range []string{"a", "b", "c", "d"} {
		ch := subscribe(t, sub, context.Background(), topic)
		wg.Go(func() {
			var got []int64
			for len(got) < 80 {
				select {
				case msg := <-ch:
					page, err := pipeline.Page(msg)
					if err != nil {
						t.Error(err)
						return
					}
					for _, ev := range page {
						got = append(got, ev.Position)
					}
					msg.Ack()
				case <-time.After(5 * time.Second):
					t.Errorf("%s stopped at %d events", topic, len(got))
					return
				}
			}
			for i, p := range got {
				if p != int64(i+1) {
					t.Errorf("%s: event %d at position %d", topic, i, p)
					return
				}
			}
		})
	}
	add(t, st, 30)
	wg.Wait()
}

func TestClosing(t *testing.T) {
	st := openStore(t)
	add(t, st, 3)
	sub := subscriber(t, st, 10, nil)
	ctx, cancel := context.WithCancel(context.Background())
	own := subscribe(t, sub, ctx, "a")
	other := subscribe(t, sub, context.Background(), "b")
	cancel()
	for range own { // a cancelled subscribe context ends its channel
	}
	msg, _ := receive(t, other) // and only its own
	msg.Ack()
	if err := sub.Close(); err != nil {
		t.Fatal(err)
	}
	for range other {
	}
	if _, err := sub.Subscribe(context.Background(), "c"); err == nil {
		t.Fatal("subscribed after close")
	}
	// Reading on after a close: a new subscriber starts where the consumer's checkpoint says.
	again := subscriber(t, st, 10, map[string]int64{"a": 2})
	msg, pos := receive(t, subscribe(t, again, context.Background(), "a"))
	msg.Ack()
	if !slices.Equal(pos, []int64{3}) {
		t.Fatalf("after reopening got %v, want 3", pos)
	}
}

func TestTheRouterRetriesAFailingPageAndNeverSkipsIt(t *testing.T) {
	st := openStore(t)
	add(t, st, 5)
	sub := subscriber(t, st, 2, nil)
	router, err := pipeline.NewRouter(slog.New(slog.DiscardHandler), nil, "test")
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var handled []int64
	attempts := 0
	router.AddConsumerHandler("h", "h", sub, func(msg *message.Message) error {
		page, err := pipeline.Page(msg)
		if err != nil {
			return err
		}
		mu.Lock()
		defer mu.Unlock()
		if page[0].Position == 3 {
			attempts++
			switch {
			case attempts == 1:
				panic("a panic is a failure too")
			case attempts <= 6: // more than the middleware's retries: the page is nacked and comes again
				return context.DeadlineExceeded
			}
		}
		for _, ev := range page {
			handled = append(handled, ev.Position)
		}
		return nil
	})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- router.Run(ctx) }()
	deadline := time.Now().Add(15 * time.Second)
	for {
		mu.Lock()
		n := len(handled)
		got := slices.Clone(handled)
		mu.Unlock()
		if n >= 5 {
			if !slices.Equal(got, []int64{1, 2, 3, 4, 5}) {
				t.Fatalf("handled %v", got)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("handled only %v after %d attempts", got, attempts)
		}
		time.Sleep(10 * time.Millisecond)
	}
	cancel()
	if err := router.Close(); err != nil {
		t.Fatal(err)
	}
	<-done
}

// follower collects what Follow hands it; hold, when set, blocks it at that position until release.
type follower struct {
	hold    int64
	held    chan struct{}
	release chan struct{}
	got     chan int64
}

func newFollower(hold int64) *follower {
	return &follower{hold: hold, held: make(chan struct{}), release: make(chan struct{}), got: make(chan int64, 100)}
}

func (f *follower) handle(ctx context.Context, page []events.RecordedEvent) {
	for _, ev := range page {
		if ev.Position == f.hold {
			close(f.held)
			select {
			case <-f.release:
			case <-ctx.Done():
			}
		}
		f.got <- ev.Position
	}
}

// expect waits for the positions from first to last, in order, and nothing else between.
func (f *follower) expect(t *testing.T, who string, first, last int64) {
	t.Helper()
	for want := first; want <= last; want++ {
		select {
		case p := <-f.got:
			if p != want {
				t.Fatalf("%s: position %d, want %d", who, p, want)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("%s: no position %d", who, want)
		}
	}
}

// Followers of a subscriber that never waits: each starts after the position it is given (one
// behind the shared reader's start reads the store until it reaches the buffer), one held on an
// event holds nobody back while the log passes what the buffer holds, and once released it
// catches up from the store in order, without a gap or a repeat. Its context ends it, as does
// the subscriber's Close.
func TestFollowersNeverWaitForALaggard(t *testing.T) {
	st := openStore(t)
	add(t, st, 5)
	sub := running(t, pipeline.Config{Store: st, MaxPage: 2, HubCapacity: 2, NeverWait: true, After: 5,
		Logger: slog.New(slog.DiscardHandler)})
	fast, slow := newFollower(0), newFollower(7)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	slowDone, fastDone := make(chan error, 1), make(chan error, 1)
	go func() { slowDone <- sub.Follow(ctx, "slow", 2, slow.handle) }()
	go func() { fastDone <- sub.Follow(context.Background(), "fast", 5, fast.handle) }()

	add(t, st, 10) // 6 to 15
	fast.expect(t, "fast", 6, 15)
	<-slow.held
	close(slow.release)
	slow.expect(t, "slow", 3, 15)
	add(t, st, 1) // caught up, both go on
	fast.expect(t, "fast", 16, 16)
	slow.expect(t, "slow", 16, 16)

	cancel()
	if err := <-slowDone; !errors.Is(err, context.Canceled) {
		t.Fatalf("slow follower ended with %v", err)
	}
	if err := sub.Close(); err != nil {
		t.Fatal(err)
	}
	if err := <-fastDone; !errors.Is(err, context.Canceled) {
		t.Fatalf("after Close the fast follower ended with %v", err)
	}
}

// TestLingerGathersTheCommitsThatFollowOne: with Linger, the first commit after a quiet spell is
// handed on at once, and the commits that follow it within Linger come together in the next page
// instead of a page each.
func TestLingerGathersTheCommitsThatFollowOne(t *testing.T) {
	st := openStore(t)
	const linger = 300 * time.Millisecond
	sub := running(t, pipeline.Config{Store: st, MaxPage: 100, Linger: linger, Logger: slog.New(slog.DiscardHandler)})
	pages := make(chan []int64, 16)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		_ = sub.Follow(ctx, "t", 0, func(_ context.Context, page []events.RecordedEvent) {
			pos := make([]int64, len(page))
			for i, e := range page {
				pos[i] = e.Position
			}
			pages <- pos
		})
	}()
	next := func() []int64 {
		t.Helper()
		select {
		case p := <-pages:
			return p
		case <-time.After(10 * time.Second):
			t.Fatal("no page")
			return nil
		}
	}
	time.Sleep(50 * time.Millisecond) // the follower waits at the head
	t0 := time.Now()
	add(t, st, 1)
	if p, took := next(), time.Since(t0); !slices.Equal(p, []int64{1}) || took > linger/2 {
		t.Fatalf("first commit after a quiet spell: page %v after %v; want [1] at once", p, took)
	}
	add(t, st, 3) // three commits while the reader lingers
	if p := next(); !slices.Equal(p, []int64{2, 3, 4}) {
		t.Fatalf("commits within the linger: page %v; want [2 3 4] in one", p)
	}
}
