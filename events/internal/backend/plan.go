package backend

import (
	"fmt"
	"time"

	"github.com/google/uuid"

	"github.com/lotbook/lotbook/events"
)

// Stored is where an already stored event id lives.
type Stored struct {
	Stream   string
	Version  int64
	Position int64
}

// Row is one event a transaction inserts.
type Row struct {
	Position int64
	ID       uuid.UUID
	Stream   string
	Version  int64
	Type     string
	Data     []byte
	Metadata []byte // JSON of events.Metadata, server time in UTC
}

// Keys lists the streams and event ids whose stored state a batch needs.
func Keys(batch []*Request) (streams []string, ids []uuid.UUID) {
	seen := map[string]bool{}
	for _, r := range batch {
		if !seen[r.Stream] {
			seen[r.Stream] = true
			streams = append(streams, r.Stream)
		}
		for _, e := range r.Events {
			ids = append(ids, e.ID)
		}
	}
	return streams, ids
}

// Plan is what one transaction inserts and whom it answers when it commits.
type Plan struct {
	Rows     []Row
	accepted []*Request
	results  []events.AppendResult
}

// NewPlan checks every request of a batch, in order, against the database state read inside the
// writing transaction (head position, stream versions, stored ids) and against the requests before
// it in the same batch. Requests that fail their check are answered at once and do not affect the
// others; the rest are accepted and answered by Commit. versions and stored are updated in place.
func NewPlan(head int64, batch []*Request, versions map[string]int64, stored map[uuid.UUID]Stored, now time.Time) *Plan {
	p := &Plan{}
	for _, r := range batch {
		if err := r.Ctx.Err(); err != nil {
			r.Done(events.AppendResult{}, fmt.Errorf("append to %s: %w", r.Stream, err))
			continue
		}
		if res, done, err := Retry(r.Stream, r.Events, stored); done {
			if err != nil {
				r.Done(events.AppendResult{}, err)
				continue
			}
			// Answered with the stored result, but only once this transaction commits: the
			// stored events may be rows of an earlier request in this very batch.
			p.accepted = append(p.accepted, r)
			p.results = append(p.results, res)
			continue
		}
		cur := versions[r.Stream]
		if r.Expected != events.AnyVersion && r.Expected != cur {
			r.Done(events.AppendResult{}, fmt.Errorf("append to %s at version %d (stream is at %d): %w",
				r.Stream, r.Expected, cur, events.ErrWrongExpectedVersion))
			continue
		}
		meta := make([][]byte, len(r.Events))
		var err error
		for i, e := range r.Events {
			if meta[i], err = MarshalMetadata(e.Metadata, now); err != nil {
				break
			}
		}
		if err != nil {
			r.Done(events.AppendResult{}, fmt.Errorf("append to %s: %w", r.Stream, err))
			continue
		}
		for i, e := range r.Events {
			head++
			cur++
			p.Rows = append(p.Rows, Row{Position: head, ID: e.ID, Stream: r.Stream, Version: cur, Type: e.Type, Data: NonNil(e.Data), Metadata: meta[i]})
			stored[e.ID] = Stored{Stream: r.Stream, Version: cur, Position: head}
		}
		versions[r.Stream] = cur
		p.accepted = append(p.accepted, r)
		p.results = append(p.results, events.AppendResult{Version: cur, Position: head, Written: true})
	}
	return p
}

// Retry reports whether the event ids of an append to stream are already stored. All of them
// stored, in that stream and in order, is a retry: done, with the stored result. Some of them
// stored is a conflict: done, with an error wrapping events.ErrWrongExpectedVersion.
func Retry(stream string, evs []events.EventData, stored map[uuid.UUID]Stored) (res events.AppendResult, done bool, err error) {
	found := 0
	var hit Stored
	var hitID uuid.UUID
	for _, e := range evs {
		if s, ok := stored[e.ID]; ok {
			if found == 0 {
				hit, hitID = s, e.ID
			}
			found++
		}
	}
	if found == 0 {
		return events.AppendResult{}, false, nil
	}
	if found == len(evs) {
		first := stored[evs[0].ID]
		retry := true
		for i, e := range evs {
			s := stored[e.ID]
			if s.Stream != stream || s.Version != first.Version+int64(i) {
				retry = false
				break
			}
		}
		if retry {
			last := stored[evs[len(evs)-1].ID]
			return events.AppendResult{Version: last.Version, Position: last.Position}, true, nil
		}
	}
	return events.AppendResult{}, true, fmt.Errorf("append to %s: event %s is already stored in %s v%d, not as a retry of this append: %w",
		stream, hitID, hit.Stream, hit.Version, events.ErrWrongExpectedVersion)
}

// Accepted are the requests Commit answers; if the transaction fails the backend answers them.
func (p *Plan) Accepted() []*Request { return p.accepted }

// Commit answers the accepted requests once their transaction committed.
func (p *Plan) Commit() {
	for i, r := range p.accepted {
		r.Done(p.results[i], nil)
	}
}

// metadata is the stored form of events.Metadata: server time as RFC 3339 with nanoseconds, UTC.
type metadata struct {
	CommandID     string `json:"commandId"`
	Actor         string `json:"actor"`
	CorrelationID string `json:"correlationId,omitempty"`
	CausationID   string `json:"causationId,omitempty"`
	Request       string `json:"request,omitempty"`
	ServerTime    string `json:"serverTime"`
}

// MarshalMetadata encodes metadata for storage; a zero server time becomes now.
func MarshalMetadata(m events.Metadata, now time.Time) ([]byte, error) {
	t := m.ServerTime
	if t.IsZero() {
		t = now
	}
	b, err := encodeMetadata(metadata{
		CommandID: m.CommandID, Actor: m.Actor, CorrelationID: m.CorrelationID, CausationID: m.CausationID,
		Request: m.Request, ServerTime: t.UTC().Format(time.RFC3339Nano),
	})
	if err != nil {
		return nil, fmt.Errorf("encode metadata: %w", err)
	}
	return b, nil
}

// UnmarshalMetadata decodes stored metadata; the server time comes back in UTC.
func UnmarshalMetadata(b []byte) (events.Metadata, error) {
	m, err := decodeMetadata(b)
	if err != nil {
		return events.Metadata{}, fmt.Errorf("decode metadata: %w", err)
	}
	t, err := time.Parse(time.RFC3339Nano, m.ServerTime)
	if err != nil {
		return events.Metadata{}, fmt.Errorf("decode metadata server time: %w", err)
	}
	return events.Metadata{
		CommandID: m.CommandID, Actor: m.Actor, CorrelationID: m.CorrelationID, CausationID: m.CausationID,
		Request: m.Request, ServerTime: t.UTC(),
	}, nil
}
