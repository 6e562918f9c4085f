package copytrade

import (
	"encoding/json"
	"time"

	"github.com/shopspring/decimal"

	"github.com/lotbook/lotbook/commands"
	"github.com/lotbook/lotbook/events"
)

// partSnapshot mirrors part for aggregate snapshots (commands.SnapshotPart).
type partSnapshot struct {
	Profile   *Profile                    `json:"profile"`
	Follows   map[string]followSnapshot   `json:"follows"`
	Orders    map[string]string           `json:"orders"`
	Working   map[string]bool             `json:"working"`
	Cash      commands.OrderCash          `json:"cash"`
	Positions map[string]positionSnapshot `json:"positions"`
	Received  map[string]bool             `json:"received"`
	Sold      map[string]bool             `json:"sold"`
}

type followSnapshot struct {
	MentorID    string                           `json:"mentorId"`
	MentorName  string                           `json:"mentorName"`
	Amount      decimal.Decimal                  `json:"amount"`
	Spent       decimal.Decimal                  `json:"spent"`
	Returned    decimal.Decimal                  `json:"returned"`
	ProfitShare decimal.Decimal                  `json:"profitShare"`
	Ends        time.Time                        `json:"ends"`
	State       string                           `json:"state"`
	Profit      decimal.Decimal                  `json:"profit"`
	Spends      map[string]events.CopyFundsSpent `json:"spends"`
	Returns     map[string]bool                  `json:"returns"`
}

type positionSnapshot struct {
	Follow string          `json:"follow"`
	Symbol string          `json:"symbol"`
	Short  bool            `json:"short"`
	Shares int64           `json:"shares"`
	Held   decimal.Decimal `json:"held"`
}

func (p *part) SnapshotVersion() int { return 2 }

func (p *part) MarshalSnapshot() ([]byte, error) {
	return json.Marshal(partSnapshot{Profile: p.profile, Orders: p.orders, Working: p.working, Cash: p.cash, Received: p.received, Sold: p.sold,
		Follows: commands.MirrorMap(p.follows, func(f *follow) followSnapshot {
			return followSnapshot{MentorID: f.mentorID, MentorName: f.mentorName, Amount: f.amount, Spent: f.spent, Returned: f.returned,
				ProfitShare: f.profitShare, Ends: f.ends, State: f.state, Profit: f.profit, Spends: f.spends, Returns: f.returns}
		}),
		Positions: commands.MirrorMap(p.positions, func(o *position) positionSnapshot {
			return positionSnapshot{Follow: o.follow, Symbol: o.symbol, Short: o.short, Shares: o.shares, Held: o.held}
		}),
	})
}

func (p *part) UnmarshalSnapshot(b []byte) error {
	s := partSnapshot{Cash: commands.NewOrderCash()}
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	follows := make(map[string]*follow, len(s.Follows))
	for id, f := range s.Follows {
		follows[id] = &follow{id: id, mentorID: f.MentorID, mentorName: f.MentorName, amount: f.Amount, spent: f.Spent, returned: f.Returned,
			profitShare: f.ProfitShare, ends: f.Ends, state: f.State, profit: f.Profit,
			spends: commands.CloneMap(f.Spends), returns: commands.CloneMap(f.Returns)}
	}
	*p = part{profile: s.Profile, follows: follows, orders: commands.CloneMap(s.Orders), working: commands.CloneMap(s.Working),
		cash: s.Cash, received: commands.CloneMap(s.Received), sold: commands.CloneMap(s.Sold),
		positions: commands.MirrorMap(s.Positions, func(o positionSnapshot) *position {
			return &position{follow: o.Follow, symbol: o.Symbol, short: o.Short, shares: o.Shares, held: o.Held}
		})}
	return nil
}
