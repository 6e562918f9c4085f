package funds

import (
	"encoding/json"
	"time"

	"github.com/shopspring/decimal"

	"github.com/lotbook/lotbook/commands"
	"github.com/lotbook/lotbook/events"
)

// payoutCardSnapshot mirrors payoutCard for aggregate snapshots (commands.SnapshotPart).
type payoutCardSnapshot struct {
	Holder   string `json:"holder"`
	BankName string `json:"bankName"`
	Branch   string `json:"branch"`
	BankCode string `json:"bankCode"`
	Last4    string `json:"last4"`
}

func (c *payoutCards) SnapshotVersion() int { return 1 }

func (c *payoutCards) MarshalSnapshot() ([]byte, error) {
	s := make(map[string]payoutCardSnapshot, len(c.byID))
	for id, p := range c.byID {
		s[id] = payoutCardSnapshot{Holder: p.holder, BankName: p.bankName, Branch: p.branch, BankCode: p.bankCode, Last4: p.last4}
	}
	return json.Marshal(s)
}

func (c *payoutCards) UnmarshalSnapshot(b []byte) error {
	var s map[string]payoutCardSnapshot
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	c.byID = make(map[string]*payoutCard, len(s))
	for id, p := range s {
		c.byID[id] = &payoutCard{id: id, holder: p.Holder, bankName: p.BankName, branch: p.Branch, bankCode: p.BankCode, last4: p.Last4}
	}
	return nil
}

// fundsSnapshot mirrors funds, the account's part.
type fundsSnapshot struct {
	Deposits         map[string]reviewOrderSnapshot `json:"deposits"`
	Proofs           map[string]string              `json:"proofs"`
	Withdrawals      map[string]reviewOrderSnapshot `json:"withdrawals"`
	LastWithdrawalAt time.Time                      `json:"lastWithdrawalAt"`
	Quotes           map[string]quoteSnapshot       `json:"quotes"`
	Exchanges        map[string]bool                `json:"exchanges"`
	Score            int                            `json:"score"`
}

type reviewOrderSnapshot struct {
	Currency string          `json:"currency"`
	Amount   decimal.Decimal `json:"amount"`
	Status   string          `json:"status"`
}

type quoteSnapshot struct {
	events.ExchangeQuoted
	Used bool `json:"used"`
}

func (f *funds) SnapshotVersion() int { return 1 }

func (f *funds) MarshalSnapshot() ([]byte, error) {
	order := func(o *reviewOrder) reviewOrderSnapshot {
		return reviewOrderSnapshot{Currency: o.currency, Amount: o.amount, Status: o.status}
	}
	return json.Marshal(fundsSnapshot{
		Deposits: commands.MirrorMap(f.deposits, order), Proofs: f.proofs,
		Withdrawals: commands.MirrorMap(f.withdrawals, order), LastWithdrawalAt: f.lastWithdrawalAt,
		Quotes:    commands.MirrorMap(f.quotes, func(q *quote) quoteSnapshot { return quoteSnapshot{q.ExchangeQuoted, q.used} }),
		Exchanges: f.exchanges, Score: f.score,
	})
}

func (f *funds) UnmarshalSnapshot(b []byte) error {
	var s fundsSnapshot
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	order := func(o reviewOrderSnapshot) *reviewOrder {
		return &reviewOrder{currency: o.Currency, amount: o.Amount, status: o.Status}
	}
	*f = funds{deposits: commands.MirrorMap(s.Deposits, order), proofs: commands.CloneMap(s.Proofs),
		withdrawals: commands.MirrorMap(s.Withdrawals, order), lastWithdrawalAt: s.LastWithdrawalAt,
		quotes:    commands.MirrorMap(s.Quotes, func(q quoteSnapshot) *quote { return &quote{q.ExchangeQuoted, q.Used} }),
		exchanges: commands.CloneMap(s.Exchanges), score: s.Score}
	return nil
}
