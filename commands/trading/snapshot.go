package trading

import (
	"encoding/json"
	"time"

	"github.com/shopspring/decimal"

	"github.com/lotbook/lotbook/commands"
	"github.com/lotbook/lotbook/events"
)

// tradingSnapshot mirrors tradingState for aggregate snapshots (commands.SnapshotPart); the
// member's frozen account follows from the ledger, which a restore starts from.
type tradingSnapshot struct {
	Orders    map[string]orderSnapshot    `json:"orders"`
	Positions map[string]positionSnapshot `json:"positions"`
	Unsettled []unsettledSnapshot         `json:"unsettled"`
	Call      *events.MarginCallIssued    `json:"call"`
	TopUps    map[string]bool             `json:"topUps"`
}

type orderSnapshot struct {
	events.OrderPlaced
	Working    bool            `json:"working"`
	Stopped    string          `json:"stopped"`
	Filled     int64           `json:"filled"`
	Amount     decimal.Decimal `json:"amount"`
	Commission decimal.Decimal `json:"commission"`
	Tax        decimal.Decimal `json:"tax"`
	Fills      int             `json:"fills"`
	Reserved   decimal.Decimal `json:"reserved"`
}

type positionSnapshot struct {
	Symbol      string          `json:"symbol"`
	Direction   string          `json:"direction"`
	Kind        string          `json:"kind"`
	Leverage    decimal.Decimal `json:"leverage"`
	DayTrade    bool            `json:"dayTrade"`
	OpenDay     string          `json:"openDay"`
	OpenWorking bool            `json:"openWorking"`
	Shares      int64           `json:"shares"`
	Closing     int64           `json:"closing"`
	CloseOrder  string          `json:"closeOrder"`
	EverHeld    bool            `json:"everHeld"`
	Basis       decimal.Decimal `json:"basis"`
	Loan        decimal.Decimal `json:"loan"`
	Margin      decimal.Decimal `json:"margin"`
	Realised    decimal.Decimal `json:"realised"`
	OpenedAt    time.Time       `json:"openedAt"`
	OnLedger    bool            `json:"onLedger"`
	OffBook     bool            `json:"offBook"`
}

type unsettledSnapshot struct {
	Date   string          `json:"date"`
	Amount decimal.Decimal `json:"amount"`
}

func (t *tradingState) SnapshotVersion() int { return 1 }

func (t *tradingState) MarshalSnapshot() ([]byte, error) {
	s := tradingSnapshot{Call: t.call, TopUps: t.topUps,
		Orders: commands.MirrorMap(t.orders, func(o *tradeOrder) orderSnapshot {
			return orderSnapshot{OrderPlaced: o.OrderPlaced, Working: o.working, Stopped: o.stopped, Filled: o.filled, Amount: o.amount,
				Commission: o.commission, Tax: o.tax, Fills: o.fills, Reserved: o.reserved}
		}),
		Positions: commands.MirrorMap(t.positions, func(p *tradePosition) positionSnapshot {
			return positionSnapshot{Symbol: p.symbol, Direction: p.direction, Kind: p.kind, Leverage: p.leverage, DayTrade: p.dayTrade,
				OpenDay: p.openDay, OpenWorking: p.openWorking, Shares: p.shares, Closing: p.closing, CloseOrder: p.closeOrder,
				EverHeld: p.everHeld, Basis: p.basis, Loan: p.loan, Margin: p.margin, Realised: p.realised, OpenedAt: p.openedAt,
				OnLedger: p.onLedger, OffBook: p.offBook}
		}),
	}
	for _, u := range t.unsettled {
		s.Unsettled = append(s.Unsettled, unsettledSnapshot{Date: u.date, Amount: u.amount})
	}
	return json.Marshal(s)
}

func (t *tradingState) UnmarshalSnapshot(b []byte) error {
	var s tradingSnapshot
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	t.call, t.topUps, t.unsettled = s.Call, commands.CloneMap(s.TopUps), nil
	t.orders = commands.MirrorMap(s.Orders, func(o orderSnapshot) *tradeOrder {
		return &tradeOrder{OrderPlaced: o.OrderPlaced, working: o.Working, stopped: o.Stopped, filled: o.Filled, amount: o.Amount,
			commission: o.Commission, tax: o.Tax, fills: o.Fills, reserved: o.Reserved}
	})
	t.positions = make(map[string]*tradePosition, len(s.Positions))
	for id, p := range s.Positions {
		t.positions[id] = &tradePosition{id: id, symbol: p.Symbol, direction: p.Direction, kind: p.Kind, leverage: p.Leverage,
			dayTrade: p.DayTrade, openDay: p.OpenDay, openWorking: p.OpenWorking, shares: p.Shares, closing: p.Closing,
			closeOrder: p.CloseOrder, everHeld: p.EverHeld, basis: p.Basis, loan: p.Loan, margin: p.Margin, realised: p.Realised,
			openedAt: p.OpenedAt, onLedger: p.OnLedger, offBook: p.OffBook}
	}
	for _, u := range s.Unsettled {
		t.unsettled = append(t.unsettled, unsettledCash{date: u.Date, amount: u.Amount})
	}
	return nil
}
