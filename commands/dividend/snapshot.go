package dividend

import (
	"encoding/json"

	"github.com/lotbook/lotbook/commands"
	"github.com/lotbook/lotbook/events"
)

// entitlementSnapshot mirrors entitlement for aggregate snapshots (commands.SnapshotPart).
type entitlementSnapshot struct {
	events.DividendEntitled
	CashPaid   bool `json:"cashPaid"`
	SharesPaid bool `json:"sharesPaid"`
}

func (d *dividends) SnapshotVersion() int { return 1 }

func (d *dividends) MarshalSnapshot() ([]byte, error) {
	return json.Marshal(commands.MirrorMap(d.byNo, func(e *entitlement) entitlementSnapshot {
		return entitlementSnapshot{e.DividendEntitled, e.cashPaid, e.sharesPaid}
	}))
}

func (d *dividends) UnmarshalSnapshot(b []byte) error {
	var s map[string]entitlementSnapshot
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	d.byNo = commands.MirrorMap(s, func(e entitlementSnapshot) *entitlement {
		return &entitlement{DividendEntitled: e.DividendEntitled, cashPaid: e.CashPaid, sharesPaid: e.SharesPaid}
	})
	return nil
}
