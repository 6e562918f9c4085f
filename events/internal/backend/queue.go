// Package backend is the machinery the SQL event store backends share: the queue that group-commits
// concurrent appends, the in-memory plan that checks a whole batch against the database state read
// inside the writing transaction, and the catch-up-then-live subscription loop.
package backend

import (
	"context"
	"errors"
	"fmt"

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

// Next waits for at least one request and then takes every request already waiting, up to
// maxEvents events in all: the requests that queued while the previous transaction committed share
// the next one. It returns false once the queue is closed.
func (q *Queue) Next(maxEvents int) ([]*Request, bool) {
	var first *Request
	select {
	case first = <-q.reqs:
	case <-q.quit:
		return nil, false
	}
	batch := []*Request{first}
	n := len(first.Events)
	for n < maxEvents {
		select {
		case r := <-q.reqs:
			batch = append(batch, r)
			n += len(r.Events)
		default:
			return batch, true
		}
	}
	return batch, true
}

// Serve is a backend's single writer: it hands commit every batch Next returns, at most maxEvents
// events each, until the queue is closed, and then closes end.
func (q *Queue) Serve(maxEvents int, commit func([]*Request), end chan<- struct{}) {
	defer close(end)
	for {
		batch, ok := q.Next(maxEvents)
		if !ok {
			return
		}
		commit(batch)
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
