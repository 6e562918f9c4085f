package chipgrab

import (
	"encoding/json"

	"github.com/lotbook/lotbook/commands"
	"github.com/lotbook/lotbook/events"
)

// accountClaimSnapshot mirrors accountClaim for aggregate snapshots (commands.SnapshotPart).
type accountClaimSnapshot struct {
	events.ChipGrabFrozen
	Status string `json:"status"`
	Reason string `json:"reason"`
}

func (c *claims) SnapshotVersion() int { return 1 }

func (c *claims) MarshalSnapshot() ([]byte, error) {
	return json.Marshal(commands.MirrorMap(c.byNo, func(a *accountClaim) accountClaimSnapshot {
		return accountClaimSnapshot{a.ChipGrabFrozen, a.status, a.reason}
	}))
}

func (c *claims) UnmarshalSnapshot(b []byte) error {
	var s map[string]accountClaimSnapshot
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	c.byNo = commands.MirrorMap(s, func(a accountClaimSnapshot) *accountClaim {
		return &accountClaim{ChipGrabFrozen: a.ChipGrabFrozen, status: a.Status, reason: a.Reason}
	})
	return nil
}
