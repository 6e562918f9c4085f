package process

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/ThreeDotsLabs/watermill/message"
	"github.com/google/uuid"

	"github.com/lotbook/lotbook/events"
	"github.com/lotbook/lotbook/pipeline"
)

// Feed is one reader of the event log shared by the runtimes built with it (Config.Feed), as the
// projectors share theirs: each page is read from the store once and handed to every runtime
// that is keeping up, instead of once per process manager (a dozen runs with every stack).
//
// It is a pipeline.Subscriber with a topic per runtime, so each runtime keeps what it has alone:
// its checkpoint (its topic starts after the runtime's position), its Wants filter, its timers,
// and stalling, never skipping. The reader buffers at most feedCapacity events ahead of the
// slowest runtime that is keeping up and waits for it only then; a runtime that stalls on an
// event holds nobody back: once it recovers it reads the store on its own until it reaches the
// buffer again, as does one that starts from a checkpoint behind it.
type Feed struct {
	store  events.Store
	logger *slog.Logger

	started chan struct{} // closed once sub is set
	sub     *pipeline.Subscriber

	mu       sync.Mutex
	runtimes map[string]*Runtime // by name: the topics

	payloads decoded
}

// feedCapacity bounds the events the shared reader buffers ahead of the slowest runtime.
const feedCapacity = 4 * maxPage

// NewFeed prepares a shared reader of store's log; Run runs it.
func NewFeed(store events.Store, logger *slog.Logger) *Feed {
	if logger == nil {
		logger = slog.Default()
	}
	return &Feed{store: store, logger: logger, started: make(chan struct{}), runtimes: map[string]*Runtime{},
		payloads: decoded{byPos: map[int64]*payload{}}}
}

// Run reads the log for the runtimes until ctx ends. It starts at the log's head: a runtime
// restored from an older checkpoint reads the events before it on its own.
func (f *Feed) Run(ctx context.Context) {
	b := newBackoff()
	for {
		head, err := f.store.Head(ctx)
		if err == nil {
			f.sub = pipeline.NewSubscriber(pipeline.Config{Store: f.store, Logger: f.logger, MaxPage: maxPage,
				HubCapacity: feedCapacity, After: head, From: f.from})
			close(f.started)
			f.sub.Run(ctx)
			return
		}
		if ctx.Err() != nil {
			return
		}
		d := b.next()
		f.logger.Warn("process feed: store head unknown; trying again", "in", d, "err", err)
		select {
		case <-time.After(d):
		case <-ctx.Done():
			return
		}
	}
}

// from is where a runtime's topic starts: after the position it has handled.
func (f *Feed) from(_ context.Context, topic string) (int64, error) {
	f.mu.Lock()
	r, ok := f.runtimes[topic]
	f.mu.Unlock()
	if !ok {
		return 0, fmt.Errorf("process feed: no runtime named %q", topic)
	}
	return r.Position(), nil
}

// subscriber is r's view of the feed, once the feed runs: a message.Subscriber whose Close ends
// r's subscription only (a Watermill router closes its handlers' subscribers when it stops).
func (f *Feed) subscriber(ctx context.Context, r *Runtime) (*feedSubscriber, error) {
	select {
	case <-f.started:
	case <-ctx.Done():
		return nil, fmt.Errorf("process %s: waiting for the shared log reader: %w", r.cfg.Name, ctx.Err())
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if _, dup := f.runtimes[r.cfg.Name]; dup {
		return nil, fmt.Errorf("process %s: already runs on this feed", r.cfg.Name)
	}
	f.runtimes[r.cfg.Name] = r
	return &feedSubscriber{feed: f, name: r.cfg.Name}, nil
}

type feedSubscriber struct {
	feed *Feed
	name string

	mu      sync.Mutex
	cancels []context.CancelFunc
}

var _ message.Subscriber = (*feedSubscriber)(nil)

func (s *feedSubscriber) Subscribe(ctx context.Context, topic string) (<-chan *message.Message, error) {
	ctx, cancel := context.WithCancel(ctx)
	s.mu.Lock()
	s.cancels = append(s.cancels, cancel)
	s.mu.Unlock()
	return s.feed.sub.Subscribe(ctx, topic)
}

// Close ends the runtime's subscriptions and takes it off the feed, so that it may run on it again.
func (s *feedSubscriber) Close() error {
	s.mu.Lock()
	for _, c := range s.cancels {
		c()
	}
	s.cancels = nil
	s.mu.Unlock()
	s.feed.mu.Lock()
	delete(s.feed.runtimes, s.name)
	s.feed.mu.Unlock()
	return nil
}

// decoded shares the payloads of the newest events between the runtimes on a feed: an order's
// events are wanted by the matching engine, copy-trade mirroring, coupon settlement and the
// dividend payout, and each decoding its own copy cost 8 % of the server's CPU per order.
// Payloads are values the managers only read, as the projectors share theirs.
type decoded struct {
	mu    sync.Mutex
	byPos map[int64]*payload
	ring  [feedCapacity]int64 // positions in byPos, oldest replaced first
	next  int
}

type payload struct {
	id   uuid.UUID
	once sync.Once
	p    events.Payload
	err  error
}

// get returns ev's payload, decoded by the first runtime that wants it.
func (d *decoded) get(ev events.RecordedEvent) (events.Payload, error) {
	d.mu.Lock()
	e, ok := d.byPos[ev.Position]
	if !ok || e.id != ev.ID {
		e = &payload{id: ev.ID}
		if old := d.ring[d.next]; old != 0 {
			delete(d.byPos, old)
		}
		d.byPos[ev.Position] = e
		d.ring[d.next] = ev.Position
		d.next = (d.next + 1) % len(d.ring)
	}
	d.mu.Unlock()
	e.once.Do(func() { e.p, e.err = events.DecodeRecorded(ev) })
	return e.p, e.err
}
