package quant

import (
	"encoding/json"

	"github.com/shopspring/decimal"

	"github.com/lotbook/lotbook/commands"
)

// partSnapshot mirrors part for aggregate snapshots (commands.SnapshotPart).
type partSnapshot struct {
	Subs     map[string]subSnapshot `json:"subs"`
	Released map[string]bool        `json:"released"`
	Cash     commands.OrderCash     `json:"cash"`
}

type subSnapshot struct {
	Product string          `json:"product"`
	Amount  decimal.Decimal `json:"amount"`
	Held    decimal.Decimal `json:"held"`
	State   string          `json:"state"`
}

func (p *part) SnapshotVersion() int { return 1 }

func (p *part) MarshalSnapshot() ([]byte, error) {
	return json.Marshal(partSnapshot{Released: p.released, Cash: p.cash,
		Subs: commands.MirrorMap(p.subs, func(s *sub) subSnapshot {
			return subSnapshot{Product: s.product, Amount: s.amount, Held: s.held, State: s.state}
		})})
}

func (p *part) UnmarshalSnapshot(b []byte) error {
	s := partSnapshot{Cash: commands.NewOrderCash()}
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	*p = part{released: commands.CloneMap(s.Released), cash: s.Cash,
		subs: commands.MirrorMap(s.Subs, func(s subSnapshot) *sub {
			return &sub{product: s.Product, amount: s.Amount, held: s.Held, state: s.State}
		})}
	return nil
}
