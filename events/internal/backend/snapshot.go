package backend

import (
	"errors"

	"github.com/lotbook/lotbook/events"
)

// The snapshot statements of the SQL backends ($n parameters, which SQLite numbers alike). A
// snapshot replaces the stored one when it is further or of another schema (an upgrade's).
const (
	LoadSnapshotSQL = `SELECT version, position, schema, state FROM snapshots WHERE stream = $1`
	SaveSnapshotSQL = `INSERT INTO snapshots (stream, version, position, schema, state) VALUES ($1, $2, $3, $4, $5)
		ON CONFLICT (stream) DO UPDATE SET version = excluded.version, position = excluded.position,
			schema = excluded.schema, state = excluded.state
		WHERE excluded.version > snapshots.version OR excluded.schema <> snapshots.schema`
)

// ScanSnapshot reads one row of LoadSnapshotSQL; ok is false when there is none (noRows).
func ScanSnapshot(stream string, row interface{ Scan(dest ...any) error }, noRows error) (events.Snapshot, bool, error) {
	s := events.Snapshot{Stream: stream}
	err := row.Scan(&s.Version, &s.Position, &s.Schema, &s.State)
	if errors.Is(err, noRows) {
		return events.Snapshot{}, false, nil
	}
	if err != nil {
		return events.Snapshot{}, false, err
	}
	return s, true, nil
}
