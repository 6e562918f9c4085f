// Package backend is the machinery the SQL event store backends share: the queue that group-commits
// concurrent appends, the in-memory plan that checks a whole batch against the database state read
// inside the writing transaction, and the catch-up-then-live subscription loop.
package backend

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/google/uuid"

	"github.com/lotbook/lotbook/events"
)

// Request is one Append waiting for a writer.
type Request struct {
	Ctx      context.Context
	Stream   string
	Expected int64
	Events   []events.EventData
	reply    chan reply
}

type reply struct {
	res events.AppendResult
	err error
}

// Done answers the caller; a writer calls it exactly once per request.
func (r *Request) Done(res events.AppendResult, err error) {
	r.reply <- reply{res, err}
}

// Queue hands appends from many goroutines to the writer goroutines, which take them in batches.
type Queue struct {
	reqs chan *Request
	quit chan struct{}
	// active counts the Append calls in progress; want is how many there were when Next last
	// returned (only the writer goroutine uses it): how many requests the next batch may wait for.
	active atomic.Int64
	want   int
}

// NewQueue returns an open queue.
func NewQueue() *Queue {
	// Unbuffered: a request is either taken by a writer or still owned by its caller, so Close
	// never strands one.
	return &Queue{reqs: make(chan *Request), quit: make(chan struct{})}
}

// Close makes Append return events.ErrClosed and Next return false. Call once.
func (q *Queue) Close() { close(q.quit) }

// Closed is closed once the queue is.
func (q *Queue) Closed() <-chan struct{} { return q.quit }

// Append validates an append, queues it and waits for its answer. If ctx ends after a writer took
// the request, the append may still commit; a retry with the same event ids is idempotent.
func (q *Queue) Append(ctx context.Context, stream string, expected int64, evs []events.EventData) (events.AppendResult, error) {
	if err := Validate(stream, expected, evs); err != nil {
		return events.AppendResult{}, err
	}
	select {
	case <-q.quit:
		return events.AppendResult{}, events.ErrClosed
	default:
	}
	q.active.Add(1)
	defer q.active.Add(-1)
	r := &Request{Ctx: ctx, Stream: stream, Expected: expected, Events: evs, reply: make(chan reply, 1)}
	select {
	case q.reqs <- r:
	case <-q.quit:
		return events.AppendResult{}, events.ErrClosed
	case <-ctx.Done():
		return events.AppendResult{}, fmt.Errorf("append to %s: %w", stream, ctx.Err())
	}
	select {
	case a := <-r.reply:
		return a.res, a.err
	case <-ctx.Done():
		return events.AppendResult{}, fmt.Errorf("append to %s: %w", stream, ctx.Err())
	}
}

// maxLinger bounds how long Next waits for returning appenders (see Next).
const maxLinger = 2 * time.Millisecond

// Next waits for at least one request and then takes every request already waiting, up to
// maxEvents events in all: the requests that queued while the previous transaction committed share
// the next one. It returns false once the queue is closed.
//
// Then it lingers, as PostgreSQL's commit_delay does: the appenders the previous transaction
// answered usually append again at once (a writer's next command), but they are still on their way
// when the writer comes back, so without lingering each commit took about half of the concurrent
// appenders (a mean batch of 33 at 64 writers), and every commit costs one fsync whatever its
// size. While fewer requests are in hand than there were appends in progress when the previous
// batch was taken, Next waits for more: at most linger (the caller passes half the previous
// commit's duration, so that lingering can at most double a commit's latency while it can double
// its batch), and not at all when the queue sat idle longer than that, since nobody is then on the
// way.
func (q *Queue) Next(maxEvents int, linger time.Duration) ([]*Request, bool) {
	var first *Request
	idle := time.Now()
	select {
	case first = <-q.reqs:
	case <-q.quit:
		return nil, false
	}
	waited := time.Since(idle)
	batch := []*Request{first}
	n := q.drain(&batch, len(first.Events), maxEvents)
	if len(batch) < q.want && linger > 0 && waited < linger {
		t := time.NewTimer(min(linger, maxLinger))
	wait:
		for len(batch) < q.want && n < maxEvents {
			select {
			case r := <-q.reqs:
				batch = append(batch, r)
				n = q.drain(&batch, n+len(r.Events), maxEvents)
			case <-t.C:
				break wait
			case <-q.quit:
				break wait // the requests in hand are still answered
			}
		}
		t.Stop()
	}
	q.want = max(len(batch), int(q.active.Load()))
	return batch, true
}

// drain takes the requests already waiting into batch while it holds fewer than maxEvents events,
// and returns the events it then holds.
func (q *Queue) drain(batch *[]*Request, n, maxEvents int) int {
	for n < maxEvents {
		select {
		case r := <-q.reqs:
			*batch = append(*batch, r)
			n += len(r.Events)
		default:
			return n
		}
	}
	return n
}

// Serve is a backend's single writer: it hands commit every batch Next returns, at most maxEvents
// events each, until the queue is closed, and then closes end. Each commit's duration sets how
// long the next Next may linger.
func (q *Queue) Serve(maxEvents int, commit func([]*Request), end chan<- struct{}) {
	defer close(end)
	var linger time.Duration
	for {
		batch, ok := q.Next(maxEvents, linger)
		if !ok {
			return
		}
		t := time.Now()
		commit(batch)
		linger = time.Since(t) / 2
	}
}

// Validate refuses appends no backend can store.
func Validate(stream string, expected int64, evs []events.EventData) error {
	if stream == "" {
		return errors.New("events: append to an empty stream name")
	}
	if expected < events.AnyVersion {
		return fmt.Errorf("events: append to %s: bad expected version %d", stream, expected)
	}
	if len(evs) == 0 {
		return fmt.Errorf("events: append to %s: no events", stream)
	}
	seen := make(map[uuid.UUID]struct{}, len(evs))
	for i, e := range evs {
		if e.ID == uuid.Nil {
			return fmt.Errorf("events: append to %s: event %d has no id", stream, i)
		}
		if e.Type == "" {
			return fmt.Errorf("events: append to %s: event %d has no type", stream, i)
		}
		if _, dup := seen[e.ID]; dup {
			return fmt.Errorf("events: append to %s: event id %s twice", stream, e.ID)
		}
		seen[e.ID] = struct{}{}
	}
	return nil
}
