package backend

import (
	"errors"

	"github.com/lotbook/lotbook/events"
)

// ScanCheckpoint reads a process_checkpoints row (position, state). No row (the driver's noRows)
// is the zero checkpoint: the process has handled nothing yet.
func ScanCheckpoint(row interface{ Scan(dest ...any) error }, noRows error) (events.Checkpoint, error) {
	var cp events.Checkpoint
	err := row.Scan(&cp.Position, &cp.State)
	if errors.Is(err, noRows) {
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
