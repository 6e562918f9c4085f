package credit

import (
	"encoding/json"
	"time"

	"github.com/shopspring/decimal"

	"github.com/lotbook/lotbook/commands"
)

// partSnapshot mirrors part for aggregate snapshots (commands.SnapshotPart); the member's shares
// account follows from the ledger, which a restore starts from.
type partSnapshot struct {
	Score  int                     `json:"score"`
	Shares map[string]int64        `json:"shares"`
	Loans  map[string]loanSnapshot `json:"loans"`
	Repays map[string]bool         `json:"repays"`
	Seats  map[string]string       `json:"seats"`
}

type loanSnapshot struct {
	Amount         decimal.Decimal `json:"amount"`
	Rate           decimal.Decimal `json:"rate"`
	Status         string          `json:"status"`
	Principal      decimal.Decimal `json:"principal"`
	Interest       decimal.Decimal `json:"interest"`
	DisbursedDay   string          `json:"disbursedDay"`
	AccruedThrough string          `json:"accruedThrough"`
	At             time.Time       `json:"at"`
}

func (p *part) SnapshotVersion() int { return 1 }

func (p *part) MarshalSnapshot() ([]byte, error) {
	return json.Marshal(partSnapshot{Score: p.score, Shares: p.shares, Repays: p.repays, Seats: p.seats,
		Loans: commands.MirrorMap(p.loans, func(l *loan) loanSnapshot {
			return loanSnapshot{Amount: l.amount, Rate: l.rate, Status: l.status, Principal: l.principal, Interest: l.interest,
				DisbursedDay: l.disbursedDay, AccruedThrough: l.accruedThrough, At: l.at}
		})})
}

func (p *part) UnmarshalSnapshot(b []byte) error {
	var s partSnapshot
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	p.score, p.shares, p.repays, p.seats = s.Score, commands.CloneMap(s.Shares), commands.CloneMap(s.Repays), commands.CloneMap(s.Seats)
	p.loans = make(map[string]*loan, len(s.Loans))
	for no, l := range s.Loans {
		p.loans[no] = &loan{orderNo: no, amount: l.Amount, rate: l.Rate, status: l.Status, principal: l.Principal, interest: l.Interest,
			disbursedDay: l.DisbursedDay, accruedThrough: l.AccruedThrough, at: l.At}
	}
	return nil
}
