package projections

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/ThreeDotsLabs/watermill/message"

	"github.com/lotbook/lotbook/events"
)

// feed is the Watermill Subscriber over the event store's global feed (events.Store.Subscribe,
// the same for every backend). The topic is a projector's name: a subscription starts after that
// projector's checkpoint, and every message is one page of events (up to maxPage).
//
// The page travels in the message's context (see pageOf), not in its payload: the router runs
// in this process, and serializing thousands of events to bytes only to parse them again would
// cost more than applying them. The payload names the page's range for logs.
//
// The next page is sent only after the handler acks the previous one. A nacked page is sent
// again after a growing pause, for ever: a projector stalls on a failing event and never skips
// it (there is no poison queue).
type feed struct {
	store   events.Store
	db      *ReadDB
	logger  *slog.Logger
	maxPage int

	mu      sync.Mutex
	closed  bool
	cancels []context.CancelFunc
	wg      sync.WaitGroup
}

type pageKey struct{}

// pageOf is the page of events a feed message carries.
func pageOf(msg *message.Message) ([]events.RecordedEvent, error) {
	page, ok := msg.Context().Value(pageKey{}).([]events.RecordedEvent)
	if !ok {
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
	from := cps[topic]
	out := make(chan *message.Message)
	go func() {
		defer f.wg.Done()
		defer close(out)
		defer cancel()
		pause := newBackoff()
		for {
			err := f.store.Subscribe(ctx, from, func(ctx context.Context, page []events.RecordedEvent) error {
				for len(page) > 0 {
					n := min(len(page), f.maxPage)
					if err := f.deliver(ctx, out, topic, page[:n]); err != nil {
						return err
					}
					from, page = page[n-1].Position, page[n:]
				}
				pause.reset()
				return nil
			})
			if ctx.Err() != nil {
				return
			}
			f.logger.Warn("event feed ended; subscribing again", "projector", topic, "after", from, "err", err)
			if pause.wait(ctx) != nil {
				return
			}
		}
	}()
	return out, nil
}

func (f *feed) deliver(ctx context.Context, out chan<- *message.Message, topic string, page []events.RecordedEvent) error {
	id := fmt.Sprintf("%s:%d-%d", topic, page[0].Position, page[len(page)-1].Position)
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
