package commands

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/lotbook/lotbook/events"
)

// Execute runs one command against one stream: load, return the earlier record if this command
// already wrote here (key-reused if another command wrote under its id), else decide and append
// with the loaded version. On a write conflict it
// reloads and decides again, at most maxAttempts times, then answers system_busy. The record
// returned after an append is what the store holds: its own events as written when the store
// says this append wrote them, else as read back (a concurrent duplicate of the same command,
// or another command reusing its id, may have written first).
//
// The first decision uses the cached aggregate without reading the store: the append's expected
// version proves it current (a write by another process is a conflict, and a duplicate of this
// command there is answered with its stored events). A refusal or a decision to change nothing
// proves nothing, so the stream is read again before it is answered, and decided once more if
// that found events.
//
// decide returns the events to append; none means nothing changes, and the record then carries
// only the stream's current position.
func Execute[S State](ctx context.Context, s *Service, c Cmd, stream string, decide func(st S) ([]events.Payload, error)) (*Record, error) {
	for attempt := 1; ; attempt++ {
		fresh := time.Duration(-1) // any entry that ever caught up: the append checks it
		if attempt > 1 {
			fresh = 0 // after a conflict, read what the other writer wrote
		}
		e, caught, err := s.loadWithin(ctx, stream, fresh)
		if err != nil {
			return nil, err
		}
		if rec, err := e.Replay(c); rec != nil || err != nil {
			e.mu.Unlock()
			return rec, err
		}
		payloads, err := decide(e.st.(S))
		if (err != nil || len(payloads) == 0) && !caught {
			v := e.version
			if cerr := s.catchUp(ctx, e); cerr != nil {
				e.mu.Unlock()
				return nil, cerr
			}
			if e.version != v {
				if rec, err := e.Replay(c); rec != nil || err != nil {
					e.mu.Unlock()
					return rec, err
				}
				payloads, err = decide(e.st.(S))
			}
		}
		if err != nil {
			e.mu.Unlock()
			return nil, err
		}
		if len(payloads) == 0 {
			rec := &Record{Position: e.position}
			if sn, ok := e.st.(snapshotter); ok {
				rec.Snapshot = sn.snapshot()
			}
			e.mu.Unlock()
			return rec, nil
		}
		data, err := encode(c, stream, payloads)
		if err != nil {
			e.mu.Unlock()
			return nil, Unavailable(err)
		}
		at := time.Now()
		res, err := s.store.Append(ctx, stream, e.version, data)
		if errors.Is(err, events.ErrWrongExpectedVersion) {
			e.mu.Unlock()
			s.conflicts.Add(1)
			if attempt >= s.maxAttempts {
				s.log.WarnContext(ctx, "command gave up after write conflicts", "stream", stream, "command", c.CommandID, "attempts", attempt)
				return nil, Unavailable(fmt.Errorf("%s: %d write conflicts", stream, attempt))
			}
			if err := backoff(ctx, attempt); err != nil {
				return nil, Unavailable(err)
			}
			continue
		}
		if err != nil {
			e.mu.Unlock()
			s.log.ErrorContext(ctx, "append failed", "stream", stream, "command", c.CommandID, "err", err)
			return nil, Unavailable(fmt.Errorf("append to %s: %w", stream, err))
		}
		err = s.appended(ctx, e, data, payloads, res, at)
		var rec *Record
		if err == nil {
			// Another command that reused the id may have written it first (its events' ids
			// are ours, so the store kept its events, not ours).
			rec, err = e.Replay(c)
		}
		e.mu.Unlock()
		if err != nil {
			return nil, err
		}
		if rec == nil {
			return nil, Unavailable(fmt.Errorf("%s: appended events of %s not found on read-back", stream, c.CommandID))
		}
		return rec, nil
	}
}

// backoff waits a little, growing and jittered, before the next attempt after a conflict.
func backoff(ctx context.Context, attempt int) error {
	d := time.Duration(attempt) * time.Duration(500+rand.IntN(1500)) * time.Microsecond
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// encode turns payloads into EventData with ids derived from the command id, so that a retried
// command re-appends the same ids and the store writes it once.
func encode(c Cmd, stream string, payloads []events.Payload) ([]events.EventData, error) {
	md := events.Metadata{
		CommandID:     c.CommandID,
		Actor:         c.Actor,
		CorrelationID: c.CorrelationID,
		CausationID:   c.CommandID,
		Request:       c.binding,
		ServerTime:    c.Now,
	}
	out := make([]events.EventData, len(payloads))
	for i, p := range payloads {
		if m, ok := p.(events.MovesMoney); ok {
			if err := events.CheckPostings(stream, m.MoneyPostings()); err != nil {
				return nil, fmt.Errorf("%s in %s: %w", p.EventName(), stream, err)
			}
		}
		typ, data, err := events.Encode(p)
		if err != nil {
			return nil, err
		}
		out[i] = events.EventData{ID: events.EventID(c.CommandID, stream, i), Type: typ, Data: data, Metadata: md}
	}
	return out, nil
}
