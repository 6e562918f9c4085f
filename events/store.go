// Package events holds lotbook's event catalogue and the event store contract. It imports no other
// package of lotbook: every other layer depends on it, never the other way round.
package events

import (
	"context"
	"errors"
	"strconv"
	"time"

	"github.com/google/uuid"
)

// Expected versions for Append. A stream's version is the number of events in it, so the first
// event of a stream has version 1 and an empty stream has version 0 (NoStream).
const (
	NoStream   int64 = 0  // the stream must not exist yet
	AnyVersion int64 = -1 // no concurrency check
)

var (
	// ErrWrongExpectedVersion is returned when the stream's version is not the expected one.
	ErrWrongExpectedVersion = errors.New("events: wrong expected version")
	// ErrClosed is returned by a store after Close.
	ErrClosed = errors.New("events: store closed")
)

// Metadata travels with every event.
type Metadata struct {
	CommandID     string `json:"commandId"`               // the caller's idempotency key
	Actor         string `json:"actor"`                   // "member:<account>", "ops:<name>", "auditor:<name>", "system"
	CorrelationID string `json:"correlationId,omitempty"` // the flow this event belongs to
	CausationID   string `json:"causationId,omitempty"`   // the command or event that caused it
	// Request fingerprints the command that wrote the event (which command, and a keyed hash of
	// the caller's request): a command id belongs to one command, and a command finding events
	// of its id with another fingerprint knows they are not its own. Empty in events written
	// before fingerprints were kept.
	Request    string    `json:"request,omitempty"`
	ServerTime time.Time `json:"serverTime"`
}

// EventData is an event about to be appended.
type EventData struct {
	ID       uuid.UUID
	Type     string // name with version suffix, e.g. "DepositApproved.v1"
	Data     []byte // JSON payload
	Metadata Metadata
}

// RecordedEvent is an event as stored.
type RecordedEvent struct {
	ID       uuid.UUID
	Stream   string
	Version  int64 // 1-based position within the stream
	Position int64 // 1-based global position, one total order over all streams
	Type     string
	Data     []byte
	Metadata Metadata
}

// AppendResult is the stream version and global position of the last event appended.
//
// Written says that this very call stored the events, as given, at versions and positions
// consecutive up to Version and Position: the i-th of n events at Version-n+1+i and
// Position-n+1+i, with the metadata's server time as given (in UTC; a zero one became the
// store's clock, which the caller does not learn). A caller that appended them
// therefore knows what ReadStream would return for them without reading. It is false for an
// idempotent re-append (the stored result, nothing written), and a backend that cannot promise
// it (sparse positions) always leaves it false; callers then read the events back.
type AppendResult struct {
	Version  int64
	Position int64
	Written  bool
}

// Store is the event store contract every backend passes (see events/storetest).
//
//   - Append writes events atomically to one stream if its version equals expectedVersion
//     (or AnyVersion). Re-appending events whose ids are already stored in that stream is
//     idempotent: it returns the stored result and writes nothing, whatever expectedVersion is.
//     A backend with dense positions reports a write of its own (AppendResult.Written) with the
//     events' consecutive versions and positions; a re-append is never Written.
//   - ReadStream returns the stream's events with Version > afterVersion, in order.
//   - ReadStreamAfter returns up to limit of the stream's events with Position > afterPosition,
//     in order: keyset paging of one stream by global position.
//   - ReadAll returns up to limit events with Position > afterPosition, in global order. It
//     never skips an event whose transaction commits later than a returned one.
//   - Subscribe calls handle with pages of events with Position > afterPosition, in global order,
//     each exactly once: first the stored ones (catch-up), then live ones as they commit. It
//     returns when ctx ends (with ctx.Err()) or when handle returns an error (with that error).
//   - Head returns the highest committed global position (0 when empty).
type Store interface {
	Append(ctx context.Context, stream string, expectedVersion int64, events []EventData) (AppendResult, error)
	ReadStream(ctx context.Context, stream string, afterVersion int64) ([]RecordedEvent, error)
	ReadStreamAfter(ctx context.Context, stream string, afterPosition int64, limit int) ([]RecordedEvent, error)
	ReadAll(ctx context.Context, afterPosition int64, limit int) ([]RecordedEvent, error)
	Subscribe(ctx context.Context, afterPosition int64, handle func(ctx context.Context, page []RecordedEvent) error) error
	Head(ctx context.Context) (int64, error)
	Close() error
}

// idNamespace roots the deterministic event ids derived from idempotency keys.
var idNamespace = uuid.MustParse("6f1b8c2e-1d3a-5b7e-9c4f-2a8d0e6b3c51")

// EventID derives the id of the n-th event a command writes to a stream from the command's
// idempotency key, so that a retried command re-appends the same ids and never writes twice.
func EventID(commandID, stream string, n int) uuid.UUID {
	return uuid.NewSHA1(idNamespace, []byte(commandID+"\x00"+stream+"\x00"+strconv.Itoa(n)))
}

// Checkpoint is how far a write-side consumer (a process manager) has handled the log, with the
// state it folded from it up to there: saved together, so that a restart resumes from Position
// with State instead of reading the log again from its start.
type Checkpoint struct {
	Position int64
	State    []byte
}

// Checkpoints is kept by the store backends that can keep it beside the log (SQLite and
// PostgreSQL): commands must not read the read models' tables, so process managers keep their
// checkpoints here. It is not part of Store; with a backend that lacks it a consumer starts from
// position 0 every time.
//
//   - LoadCheckpoint returns the named checkpoint, the zero Checkpoint when none is saved.
//   - SaveCheckpoint saves it unless the saved one is further (two instances never move it back).
type Checkpoints interface {
	LoadCheckpoint(ctx context.Context, name string) (Checkpoint, error)
	SaveCheckpoint(ctx context.Context, name string, cp Checkpoint) error
}
