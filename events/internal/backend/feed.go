package backend

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/lotbook/lotbook/events"
)

// Notifier wakes every waiting subscriber when new events commit.
type Notifier struct {
	mu sync.Mutex
	ch chan struct{}
}

// Wait returns a channel that is closed at the next Notify. Take it before reading, so that a
// commit between the read and the wait is not missed.
func (n *Notifier) Wait() <-chan struct{} {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.ch == nil {
		n.ch = make(chan struct{})
	}
	return n.ch
}

// Notify wakes the current waiters.
func (n *Notifier) Notify() {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.ch != nil {
		close(n.ch)
		n.ch = nil
	}
}

// Feed is what Subscribe needs from a backend.
type Feed struct {
	ReadAll  func(ctx context.Context, after int64, limit int) ([]events.RecordedEvent, error)
	Notifier *Notifier
	Closed   <-chan struct{}
	PageSize int
	// Poll bounds how long a subscriber waits without a notification, for commits it cannot be
	// told about (another process on the same database, a dropped LISTEN connection).
	Poll time.Duration
}

// Subscribe delivers pages of events after afterPosition: the stored ones, then live ones as they
// commit. Backends whose readers never see a gap that fills later make this exactly-once.
func (f Feed) Subscribe(ctx context.Context, after int64, handle func(context.Context, []events.RecordedEvent) error) error {
	timer := time.NewTimer(f.Poll)
	defer timer.Stop()
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		select {
		case <-f.Closed:
			return events.ErrClosed
		default:
		}
		wake := f.Notifier.Wait()
		page, err := f.ReadAll(ctx, after, f.PageSize)
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			return fmt.Errorf("subscribe after %d: %w", after, err)
		}
		if len(page) > 0 {
			if err := handle(ctx, page); err != nil {
				return err
			}
			after = page[len(page)-1].Position
			continue
		}
		timer.Reset(f.Poll)
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-f.Closed:
			return events.ErrClosed
		case <-wake:
		case <-timer.C:
		}
	}
}
