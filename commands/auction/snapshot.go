package auction

import (
	"encoding/json"

	"github.com/shopspring/decimal"

	"github.com/lotbook/lotbook/commands"
)

// bidsSnapshot mirrors bids for aggregate snapshots (commands.SnapshotPart).
type bidsSnapshot struct {
	ByNo map[string]bidSnapshot `json:"byNo"`
	Lots map[string]int64       `json:"lots"`
}

type bidSnapshot struct {
	AuctionID string          `json:"auctionId"`
	Price     decimal.Decimal `json:"price"`
	Lots      int64           `json:"lots"`
	Shares    int64           `json:"shares"`
	Deposit   decimal.Decimal `json:"deposit"`
	Settled   bool            `json:"settled"`
	Paid      bool            `json:"paid"`
	Cost      decimal.Decimal `json:"cost"`
	Granted   int64           `json:"granted"`
	Delivered bool            `json:"delivered"`
	Forfeited bool            `json:"forfeited"`
}

func (s *bids) SnapshotVersion() int { return 1 }

func (s *bids) MarshalSnapshot() ([]byte, error) {
	return json.Marshal(bidsSnapshot{Lots: s.lots, ByNo: commands.MirrorMap(s.byNo, func(b *bid) bidSnapshot {
		return bidSnapshot{AuctionID: b.auctionID, Price: b.price, Lots: b.lots, Shares: b.shares, Deposit: b.deposit, Settled: b.settled,
			Paid: b.paid, Cost: b.cost, Granted: b.granted, Delivered: b.delivered, Forfeited: b.forfeited}
	})})
}

func (s *bids) UnmarshalSnapshot(data []byte) error {
	var m bidsSnapshot
	if err := json.Unmarshal(data, &m); err != nil {
		return err
	}
	*s = bids{lots: commands.CloneMap(m.Lots), byNo: commands.MirrorMap(m.ByNo, func(b bidSnapshot) *bid {
		return &bid{auctionID: b.AuctionID, price: b.Price, lots: b.Lots, shares: b.Shares, deposit: b.Deposit, settled: b.Settled,
			paid: b.Paid, cost: b.Cost, granted: b.Granted, delivered: b.Delivered, forfeited: b.Forfeited}
	})}
	return nil
}
