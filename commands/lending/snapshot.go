package lending

import (
	"encoding/json"

	"github.com/shopspring/decimal"

	"github.com/lotbook/lotbook/commands"
	"github.com/lotbook/lotbook/events"
)

// bookSnapshot mirrors book for aggregate snapshots (commands.SnapshotPart); the member's shares
// account follows from the ledger, which a restore starts from.
type bookSnapshot struct {
	Lendings  map[string]lendingSnapshot `json:"lendings"`
	Symbols   map[string]bool            `json:"symbols"`
	Abandoned map[string]bool            `json:"abandoned"`
}

type lendingSnapshot struct {
	events.StockLent
	Status         string          `json:"status"`
	Fees           decimal.Decimal `json:"fees"`
	AccruedThrough string          `json:"accruedThrough"`
}

func (b *book) SnapshotVersion() int { return 1 }

func (b *book) MarshalSnapshot() ([]byte, error) {
	return json.Marshal(bookSnapshot{Symbols: b.symbols, Abandoned: b.abandoned,
		Lendings: commands.MirrorMap(b.lendings, func(l *lending) lendingSnapshot {
			return lendingSnapshot{StockLent: l.StockLent, Status: l.status, Fees: l.fees, AccruedThrough: l.accruedThrough}
		})})
}

func (b *book) UnmarshalSnapshot(data []byte) error {
	var s bookSnapshot
	if err := json.Unmarshal(data, &s); err != nil {
		return err
	}
	b.symbols, b.abandoned = commands.CloneMap(s.Symbols), commands.CloneMap(s.Abandoned)
	b.lendings = commands.MirrorMap(s.Lendings, func(l lendingSnapshot) *lending {
		return &lending{StockLent: l.StockLent, status: l.Status, fees: l.Fees, accruedThrough: l.AccruedThrough}
	})
	return nil
}
