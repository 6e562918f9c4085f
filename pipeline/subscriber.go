// Package pipeline carries the event log to its consumers on Watermill: the read side's
// projectors and the write side's process managers run as handlers on Watermill routers
// (NewRouter: retry with backoff, recoverer, metrics) subscribed to the event store through
// Subscriber. It imports nothing of lotbook but events, so that commands and projections may both
// use it without knowing each other.
//
// Subscriber is a message.Subscriber over the event store's global feed (events.Store.Subscribe,
// the same for every backend). A topic names one consumer: its subscription starts after the
// position Config.From gives for it (the consumer's own checkpoint), and every message carries one
// page of events (up to MaxPage) in its payload (see Page), with its first and last positions in
// the metadata.
//
// One store subscription (the hub's reader) reads the log once into a bounded buffer that every
// subscription pages from, so the log is read once, not once per consumer. A subscription whose
// position is behind the buffer (a consumer that restarts from an older checkpoint, or one that
// was stalled) reads the store directly until it reaches it. Follow reads the same way for a
// consumer in the process that takes pages by a call rather than as messages (the API's pushes to
// sockets), and with Config.NeverWait the reader waits for no consumer: one that falls further
// behind than the buffer holds reads the store until it catches up.
//
// The next page is sent only after the handler acks the previous one. A nacked page is sent
// again after a growing pause, for ever: a consumer stalls on a failing event and never skips it
// (there is no poison queue).
//
// Watermill's universal Pub/Sub test suite (pubsub/tests, universal_test.go) runs over this
// subscriber, through two test adapters that the suite needs and the log does not have: a
// publisher (the log has none: events are appended only by commands, through the aggregates'
// expected versions, never published as messages) that appends each message as one event to its
// topic's stream, and a subscription per topic that takes pages of one event and passes on those
// of the topic's stream, acking or nacking the page as the test does the message. It passes the
// suite's tests of publish and subscribe, concurrent subscribers and topics, resend on error and
// on nack, no next message before the ack, in-order delivery, closing, message and subscribe
// contexts, and continuing after a close or errors. What it does not claim, by design: consumer
// groups (a topic is one consumer, whose start is its own checkpoint, not the broker's),
// exactly-once delivery (delivery is at least once; a consumer makes it once by its checkpoint
// and deterministic command ids), a new subscriber receiving old messages of a consumer that has
// passed them (it starts at the consumer's checkpoint), and reconnects to a broker (there is none
// to restart: a failed read is retried against the store).
package pipeline

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sort"
	"sync"
	"time"

	"github.com/ThreeDotsLabs/watermill/message"

	"github.com/lotbook/lotbook/events"
)

// Config configures a Subscriber.
type Config struct {
	Store   events.Store
	Logger  *slog.Logger
	MaxPage int // events per message (default 5000)
	// HubCapacity bounds the events the shared reader buffers ahead of the slowest healthy
	// subscription (default 4 pages).
	HubCapacity int
	// NeverWait: the shared reader never waits for a subscription; one that falls more than
	// HubCapacity events behind it reads the store on its own until it catches up. For consumers
	// that must not hold each other back, such as pushes to sockets.
	NeverWait bool
	// After is where the shared reader starts: the furthest checkpoint of the consumers.
	After int64
	// Linger is how long the shared reader waits after a short page (the live tail, a few
	// commits) before it reads the log again, so that the commits meanwhile reach the consumers
	// in one page instead of one page each (0: it reads again at once). The first commit after
	// a quiet spell is read at once; only the ones that follow it wait, at most Linger.
	Linger time.Duration
	// From is where a topic's subscription starts: after the position it returns (Subscribe
	// only: Follow is given its start).
	From func(ctx context.Context, topic string) (int64, error)
}

// Subscriber is the message.Subscriber over the event store; see the package documentation.
// Run reads the log for it.
type Subscriber struct {
	cfg     Config
	hub     *hub
	encoded encodedPages

	mu      sync.Mutex
	closed  bool
	cancels []context.CancelFunc
	wg      sync.WaitGroup
	nextID  int
}

var _ message.Subscriber = (*Subscriber)(nil)

// NewSubscriber prepares a subscriber; Run starts its shared reader.
func NewSubscriber(cfg Config) *Subscriber {
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if cfg.MaxPage <= 0 {
		cfg.MaxPage = 5000
	}
	if cfg.HubCapacity <= 0 {
		cfg.HubCapacity = 4 * cfg.MaxPage
	}
	h := newHub(cfg.Store, cfg.Logger, cfg.HubCapacity, cfg.NeverWait, cfg.After)
	h.linger = cfg.Linger
	return &Subscriber{cfg: cfg, hub: h}
}

// Run reads the log into the shared buffer until ctx ends.
func (s *Subscriber) Run(ctx context.Context) { s.hub.run(ctx) }

// Subscribe implements message.Subscriber.
func (s *Subscriber) Subscribe(ctx context.Context, topic string) (<-chan *message.Message, error) {
	pos, err := s.cfg.From(ctx, topic)
	if err != nil {
		return nil, fmt.Errorf("pipeline subscriber: start of %s: %w", topic, err)
	}
	ctx, r, err := s.open(ctx, pos)
	if err != nil {
		return nil, err
	}
	out := make(chan *message.Message)
	go func() {
		defer r.close()
		defer close(out)
		err := r.read(ctx, topic, func(page []events.RecordedEvent) error {
			return s.deliver(ctx, out, topic, r.id, page)
		})
		if ctx.Err() == nil {
			s.cfg.Logger.Error("pipeline subscriber stopped", "topic", topic, "err", err)
		}
	}()
	return out, nil
}

// Follow calls handle with every page of events after position after, in order and on the
// caller's goroutine, until ctx ends or the subscriber closes. It reads as a subscription does
// (from the shared buffer, and from the store while behind it) without the messages and their
// acks: for consumers in the process that handle every event and need no checkpoint, such as
// pushes to sockets; name is for the logs.
func (s *Subscriber) Follow(ctx context.Context, name string, after int64, handle func(ctx context.Context, page []events.RecordedEvent)) error {
	ctx, r, err := s.open(ctx, after)
	if err != nil {
		return err
	}
	defer r.close()
	return r.read(ctx, name, func(page []events.RecordedEvent) error {
		handle(ctx, page)
		return nil
	})
}

// subscription is one consumer's reading of the log, tracked by the hub from its start.
type subscription struct {
	s      *Subscriber
	id     int
	pos    int64 // the last position handed on
	cancel context.CancelFunc
}

// open starts a subscription after pos, under a context that Close ends.
func (s *Subscriber) open(ctx context.Context, pos int64) (context.Context, *subscription, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil, nil, errors.New("pipeline subscriber: closed")
	}
	ctx, cancel := context.WithCancel(ctx)
	s.cancels = append(s.cancels, cancel)
	s.nextID++
	s.wg.Add(1)
	r := &subscription{s: s, id: s.nextID, pos: pos, cancel: cancel}
	s.hub.track(r.id, pos)
	return ctx, r, nil
}

func (r *subscription) close() {
	r.s.hub.untrack(r.id)
	r.cancel()
	r.s.wg.Done()
}

// read hands deliver the pages after the subscription's position, in order: from the shared
// buffer, or from the store while behind it, until ctx ends or deliver fails.
func (r *subscription) read(ctx context.Context, name string, deliver func(page []events.RecordedEvent) error) error {
	s := r.s
	pause := newBackoff()
	for ctx.Err() == nil {
		page, wait := s.hub.next(r.pos, s.cfg.MaxPage)
		if page == nil && wait == nil {
			evs, err := s.cfg.Store.ReadAll(ctx, r.pos, s.cfg.MaxPage)
			if err != nil {
				if ctx.Err() == nil {
					s.cfg.Logger.Warn("read event log", "topic", name, "after", r.pos, "err", err)
					_ = pause.wait(ctx)
				}
				continue
			}
			pause.reset()
			if len(evs) == 0 {
				wait = s.hub.wait()
			}
			page = evs
		}
		if len(page) == 0 {
			select {
			case <-wait:
			case <-ctx.Done():
			}
			continue
		}
		if err := deliver(page); err != nil {
			return err
		}
		r.pos = page[len(page)-1].Position
		s.hub.consumed(r.id, r.pos)
	}
	return ctx.Err()
}

func (s *Subscriber) deliver(ctx context.Context, out chan<- *message.Message, topic string, reader int, page []events.RecordedEvent) error {
	id := fmt.Sprintf("%s:%d-%d", topic, page[0].Position, page[len(page)-1].Position)
	payload, err := s.encoded.encode(page)
	if err != nil {
		return fmt.Errorf("encode page %s: %w", id, err)
	}
	pause := newBackoff()
	for {
		msg := pageMessage(id, page, payload)
		if err := s.send(ctx, out, msg); err != nil {
			return err
		}
		if isClosed(msg.Acked()) {
			return nil
		}
		s.hub.stalled(reader)
		if err := pause.wait(ctx); err != nil {
			return err
		}
	}
}

// send delivers one message and waits for its ack or nack. The message's context ends then (or
// with the subscription): the handler's work on it is over.
func (s *Subscriber) send(ctx context.Context, out chan<- *message.Message, msg *message.Message) error {
	mctx, cancel := context.WithCancel(ctx)
	defer cancel()
	msg.SetContext(mctx)
	select {
	case out <- msg:
	case <-ctx.Done():
		return ctx.Err()
	}
	select {
	case <-msg.Acked():
	case <-msg.Nacked():
	case <-ctx.Done():
		return ctx.Err()
	}
	return nil
}

func isClosed(ch <-chan struct{}) bool {
	select {
	case <-ch:
		return true
	default:
		return false
	}
}

// Close implements message.Subscriber: it ends every subscription and waits for them.
func (s *Subscriber) Close() error {
	s.mu.Lock()
	s.closed = true
	for _, c := range s.cancels {
		c()
	}
	s.mu.Unlock()
	s.wg.Wait()
	return nil
}

// hub holds the newest stretch of the log, read by one store subscription, for every projector's
// subscription to page from. It holds at most capacity events beyond what every healthy
// subscription inside it has consumed: the reader waits for the slowest of them rather than drop
// events they still need (so in catch-up the projectors move together), but a stalled projector
// holds nobody back; it reads the store directly once it recovers. With neverWait the reader
// drops the oldest events past capacity instead, and a subscription behind them reads the store.
type hub struct {
	store     events.Store
	logger    *slog.Logger
	capacity  int
	neverWait bool
	linger    time.Duration // Config.Linger

	mu      sync.Mutex
	buf     []events.RecordedEvent // the events after start, in order
	start   int64                  // buf holds every event after start up to end
	end     int64
	readers map[int]*hubReader
	// grown is closed when events are added (readers at the end wait on it), freed when a
	// reader moves or leaves (the full buffer's reader waits on it); nil while nobody waits, so
	// that a reader's every page does not wake the others for nothing.
	grown, freed chan struct{}
}

type hubReader struct {
	pos     int64
	stalled bool
}

// newHub returns a hub whose buffer starts after position from.
func newHub(store events.Store, logger *slog.Logger, capacity int, neverWait bool, from int64) *hub {
	return &hub{store: store, logger: logger, capacity: capacity, neverWait: neverWait, start: from, end: from,
		readers: map[int]*hubReader{}}
}

// waitOn returns the channel *ch, made if nobody waits on it yet. Called with mu held.
func waitOn(ch *chan struct{}) <-chan struct{} {
	if *ch == nil {
		*ch = make(chan struct{})
	}
	return *ch
}

// signal wakes whoever waits on *ch. Called with mu held.
func signal(ch *chan struct{}) {
	if *ch != nil {
		close(*ch)
		*ch = nil
	}
}

// run reads the log into the buffer until ctx ends.
func (h *hub) run(ctx context.Context) {
	pause := newBackoff()
	for ctx.Err() == nil {
		err := h.store.Subscribe(ctx, h.last(), func(ctx context.Context, page []events.RecordedEvent) error {
			pause.reset()
			if err := h.push(ctx, page); err != nil {
				return err
			}
			if h.linger > 0 && len(page) < lingerUnder {
				return sleep(ctx, h.linger)
			}
			return nil
		})
		if ctx.Err() != nil {
			return
		}
		h.logger.Warn("event feed ended; subscribing again", "after", h.last(), "err", err)
		_ = pause.wait(ctx)
	}
}

// lingerUnder is the page below which the hub lingers: a longer one is a reader catching up, which
// reads on at once.
const lingerUnder = 256

func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (h *hub) last() int64 {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.end
}

// push appends a page, first waiting (bounded by ctx) until the buffer has room unless neverWait.
func (h *hub) push(ctx context.Context, page []events.RecordedEvent) error {
	h.mu.Lock()
	for !h.neverWait {
		h.evict()
		if len(h.buf) == 0 || len(h.buf)+len(page) <= h.capacity {
			break
		}
		wait := waitOn(&h.freed)
		h.mu.Unlock()
		select {
		case <-wait:
		case <-ctx.Done():
			return ctx.Err()
		}
		h.mu.Lock()
	}
	defer h.mu.Unlock()
	h.buf = append(h.buf, page...)
	h.end = page[len(page)-1].Position
	if h.neverWait {
		h.evict()
	}
	signal(&h.grown)
	return nil
}

// evict drops the events every healthy reader inside the buffer has consumed, and with neverWait
// those past capacity.
func (h *hub) evict() {
	low := h.end
	for _, r := range h.readers {
		if !r.stalled && r.pos >= h.start && r.pos < low {
			low = r.pos
		}
	}
	n := sort.Search(len(h.buf), func(i int) bool { return h.buf[i].Position > low })
	if h.neverWait {
		n = max(n, len(h.buf)-h.capacity)
	}
	if n == 0 {
		return
	}
	h.start = h.buf[n-1].Position
	h.buf = h.buf[n:]
}

// next returns up to max buffered events after pos. With no events it returns a channel to wait
// on when pos is at the buffer's end, and nil, nil when pos is behind the buffer (read the store).
func (h *hub) next(pos int64, max int) ([]events.RecordedEvent, <-chan struct{}) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if pos < h.start {
		return nil, nil
	}
	if pos >= h.end {
		return nil, waitOn(&h.grown)
	}
	i := sort.Search(len(h.buf), func(i int) bool { return h.buf[i].Position > pos })
	// Shared, not copied (a page's copy was 5 % of the server's allocated bytes): the buffer
	// only appends past its length and drops from its front, so no event handed out is written
	// again, and readers only read them. The capacity is cut so that no append by a reader
	// could reach the buffer's next events.
	j := min(len(h.buf), i+max)
	return h.buf[i:j:j], nil
}

// wait is a channel closed when events are next added.
func (h *hub) wait() <-chan struct{} {
	h.mu.Lock()
	defer h.mu.Unlock()
	return waitOn(&h.grown)
}

func (h *hub) track(reader int, pos int64) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.readers[reader] = &hubReader{pos: pos}
}

func (h *hub) untrack(reader int) {
	h.mu.Lock()
	defer h.mu.Unlock()
	delete(h.readers, reader)
	signal(&h.freed)
}

func (h *hub) consumed(reader int, pos int64) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if r := h.readers[reader]; r != nil {
		r.pos, r.stalled = pos, false
		signal(&h.freed)
	}
}

func (h *hub) stalled(reader int) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if r := h.readers[reader]; r != nil && !r.stalled {
		r.stalled = true
		signal(&h.freed)
	}
}

// backoff doubles a pause from 50 ms up to 10 s.
type backoff struct{ d time.Duration }

func newBackoff() *backoff { return &backoff{d: 50 * time.Millisecond} }

func (b *backoff) reset() { b.d = 50 * time.Millisecond }

func (b *backoff) wait(ctx context.Context) error {
	d := b.d
	b.d = min(2*b.d, 10*time.Second)
	return sleep(ctx, d)
}
