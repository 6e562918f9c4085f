package backend

import (
	"database/sql"
	"errors"

	"github.com/lotbook/lotbook/events"
)

// ScanCheckpoint reads a process_checkpoints row (position, state). No row is the zero checkpoint:
// the process has handled nothing yet. pgx's ErrNoRows wraps sql.ErrNoRows, so both drivers' rows
// do.
func ScanCheckpoint(row interface{ Scan(dest ...any) error }) (events.Checkpoint, error) {
	var cp events.Checkpoint
	err := row.Scan(&cp.Position, &cp.State)
	if errors.Is(err, sql.ErrNoRows) {
		return events.Checkpoint{}, nil
	}
	if err != nil {
		return events.Checkpoint{}, err
	}
	return cp, nil
}

// NonNil is b, or an empty slice for nil: the data, metadata and state columns are NOT NULL.
func NonNil(b []byte) []byte {
	if b == nil {
		return []byte{}
	}
	return b
}
