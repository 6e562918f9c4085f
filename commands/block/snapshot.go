package block

import (
	"encoding/json"

	"github.com/lotbook/lotbook/commands"
	"github.com/lotbook/lotbook/events"
)

// blockAppsSnapshot mirrors blockApps for aggregate snapshots (commands.SnapshotPart).
type blockAppsSnapshot struct {
	Apps     map[string]blockAppSnapshot `json:"apps"`
	Failures map[string]int              `json:"failures"`
}

type blockAppSnapshot struct {
	events.BlockApplied
	Status string `json:"status"`
}

func (a *blockApps) SnapshotVersion() int { return 1 }

func (a *blockApps) MarshalSnapshot() ([]byte, error) {
	return json.Marshal(blockAppsSnapshot{Failures: a.failures,
		Apps: commands.MirrorMap(a.apps, func(p *blockApp) blockAppSnapshot { return blockAppSnapshot{p.BlockApplied, p.status} })})
}

func (a *blockApps) UnmarshalSnapshot(b []byte) error {
	var s blockAppsSnapshot
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	*a = blockApps{failures: commands.CloneMap(s.Failures),
		apps: commands.MirrorMap(s.Apps, func(p blockAppSnapshot) *blockApp { return &blockApp{BlockApplied: p.BlockApplied, status: p.Status} })}
	return nil
}
