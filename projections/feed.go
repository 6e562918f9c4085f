package projections

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

// entry is one event of the log as the projectors share it: decoded at most once, by whichever
// projector first wants it (payloads are values that projectors only read).
type entry struct {
	ev   events.RecordedEvent
	once sync.Once
	p    events.Payload
	err  error
}

func (e *entry) payload() (events.Payload, error) {
	e.once.Do(func() { e.p, e.err = events.DecodeRecorded(e.ev) })
	return e.p, e.err
}

func wrap(evs []events.RecordedEvent) []*entry {
	out := make([]*entry, len(evs))
	for i := range evs {
		out[i] = &entry{ev: evs[i]}
	}
	return out
}

// feed is the Watermill Subscriber over the event store's global feed (events.Store.Subscribe,
// the same for every backend). The topic is a unit's name: a subscription starts after the lowest
// checkpoint of the unit's projectors, and every message is one page of events (up to maxPage).
//
// The page travels in the message's context (see pageOf), not in its payload: the router runs
// in this process, and serializing thousands of events to bytes only to parse them again would
// cost more than applying them. The payload names the page's range for logs.
//
// One store subscription (the hub's leader) reads the log once into a bounded buffer that every
// projector's subscription pages from, so the log is read and decoded once, not once per
// projector. A subscription whose position is behind the buffer (a projector that restarts from
// an older checkpoint, or one that was stalled) reads the store directly until it reaches it.
//
// The next page is sent only after the handler acks the previous one. A nacked page is sent
// again after a growing pause, for ever: a projector stalls on a failing event and never skips
// it (there is no poison queue).
type feed struct {
	store   events.Store
	db      *ReadDB
	logger  *slog.Logger
	maxPage int
	hub     *hub
	units   map[string]*unit // topic -> the projectors it feeds

	mu      sync.Mutex
	closed  bool
	cancels []context.CancelFunc
	wg      sync.WaitGroup
}

type pageKey struct{}

// pageOf is the page of events a feed message carries.
func pageOf(msg *message.Message) ([]*entry, error) {
	page, ok := msg.Context().Value(pageKey{}).([]*entry)
	if !ok || len(page) == 0 {
		return nil, fmt.Errorf("message %s carries no page of events", msg.UUID)
	}
	return page, nil
}

// Subscribe implements message.Subscriber.
func (f *feed) Subscribe(ctx context.Context, topic string) (<-chan *message.Message, error) {
	f.mu.Lock()
	if f.closed {
		f.mu.Unlock()
		return nil, errors.New("projections feed: closed")
	}
	ctx, cancel := context.WithCancel(ctx)
	f.cancels = append(f.cancels, cancel)
	f.wg.Add(1)
	f.mu.Unlock()

	cps, err := f.db.checkpoints(ctx)
	if err != nil {
		cancel()
		f.wg.Done()
		return nil, err
	}
	u, ok := f.units[topic]
	if !ok {
		cancel()
		f.wg.Done()
		return nil, fmt.Errorf("projections feed: no unit named %q", topic)
	}
	pos := u.from(cps)
	f.hub.track(topic, pos)
	out := make(chan *message.Message)
	go func() {
		defer f.wg.Done()
		defer close(out)
		defer cancel()
		defer f.hub.untrack(topic)
		pause := newBackoff()
		for ctx.Err() == nil {
			page, wait := f.hub.next(pos, f.maxPage)
			if page == nil && wait == nil {
				evs, err := f.store.ReadAll(ctx, pos, f.maxPage)
				if err != nil {
					if ctx.Err() == nil {
						f.logger.Warn("read event log", "projector", topic, "after", pos, "err", err)
						_ = pause.wait(ctx)
					}
					continue
				}
				pause.reset()
				if len(evs) == 0 {
					wait = f.hub.wait()
				}
				page = wrap(evs)
			}
			if len(page) == 0 {
				select {
				case <-wait:
				case <-ctx.Done():
				}
				continue
			}
			if err := f.deliver(ctx, out, topic, page); err != nil {
				return
			}
			pos = page[len(page)-1].ev.Position
			f.hub.consumed(topic, pos)
		}
	}()
	return out, nil
}

func (f *feed) deliver(ctx context.Context, out chan<- *message.Message, topic string, page []*entry) error {
	id := fmt.Sprintf("%s:%d-%d", topic, page[0].ev.Position, page[len(page)-1].ev.Position)
	pause := newBackoff()
	for {
		msg := message.NewMessage(id, message.Payload(id))
		msg.SetContext(context.WithValue(ctx, pageKey{}, page))
		select {
		case out <- msg:
		case <-ctx.Done():
			return ctx.Err()
		}
		select {
		case <-msg.Acked():
			return nil
		case <-msg.Nacked():
			f.hub.stalled(topic)
			if err := pause.wait(ctx); err != nil {
				return err
			}
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// Close implements message.Subscriber: it ends every subscription and waits for them.
func (f *feed) Close() error {
	f.mu.Lock()
	f.closed = true
	for _, c := range f.cancels {
		c()
	}
	f.mu.Unlock()
	f.wg.Wait()
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
	buf     []*entry // the events after start, in order
	start   int64    // buf holds every event after start up to end
	end     int64
	readers map[string]*hubReader
	changed chan struct{} // closed and replaced on every change
}

type hubReader struct {
	pos     int64
	stalled bool
}

// newHub returns a hub whose buffer starts after position from.
func newHub(store events.Store, logger *slog.Logger, capacity int, from int64) *hub {
	return &hub{store: store, logger: logger, capacity: capacity, start: from, end: from,
		readers: map[string]*hubReader{}, changed: make(chan struct{})}
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
			return h.push(ctx, wrap(page))
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
func (h *hub) push(ctx context.Context, page []*entry) error {
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
	h.end = page[len(page)-1].ev.Position
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
	n := sort.Search(len(h.buf), func(i int) bool { return h.buf[i].ev.Position > low })
	if n == 0 {
		return
	}
	h.start = h.buf[n-1].ev.Position
	h.buf = h.buf[n:]
}

// next returns up to max buffered events after pos. With no events it returns a channel to wait
// on when pos is at the buffer's end, and nil, nil when pos is behind the buffer (read the store).
func (h *hub) next(pos int64, max int) ([]*entry, <-chan struct{}) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if pos < h.start {
		return nil, nil
	}
	if pos >= h.end {
		return nil, h.changed
	}
	i := sort.Search(len(h.buf), func(i int) bool { return h.buf[i].ev.Position > pos })
	return append([]*entry(nil), h.buf[i:min(len(h.buf), i+max)]...), nil
}

// wait is a channel closed at the hub's next change.
func (h *hub) wait() <-chan struct{} {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.changed
}

func (h *hub) track(topic string, pos int64) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.readers[topic] = &hubReader{pos: pos}
}

func (h *hub) untrack(topic string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	delete(h.readers, topic)
	h.broadcast()
}

func (h *hub) consumed(topic string, pos int64) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if r := h.readers[topic]; r != nil {
		r.pos, r.stalled = pos, false
		h.broadcast()
	}
}

func (h *hub) stalled(topic string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if r := h.readers[topic]; r != nil && !r.stalled {
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
