package alerts

import (
	"encoding/json"

	"github.com/shopspring/decimal"
)

// bookSnapshot mirrors book for aggregate snapshots (commands.SnapshotPart).
type bookSnapshot struct {
	Alerts map[string]alertSnapshot `json:"alerts"`
	Active int                      `json:"active"`
	Read   int64                    `json:"read"`
}

type alertSnapshot struct {
	Symbol string          `json:"symbol"`
	Kind   string          `json:"kind"`
	Status string          `json:"status"`
	Value  decimal.Decimal `json:"value"`
}

func (b *book) SnapshotVersion() int { return 1 }

func (b *book) MarshalSnapshot() ([]byte, error) {
	s := bookSnapshot{Alerts: make(map[string]alertSnapshot, len(b.alerts)), Active: b.active, Read: b.read}
	for id, a := range b.alerts {
		s.Alerts[id] = alertSnapshot{Symbol: a.symbol, Kind: a.kind, Status: a.status, Value: a.value}
	}
	return json.Marshal(s)
}

func (b *book) UnmarshalSnapshot(data []byte) error {
	var s bookSnapshot
	if err := json.Unmarshal(data, &s); err != nil {
		return err
	}
	*b = book{alerts: make(map[string]*alert, len(s.Alerts)), active: s.Active, read: s.Read}
	for id, a := range s.Alerts {
		b.alerts[id] = &alert{symbol: a.Symbol, kind: a.Kind, status: a.Status, value: a.Value}
	}
	return nil
}
