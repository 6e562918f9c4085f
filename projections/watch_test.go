package projections

import (
	"testing"

	"github.com/lotbook/lotbook/projections/projtest/eventlog"
)

// TestWatchFollowsAProjectorInstance: a runner that projects nothing (Watch, an API instance)
// on the database another one writes (Run and Publish, the projector instance) reaches the
// log's head, though most projectors skip the last pages and keep those checkpoints in memory
// (lazyAge): the published progress covers them. Its snapshot reads then reflect the writes.
func TestWatchFollowsAProjectorInstance(t *testing.T) {
	e := postgresEnv(t)
	memberID := e.Register("0912345678")
	projector := e.run(e.open(), nil)
	eventlog.Start(t, projector.Publish)
	db := e.open()
	watcher := NewRunner(db, e.Store, nil, nil)
	eventlog.Start(t, watcher.Watch)

	e.RequestDeposit(memberID, "D1", "1000")
	pos := e.ApproveDeposit(memberID, "D1", "1000")
	eventlog.WaitFor(t, watcher, pos)
	mustBalance(t, db, memberID, "TWD", "1000", "0")
	at, err := watcher.Snapshot(t.Context(), func(*Reader) error { return nil })
	if err != nil || at < pos {
		t.Fatalf("snapshot at %d (%v), want at least %d", at, err, pos)
	}
}
