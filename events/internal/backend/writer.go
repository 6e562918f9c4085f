package backend

import (
	"context"
	"sync/atomic"
	"time"

	"github.com/lotbook/lotbook/events"
)

// Writer is what a SQL backend keeps around its single writer goroutine: the queue its appends
// wait in, the notifier and feed of its subscribers, and the group-commit counters. The backend's
// Store embeds its Appender, the part its callers may use.
type Writer struct {
	queue    *Queue
	notifier Notifier
	feed     Feed
	end      chan struct{}

	transactions atomic.Int64
	events       atomic.Int64
}

// NewWriter starts the writer goroutine: it hands commit every batch of at most maxBatchEvents
// events until Stop. Subscribers read pages of pageSize with readAll and poll every poll.
func NewWriter(maxBatchEvents int, commit func([]*Request), readAll func(ctx context.Context, after int64, limit int) ([]events.RecordedEvent, error), pageSize int, poll time.Duration) *Writer {
	w := &Writer{queue: NewQueue(), end: make(chan struct{})}
	w.feed = Feed{ReadAll: readAll, Notifier: &w.notifier, Closed: w.queue.Closed(), PageSize: pageSize, Poll: poll}
	go w.queue.Serve(maxBatchEvents, commit, w.end)
	return w
}

// Appender is the writer's methods a Store offers its callers; Stop and the rest stay the backend's.
type Appender struct{ w *Writer }

// Appender returns the writer's part for the Store to embed.
func (w *Writer) Appender() Appender { return Appender{w} }

// Append implements events.Store: it queues the append for the writer and waits for its answer
// (see Queue.Append).
func (a Appender) Append(ctx context.Context, stream string, expected int64, evs []events.EventData) (events.AppendResult, error) {
	return a.w.queue.Append(ctx, stream, expected, evs)
}

// Subscribe implements events.Store: catch-up by ReadAll pages, then woken by the backend's
// notifications or the poll (see Feed.Subscribe).
func (a Appender) Subscribe(ctx context.Context, afterPosition int64, handle func(context.Context, []events.RecordedEvent) error) error {
	return a.w.feed.Subscribe(ctx, afterPosition, handle)
}

// Stats returns how many write transactions committed and how many events they inserted; their
// ratio is the mean group-commit batch size.
func (a Appender) Stats() (transactions, events int64) {
	return a.w.transactions.Load(), a.w.events.Load()
}

// Counted records one committed write transaction that inserted n events.
func (w *Writer) Counted(n int) {
	w.transactions.Add(1)
	w.events.Add(int64(n))
}

// Notify wakes the subscribers: events committed.
func (w *Writer) Notify() { w.notifier.Notify() }

// Closed is closed once Stop began.
func (w *Writer) Closed() <-chan struct{} { return w.queue.Closed() }

// ReadErr is err, or events.ErrClosed when the store is closing: a read that failed because the
// store closed under it says so.
func (w *Writer) ReadErr(err error) error {
	select {
	case <-w.queue.Closed():
		return events.ErrClosed
	default:
		return err
	}
}

// Stop refuses new appends and waits for the writer to finish the batch in flight. Call once.
func (w *Writer) Stop() {
	w.queue.Close()
	<-w.end
}
