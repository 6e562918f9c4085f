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
// was stalled) reads the store directly until it reaches it.
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
	// After is where the shared reader starts: the furthest checkpoint of the consumers.
	After int64
	// From is where a topic's subscription starts: after the position it returns.
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
	return &Subscriber{cfg: cfg, hub: newHub(cfg.Store, cfg.Logger, cfg.HubCapacity, cfg.After)}
}

// Run reads the log into the shared buffer until ctx ends.
func (s *Subscriber) Run(ctx context.Context) { s.hub.run(ctx) }

// Subscribe implements message.Subscriber.
func (s *Subscriber) Subscribe(ctx context.Context, topic string) (<-chan *message.Message, error) {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil, errors.New("pipeline subscriber: closed")
	}
	ctx, cancel := context.WithCancel(ctx)
	s.cancels = append(s.cancels, cancel)
	s.nextID++
	reader := s.nextID
	s.wg.Add(1)
	s.mu.Unlock()

	pos, err := s.cfg.From(ctx, topic)
	if err != nil {
		cancel()
		s.wg.Done()
		return nil, fmt.Errorf("pipeline subscriber: start of %s: %w", topic, err)
	}
	s.hub.track(reader, pos)
	out := make(chan *message.Message)
	go func() {
		defer s.wg.Done()
		defer close(out)
		defer cancel()
		defer s.hub.untrack(reader)
		pause := newBackoff()
		for ctx.Err() == nil {
			page, wait := s.hub.next(pos, s.cfg.MaxPage)
			if page == nil && wait == nil {
				evs, err := s.cfg.Store.ReadAll(ctx, pos, s.cfg.MaxPage)
				if err != nil {
					if ctx.Err() == nil {
						s.cfg.Logger.Warn("read event log", "topic", topic, "after", pos, "err", err)
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
			if err := s.deliver(ctx, out, topic, reader, page); err != nil {
				if ctx.Err() == nil {
					s.cfg.Logger.Error("pipeline subscriber stopped", "topic", topic, "err", err)
				}
				return
			}
			pos = page[len(page)-1].Position
			s.hub.consumed(reader, pos)
		}
	}()
	return out, nil
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
// holds nobody back; it reads the store directly once it recovers.
type hub struct {
	store    events.Store
	logger   *slog.Logger
	capacity int

	mu      sync.Mutex
	buf     []events.RecordedEvent // the events after start, in order
	start   int64                  // buf holds every event after start up to end
	end     int64
	readers map[int]*hubReader
	changed chan struct{} // closed and replaced on every change
}

type hubReader struct {
	pos     int64
	stalled bool
}

// newHub returns a hub whose buffer starts after position from.
func newHub(store events.Store, logger *slog.Logger, capacity int, from int64) *hub {
	return &hub{store: store, logger: logger, capacity: capacity, start: from, end: from,
		readers: map[int]*hubReader{}, changed: make(chan struct{})}
}

func (h *hub) broadcast() {
	close(h.changed)
	h.changed = make(chan struct{})
}

// run reads the log into the buffer until ctx ends.
func (h *hub) run(ctx context.Context) {
	pause := newBackoff()
	for ctx.Err() == nil {
		err := h.store.Subscribe(ctx, h.last(), func(ctx context.Context, page []events.RecordedEvent) error {
			pause.reset()
			return h.push(ctx, page)
		})
		if ctx.Err() != nil {
			return
		}
		h.logger.Warn("event feed ended; subscribing again", "after", h.last(), "err", err)
		_ = pause.wait(ctx)
	}
}

func (h *hub) last() int64 {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.end
}

// push appends a page, first waiting (bounded by ctx) until the buffer has room.
func (h *hub) push(ctx context.Context, page []events.RecordedEvent) error {
	h.mu.Lock()
	for {
		h.evict()
		if len(h.buf) == 0 || len(h.buf)+len(page) <= h.capacity {
			break
		}
		wait := h.changed
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
	h.broadcast()
	return nil
}

// evict drops the events every healthy reader inside the buffer has consumed.
func (h *hub) evict() {
	low := h.end
	for _, r := range h.readers {
		if !r.stalled && r.pos >= h.start && r.pos < low {
			low = r.pos
		}
	}
	n := sort.Search(len(h.buf), func(i int) bool { return h.buf[i].Position > low })
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
		return nil, h.changed
	}
	i := sort.Search(len(h.buf), func(i int) bool { return h.buf[i].Position > pos })
	// Shared, not copied (a page's copy was 5 % of the server's allocated bytes): the buffer
	// only appends past its length and drops from its front, so no event handed out is written
	// again, and readers only read them. The capacity is cut so that no append by a reader
	// could reach the buffer's next events.
	j := min(len(h.buf), i+max)
	return h.buf[i:j:j], nil
}

// wait is a channel closed at the hub's next change.
func (h *hub) wait() <-chan struct{} {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.changed
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
	h.broadcast()
}

func (h *hub) consumed(reader int, pos int64) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if r := h.readers[reader]; r != nil {
		r.pos, r.stalled = pos, false
		h.broadcast()
	}
}

func (h *hub) stalled(reader int) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if r := h.readers[reader]; r != nil && !r.stalled {
		r.stalled = true
		h.broadcast()
	}
}

// backoff doubles a pause from 50 ms up to 10 s.
type backoff struct{ d time.Duration }

func newBackoff() *backoff { return &backoff{d: 50 * time.Millisecond} }

func (b *backoff) reset() { b.d = 50 * time.Millisecond }

func (b *backoff) wait(ctx context.Context) error {
	t := time.NewTimer(b.d)
	defer t.Stop()
	b.d = min(2*b.d, 10*time.Second)
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
