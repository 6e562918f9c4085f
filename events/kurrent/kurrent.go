// Package kurrent adapts KurrentDB (EventStoreDB's successor) to events.Store through
// github.com/kurrent-io/KurrentDB-Client-Go.
//
// Mapping:
//   - Stream names map directly (behind an optional prefix, see WithStreamPrefix). A stream's
//     version is its KurrentDB revision + 1; expected version NoStream is kurrentdb.NoStream.
//   - Position is the event's commit position in $all, a byte offset in the transaction log. It
//     increases strictly in $all order but is not dense: positions are sparse (the conformance
//     suite runs with storetest.SparsePositions). For events appended over gRPC the commit and
//     prepare positions are equal, so one number resumes a read; events written by the legacy TCP
//     client's explicit transactions are not supported. Stream reads need a server that reports
//     $all positions on them (EventStoreDB 22.6 and later, every KurrentDB).
//   - ReadAll, Head and Subscribe see only this store's streams: never system streams ("$..."),
//     and with a prefix only the streams under it.
//   - Idempotency: KurrentDB's own check only covers a retry with the original expected version.
//     To honour the contract for any expected version, Append reads the stream first and answers a
//     retry from what is stored; it then appends with the exact revision it read, so a concurrent
//     writer is still refused by the server. An append costs a stream read, the append and a read
//     of the last event's position: this backend trades write speed for KurrentDB's operations.
package kurrent

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/google/uuid"
	"github.com/kurrent-io/KurrentDB-Client-Go/kurrentdb"

	"github.com/lotbook/lotbook/events"
	"github.com/lotbook/lotbook/events/internal/backend"
)

const (
	pageSize     = 1000
	maxAttempts  = 50 // appends retried after a concurrent writer moved the stream
	resubscribe  = time.Second
	contentJSON  = kurrentdb.ContentTypeJson
	readAllBatch = 1000
)

// Store is an events.Store on a KurrentDB server or cluster.
type Store struct {
	client *kurrentdb.Client
	prefix string
	quit   chan struct{}
	once   sync.Once

	appends atomic.Int64
	events  atomic.Int64
}

var _ events.Store = (*Store)(nil)

// Option configures Open.
type Option func(*Store)

// WithStreamPrefix stores stream s as prefix+s and limits ReadAll, Head and Subscribe to streams
// under the prefix, so that several lotbook installations (or test runs) can share one server.
func WithStreamPrefix(prefix string) Option { return func(s *Store) { s.prefix = prefix } }

// Open connects to KurrentDB with a connection string such as "kurrentdb://127.0.0.1:2113?tls=false"
// and checks that the server answers.
func Open(ctx context.Context, connectionString string, opts ...Option) (*Store, error) {
	cfg, err := kurrentdb.ParseConnectionString(connectionString)
	if err != nil {
		return nil, fmt.Errorf("kurrent events: parse connection string: %w", err)
	}
	client, err := kurrentdb.NewClient(cfg)
	if err != nil {
		return nil, fmt.Errorf("kurrent events: client: %w", err)
	}
	s := &Store{client: client, quit: make(chan struct{})}
	for _, o := range opts {
		o(s)
	}
	if _, err := s.Head(ctx); err != nil {
		_ = client.Close()
		return nil, fmt.Errorf("kurrent events: connect: %w", err)
	}
	return s, nil
}

// Stats returns the appends and events written; KurrentDB batches on the server, so every append
// counts as one transaction.
func (s *Store) Stats() (transactions, events int64) { return s.appends.Load(), s.events.Load() }

func (s *Store) closed() bool {
	select {
	case <-s.quit:
		return true
	default:
		return false
	}
}

// ours reports whether a stream read from $all belongs to this store, and its name without prefix.
func (s *Store) ours(stream string) (string, bool) {
	if strings.HasPrefix(stream, "$") || !strings.HasPrefix(stream, s.prefix) {
		return "", false
	}
	return stream[len(s.prefix):], true
}

// Append implements events.Store. Its results are never Written: commit positions are log
// offsets, not consecutive, so callers read their events back.
func (s *Store) Append(ctx context.Context, stream string, expected int64, evs []events.EventData) (events.AppendResult, error) {
	if err := backend.Validate(stream, expected, evs); err != nil {
		return events.AppendResult{}, err
	}
	if s.closed() {
		return events.AppendResult{}, events.ErrClosed
	}
	proposed := make([]kurrentdb.EventData, len(evs))
	now := time.Now()
	for i, e := range evs {
		meta, err := backend.MarshalMetadata(e.Metadata, now)
		if err != nil {
			return events.AppendResult{}, fmt.Errorf("kurrent events: append to %s: %w", stream, err)
		}
		proposed[i] = kurrentdb.EventData{EventID: e.ID, EventType: e.Type, ContentType: contentJSON, Data: e.Data, Metadata: meta}
	}
	for attempt := 0; ; attempt++ {
		stored, err := s.readStream(ctx, stream, 0)
		if err != nil {
			return events.AppendResult{}, err
		}
		known := make(map[uuid.UUID]backend.Stored, len(stored))
		for _, e := range stored {
			known[e.ID] = backend.Stored{Stream: stream, Version: e.Version, Position: e.Position}
		}
		if res, done, err := backend.Retry(stream, evs, known); done {
			return res, err
		}
		cur := int64(len(stored))
		if expected != events.AnyVersion && expected != cur {
			return events.AppendResult{}, fmt.Errorf("append to %s at version %d (stream is at %d): %w",
				stream, expected, cur, events.ErrWrongExpectedVersion)
		}
		var state kurrentdb.StreamState = kurrentdb.NoStream{}
		if cur > 0 {
			state = kurrentdb.Revision(uint64(cur - 1))
		}
		wr, err := s.client.AppendToStream(ctx, s.prefix+stream, kurrentdb.AppendToStreamOptions{StreamState: state}, proposed...)
		var kerr *kurrentdb.Error
		if errors.As(err, &kerr) && kerr.Code() == kurrentdb.ErrorCodeWrongExpectedVersion {
			// Another writer moved the stream since we read it: decide again on a fresh read
			// (which also finds a concurrent retry of these very events).
			if attempt+1 >= maxAttempts {
				return events.AppendResult{}, fmt.Errorf("kurrent events: append to %s: stream kept moving: %w", stream, events.ErrWrongExpectedVersion)
			}
			continue
		}
		if err != nil {
			return events.AppendResult{}, s.err(ctx, fmt.Errorf("kurrent events: append to %s: %w", stream, err))
		}
		s.appends.Add(1)
		s.events.Add(int64(len(evs)))
		version := int64(wr.NextExpectedVersion) + 1
		last, err := s.readStream(ctx, stream, version-1)
		if err != nil {
			return events.AppendResult{}, err
		}
		if len(last) == 0 || last[0].ID != evs[len(evs)-1].ID {
			return events.AppendResult{}, fmt.Errorf("kurrent events: append to %s: revision %d does not hold the event just appended", stream, version-1)
		}
		return events.AppendResult{Version: version, Position: last[0].Position}, nil
	}
}

// ReadStream implements events.Store.
func (s *Store) ReadStream(ctx context.Context, stream string, afterVersion int64) ([]events.RecordedEvent, error) {
	if afterVersion < 0 {
		afterVersion = 0
	}
	return s.readStream(ctx, stream, afterVersion)
}

// ReadStreamAfter implements events.Store. A KurrentDB stream is addressed by revision, not by
// $all position, so this reads the stream from its start and skips up to afterPosition.
func (s *Store) ReadStreamAfter(ctx context.Context, stream string, afterPosition int64, limit int) ([]events.RecordedEvent, error) {
	if limit <= 0 {
		return nil, fmt.Errorf("kurrent events: read %s: limit %d must be positive", stream, limit)
	}
	return s.readStreamPage(ctx, stream, 0, afterPosition, limit)
}

func (s *Store) readStream(ctx context.Context, stream string, afterVersion int64) ([]events.RecordedEvent, error) {
	return s.readStreamPage(ctx, stream, afterVersion, 0, math.MaxInt)
}

// readStreamPage reads stream forwards after afterVersion and returns at most limit of its
// events with a position after afterPosition.
func (s *Store) readStreamPage(ctx context.Context, stream string, afterVersion, afterPosition int64, limit int) ([]events.RecordedEvent, error) {
	if s.closed() {
		return nil, events.ErrClosed
	}
	rs, err := s.client.ReadStream(ctx, s.prefix+stream, kurrentdb.ReadStreamOptions{
		Direction: kurrentdb.Forwards,
		From:      kurrentdb.Revision(uint64(afterVersion)), // revision r is version r+1
	}, math.MaxInt64)
	if err != nil {
		return nil, s.err(ctx, fmt.Errorf("kurrent events: read %s: %w", stream, err))
	}
	defer rs.Close()
	var out []events.RecordedEvent
	for len(out) < limit {
		re, err := rs.Recv()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		var kerr *kurrentdb.Error
		if errors.As(err, &kerr) && kerr.Code() == kurrentdb.ErrorCodeResourceNotFound {
			return nil, nil
		}
		if err != nil {
			return nil, s.err(ctx, fmt.Errorf("kurrent events: read %s: %w", stream, err))
		}
		e, err := s.convert(re.OriginalEvent())
		if err != nil {
			return nil, err
		}
		if e.Position == 0 || uint64(e.Position) == math.MaxUint64 || e.Position < 0 {
			return nil, fmt.Errorf("kurrent events: read %s: the server reports no $all position on stream reads (needs EventStoreDB 22.6 or later)", stream)
		}
		if e.Position <= afterPosition {
			continue
		}
		e.Stream = stream
		out = append(out, e)
	}
	return out, nil
}

// convert maps a KurrentDB event to a recorded event; the caller sets Stream.
func (s *Store) convert(r *kurrentdb.RecordedEvent) (events.RecordedEvent, error) {
	m, err := backend.UnmarshalMetadata(r.UserMetadata)
	if err != nil {
		return events.RecordedEvent{}, fmt.Errorf("kurrent events: %s@%d: %w", r.StreamID, r.EventNumber, err)
	}
	return events.RecordedEvent{
		ID:       r.EventID,
		Version:  int64(r.EventNumber) + 1,
		Position: int64(r.Position.Commit),
		Type:     r.EventType,
		Data:     r.Data,
		Metadata: m,
	}, nil
}

func from(after int64) kurrentdb.AllPosition {
	if after <= 0 {
		return kurrentdb.Start{}
	}
	return kurrentdb.Position{Commit: uint64(after), Prepare: uint64(after)}
}

// ReadAll implements events.Store. It reads $all from afterPosition and skips other streams until
// it has limit events of this store or reaches the end.
func (s *Store) ReadAll(ctx context.Context, afterPosition int64, limit int) ([]events.RecordedEvent, error) {
	if limit <= 0 {
		return nil, fmt.Errorf("kurrent events: read all: limit %d must be positive", limit)
	}
	if s.closed() {
		return nil, events.ErrClosed
	}
	var out []events.RecordedEvent
	cursor := afterPosition
	for len(out) < limit {
		rs, err := s.client.ReadAll(ctx, kurrentdb.ReadAllOptions{Direction: kurrentdb.Forwards, From: from(cursor)}, readAllBatch)
		if err != nil {
			return nil, s.err(ctx, fmt.Errorf("kurrent events: read all after %d: %w", cursor, err))
		}
		n, err := s.collect(rs, &cursor, afterPosition, limit, &out)
		rs.Close()
		if err != nil {
			return nil, s.err(ctx, fmt.Errorf("kurrent events: read all after %d: %w", afterPosition, err))
		}
		if n < readAllBatch {
			break // the end of $all
		}
	}
	return out, nil
}

// collect appends one ReadAll page's events of this store after `after` to out, moving cursor to
// the last position read, and returns how many records the page had.
func (s *Store) collect(rs *kurrentdb.ReadStream, cursor *int64, after int64, limit int, out *[]events.RecordedEvent) (int, error) {
	n := 0
	for {
		re, err := rs.Recv()
		if errors.Is(err, io.EOF) {
			return n, nil
		}
		if err != nil {
			return n, err
		}
		n++
		ev := re.OriginalEvent()
		pos := int64(ev.Position.Commit)
		if *cursor > 0 && pos <= *cursor {
			continue // From is inclusive
		}
		*cursor = pos
		name, ok := s.ours(ev.StreamID)
		if !ok || pos <= after || len(*out) >= limit {
			continue
		}
		e, err := s.convert(ev)
		if err != nil {
			return n, err
		}
		e.Stream = name
		*out = append(*out, e)
	}
}

// Head implements events.Store: the position of this store's last event, read backwards.
func (s *Store) Head(ctx context.Context) (int64, error) {
	if s.closed() {
		return 0, events.ErrClosed
	}
	var at kurrentdb.AllPosition = kurrentdb.End{}
	for {
		rs, err := s.client.ReadAll(ctx, kurrentdb.ReadAllOptions{Direction: kurrentdb.Backwards, From: at}, readAllBatch)
		if err != nil {
			return 0, s.err(ctx, fmt.Errorf("kurrent events: head: %w", err))
		}
		n := 0
		var last kurrentdb.Position
		for {
			re, err := rs.Recv()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				rs.Close()
				return 0, s.err(ctx, fmt.Errorf("kurrent events: head: %w", err))
			}
			n++
			ev := re.OriginalEvent()
			if _, ok := s.ours(ev.StreamID); ok {
				rs.Close()
				return int64(ev.Position.Commit), nil
			}
			last = ev.Position
		}
		rs.Close()
		if n < readAllBatch {
			return 0, nil
		}
		at = last // inclusive; re-reading one foreign event is harmless
	}
}

// Subscribe implements events.Store with a KurrentDB catch-up subscription to $all, filtered on
// the server to this store's streams, delivered in pages of the events already received. A dropped
// subscription is resumed from the last delivered position.
func (s *Store) Subscribe(ctx context.Context, afterPosition int64, handle func(context.Context, []events.RecordedEvent) error) error {
	after := afterPosition
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		if s.closed() {
			return events.ErrClosed
		}
		err := s.subscribeOnce(ctx, &after, handle)
		var dropped droppedError
		if !errors.As(err, &dropped) {
			return err
		}
		slog.Warn("kurrent events: subscription dropped, resuming", "after", after, "err", dropped.err)
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-s.quit:
			return events.ErrClosed
		case <-time.After(resubscribe):
		}
	}
}

type droppedError struct{ err error }

func (d droppedError) Error() string { return "subscription dropped: " + d.err.Error() }

func (s *Store) subscribeOnce(ctx context.Context, after *int64, handle func(context.Context, []events.RecordedEvent) error) error {
	filter := &kurrentdb.SubscriptionFilter{Type: kurrentdb.StreamFilterType, Regex: "^[^$]"}
	if s.prefix != "" {
		filter = &kurrentdb.SubscriptionFilter{Type: kurrentdb.StreamFilterType, Prefixes: []string{s.prefix}}
	}
	sctx, cancel := context.WithCancel(ctx)
	defer cancel()
	sub, err := s.client.SubscribeToAll(sctx, kurrentdb.SubscribeToAllOptions{From: from(*after), Filter: filter})
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return droppedError{err}
	}
	defer func() { _ = sub.Close() }()

	// Recv blocks; a goroutine feeds a channel so that pages can be cut from what has arrived.
	type item struct {
		ev  *events.RecordedEvent
		err error
	}
	items := make(chan item, pageSize)
	go func() {
		defer close(items)
		for {
			se := sub.Recv()
			var it item
			switch {
			case se.SubscriptionDropped != nil:
				it.err = droppedError{se.SubscriptionDropped.Error}
			case se.EventAppeared != nil:
				ev := se.EventAppeared.OriginalEvent()
				name, ok := s.ours(ev.StreamID)
				if !ok {
					continue
				}
				e, err := s.convert(ev)
				if err != nil {
					it.err = err
				} else {
					e.Stream = name
					it.ev = &e
				}
			default:
				continue // checkpoints, caught-up and fell-behind notices
			}
			select {
			case items <- it:
			case <-sctx.Done():
				return
			}
			if it.err != nil {
				return
			}
		}
	}()

	for {
		var first item
		var ok bool
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-s.quit:
			return events.ErrClosed
		case first, ok = <-items:
		}
		if !ok {
			return droppedError{errors.New("subscription ended")}
		}
		page := make([]events.RecordedEvent, 0, pageSize)
		pending := []item{first}
	drain:
		for len(pending) < pageSize {
			select {
			case it, ok := <-items:
				if !ok {
					break drain
				}
				pending = append(pending, it)
			default:
				break drain
			}
		}
		var failed error
		for _, it := range pending {
			if it.err != nil {
				failed = it.err
				break
			}
			if it.ev != nil && it.ev.Position > *after {
				page = append(page, *it.ev)
			}
		}
		if len(page) > 0 {
			if err := handle(ctx, page); err != nil {
				return err
			}
			*after = page[len(page)-1].Position
		}
		if failed != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			return failed
		}
	}
}

func (s *Store) err(ctx context.Context, err error) error {
	if s.closed() {
		return events.ErrClosed
	}
	if ctx.Err() != nil {
		return fmt.Errorf("%w: %w", ctx.Err(), err)
	}
	return err
}

// Close closes the client. Safe to call twice.
func (s *Store) Close() error {
	var err error
	s.once.Do(func() {
		close(s.quit)
		err = s.client.Close()
	})
	return err
}
