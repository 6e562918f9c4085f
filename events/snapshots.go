package events

import "context"

// Snapshot is a stored encoding of one stream's aggregate as of Version (the event at Position):
// a cache of the fold of the stream's first Version events, so that a load reads only the events
// after it. Schema names the encoding; a reader that does not know it ignores the snapshot.
type Snapshot struct {
	Stream   string
	Version  int64
	Position int64
	Schema   string
	State    []byte
}

// SnapshotStore is kept by the store backends that can keep aggregate snapshots beside the log
// (SQLite and PostgreSQL). It is not part of Store: snapshots only save work, so with a backend
// that lacks it every load replays its stream, and deleting every snapshot changes nothing but
// speed. Nothing that checks the log (lotbook verify) may read them.
//
//   - LoadSnapshot returns the stream's snapshot; ok is false when none is stored.
//   - SaveSnapshot stores it unless the stored one of the same schema is further (two writers
//     never move it back); one of another schema is replaced. It keeps nothing of s.State once
//     it returns: the caller reuses its bytes.
type SnapshotStore interface {
	LoadSnapshot(ctx context.Context, stream string) (s Snapshot, ok bool, err error)
	SaveSnapshot(ctx context.Context, s Snapshot) error
}
