package placement

import (
	"encoding/json"

	"github.com/shopspring/decimal"

	"github.com/lotbook/lotbook/commands"
)

// applicationsSnapshot mirrors applications for aggregate snapshots (commands.SnapshotPart).
type applicationsSnapshot struct {
	ByNo map[string]applicationSnapshot `json:"byNo"`
	Lots map[string]int64               `json:"lots"`
}

type applicationSnapshot struct {
	PlacementID string          `json:"placementId"`
	Shares      int64           `json:"shares"`
	Price       decimal.Decimal `json:"price"`
	Amount      decimal.Decimal `json:"amount"`
	Settled     bool            `json:"settled"`
	Allotted    int64           `json:"allotted"`
	Cost        decimal.Decimal `json:"cost"`
	PaidDay     string          `json:"paidDay"`
	Delivered   bool            `json:"delivered"`
}

func (s *applications) SnapshotVersion() int { return 1 }

func (s *applications) MarshalSnapshot() ([]byte, error) {
	return json.Marshal(applicationsSnapshot{Lots: s.lots, ByNo: commands.MirrorMap(s.byNo, func(a *application) applicationSnapshot {
		return applicationSnapshot{PlacementID: a.placementID, Shares: a.shares, Price: a.price, Amount: a.amount, Settled: a.settled,
			Allotted: a.allotted, Cost: a.cost, PaidDay: a.paidDay, Delivered: a.delivered}
	})})
}

func (s *applications) UnmarshalSnapshot(b []byte) error {
	var m applicationsSnapshot
	if err := json.Unmarshal(b, &m); err != nil {
		return err
	}
	*s = applications{lots: commands.CloneMap(m.Lots), byNo: commands.MirrorMap(m.ByNo, func(a applicationSnapshot) *application {
		return &application{placementID: a.PlacementID, shares: a.Shares, price: a.Price, amount: a.Amount, settled: a.Settled,
			allotted: a.Allotted, cost: a.Cost, paidDay: a.PaidDay, delivered: a.Delivered}
	})}
	return nil
}
