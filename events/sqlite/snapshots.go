package sqlite

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/lotbook/lotbook/events"
	"github.com/lotbook/lotbook/events/internal/backend"
)

// LoadSnapshot implements events.SnapshotStore.
func (s *Store) LoadSnapshot(ctx context.Context, stream string) (events.Snapshot, bool, error) {
	snap, ok, err := backend.ScanSnapshot(stream, s.reads.snapshot.QueryRowContext(ctx, stream), sql.ErrNoRows)
	if err != nil {
		return events.Snapshot{}, false, s.w.ReadErr(fmt.Errorf("sqlite events: load snapshot of %s: %w", stream, err))
	}
	return snap, ok, nil
}

// SaveSnapshot implements events.SnapshotStore.
func (s *Store) SaveSnapshot(ctx context.Context, snap events.Snapshot) error {
	_, err := s.db.ExecContext(ctx, backend.SaveSnapshotSQL, snap.Stream, snap.Version, snap.Position, snap.Schema, backend.NonNil(snap.State))
	if err != nil {
		return s.w.ReadErr(fmt.Errorf("sqlite events: save snapshot of %s: %w", snap.Stream, err))
	}
	return nil
}
