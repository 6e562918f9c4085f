// Package dividend is dividends on the write side: the account part dividends (a member's
// entitlements and whether each is paid), the commands that record an entitlement and pay it, and
// beneath it the process manager (payout) that sends them on the market's dates. See
// events/dividend_events.go.
package dividend

import (
	"context"
	"fmt"
	"time"

	"github.com/shopspring/decimal"

	"github.com/lotbook/lotbook/commands"
	rule "github.com/lotbook/lotbook/commands/rules/dividend"
	"github.com/lotbook/lotbook/events"
)

// orderPrefix begins the numbers of entitlements: "DV" + the dividend id.
const orderPrefix = "DV"

// OrderNo is a member's entitlement number of a dividend.
func OrderNo(dividendID string) string { return orderPrefix + dividendID }

// entitlement is one of the account's dividends.
type entitlement struct {
	events.DividendEntitled
	cashPaid, sharesPaid bool
}

func (e *entitlement) paid() bool {
	return (e.cashPaid || !e.Gross.Add(e.FractionCash).IsPositive()) && (e.sharesPaid || e.NewShares == 0)
}

// dividends is the account's part: its entitlements by order number.
type dividends struct {
	byNo map[string]*entitlement
}

var part = commands.RegisterAccountPart("dividend", func(commands.Ledger) *dividends {
	return &dividends{byNo: map[string]*entitlement{}}
})

// Apply evolves the entitlements.
func (d *dividends) Apply(_ events.RecordedEvent, p events.Payload) {
	switch e := p.(type) {
	case events.DividendEntitled:
		d.byNo[e.OrderNo] = &entitlement{DividendEntitled: e}
	case events.DividendCashPaid:
		if x := d.byNo[e.OrderNo]; x != nil {
			x.cashPaid = true
		}
	case events.DividendSharesDistributed:
		if x := d.byNo[e.OrderNo]; x != nil {
			x.sharesPaid = true
		}
	}
}

// HoldsOrder keeps the account's other order numbers off its entitlements' numbers (and the new
// shares' position).
func (d *dividends) HoldsOrder(no string) bool {
	return d.byNo[no] != nil || d.byNo[trimStock(no)] != nil
}

func trimStock(no string) string {
	if len(no) > 2 && no[len(no)-2:] == "-S" {
		return no[:len(no)-2]
	}
	return no
}

// Distribution is one dividend of the market as an entitlement records it.
type Distribution struct {
	ID, Symbol, Name, Kind, Period string
	Cash, Stock                    decimal.Decimal // NT$ per share; NT$ of par per share
	ExDate, RecordDate, PayDate    time.Time       // 00:00 Asia/Taipei
}

// Entitle records that the member held shares of the distribution's security at the close before
// its ex-date.
type Entitle struct {
	MemberID     string
	Distribution Distribution
	Shares       int64
}

const date = time.DateOnly

// decideEntitle records the entitlement once; a second one for the same dividend changes nothing.
func decideEntitle(a *commands.Account, in Entitle) ([]events.Payload, error) {
	d := in.Distribution
	no := OrderNo(d.ID)
	switch {
	case d.ID == "" || d.Symbol == "" || in.Shares <= 0 || d.Cash.IsNegative() || d.Stock.IsNegative():
		return nil, commands.Invalid(commands.KeyInvalidRequest)
	case part.Of(a).byNo[no] != nil:
		return nil, nil
	}
	p := rule.Of(in.Shares, d.Cash, d.Stock)
	loc := commands.Taipei
	return []events.Payload{events.DividendEntitled{OrderNo: no, DividendID: d.ID, Symbol: d.Symbol, Name: d.Name, Kind: d.Kind,
		Period: d.Period, ExDate: d.ExDate.In(loc).Format(date), RecordDate: d.RecordDate.In(loc).Format(date),
		PayDate: d.PayDate.In(loc).Format(date), PayAt: d.PayDate.UTC(), Shares: in.Shares, Cash: d.Cash, Stock: d.Stock,
		Gross: p.Gross, FractionCash: p.FractionCash, NHI: p.NHI, Fee: p.Fee, Net: p.Net, NewShares: p.NewShares}}, nil
}

// decidePay pays an entitlement due at now: the cash (net of the premium and the fee) and the new
// shares as a position at zero cost. A paid entitlement changes nothing.
func decidePay(a *commands.Account, orderNo string, now time.Time) ([]events.Payload, error) {
	x := part.Of(a).byNo[orderNo]
	switch {
	case x == nil:
		return nil, commands.NotFound(commands.KeyOrderNotFound)
	case x.paid():
		return nil, nil
	case now.Before(x.PayAt):
		return nil, commands.Rule(commands.KeyOrderNotPending)
	}
	var out []events.Payload
	if cash := x.Gross.Add(x.FractionCash); cash.IsPositive() && !x.cashPaid {
		postings := []events.Posting{{Account: events.HouseDividendPayable, Currency: commands.TWD, Amount: cash.Neg()}}
		for _, leg := range []struct {
			account string
			amount  decimal.Decimal
		}{{events.HouseNHIPayable, x.NHI}, {events.HouseFeesRevenue, x.Fee}, {a.Available, x.Net}} {
			if leg.amount.IsPositive() {
				postings = append(postings, events.Posting{Account: leg.account, Currency: commands.TWD, Amount: leg.amount})
			}
		}
		out = append(out, events.DividendCashPaid{OrderNo: orderNo, DividendID: x.DividendID, Net: x.Net, Postings: postings})
	}
	if x.NewShares > 0 && !x.sharesPaid {
		out = append(out, distribute(a, x, now)...)
	}
	if len(out) == 0 {
		return nil, commands.Unavailable(fmt.Errorf("dividend %s of %s pays nothing", orderNo, a.MemberID))
	}
	return out, nil
}

// distribute delivers the new shares: trading's order and fill (By dividend) at price zero, whose
// only postings move the shares from the issuer to the member, and the record that they were.
func distribute(a *commands.Account, x *entitlement, now time.Time) []events.Payload {
	pos := x.OrderNo + "-S"
	security := events.Security(events.MarketTW, x.Symbol)
	quote := events.QuoteUsed{Time: now.UTC(), Last: decimal.Zero}
	zero := decimal.Zero
	return []events.Payload{
		events.OrderPlaced{OrderNo: pos, PositionID: pos, Intent: events.IntentOpen, Symbol: x.Symbol, Name: x.Name, Kind: x.Kind,
			Side: events.SideBuy, Direction: events.DirectionLong, Type: events.OrderLimit, Shares: x.NewShares,
			OddLot: x.NewShares%1000 != 0, Price: zero, Leverage: decimal.NewFromInt(1),
			TradingDay: now.In(commands.Taipei).Format(date), By: events.OrderByDividend, Quote: quote},
		events.OrderFilled{OrderNo: pos, PositionID: pos, Security: security, Seq: 1, Side: events.SideBuy,
			Executions: []events.Execution{{Price: zero, Shares: x.NewShares}}, Shares: x.NewShares, Amount: zero,
			Commission: zero, Tax: zero, Loan: zero, Margin: zero, Cash: zero, Profit: zero, Basis: zero, Quote: quote,
			Postings: events.TransferShares(events.HouseDividendShares, events.MemberAccount(a.MemberID, events.KindShares), security, x.NewShares)},
		events.DividendSharesDistributed{OrderNo: x.OrderNo, DividendID: x.DividendID, Security: security, Shares: x.NewShares,
			PositionID: pos},
	}
}

// Commands are the dividend commands over the kernel.
type Commands struct{ k *commands.Service }

// New returns the dividend commands over the kernel k.
func New(k *commands.Service) *Commands { return &Commands{k: k} }

// Result answers a dividend command: the entitlement's number and the global position of the
// command's last event (or of the stream when nothing changed).
type Result struct {
	OrderNo  string
	Position int64
}

// Entitle records a holder's entitlement (the process manager; the demo seed).
func (s *Commands) Entitle(ctx context.Context, meta commands.Meta, in Entitle) (Result, error) {
	c, err := s.k.Begin(meta, "dividend.entitle")
	if err != nil {
		return Result{}, err
	}
	if !commands.ValidMemberID(in.MemberID) {
		return Result{}, commands.NotFound(commands.KeyAccountNotExist)
	}
	rec, err := commands.Execute(ctx, s.k, c, events.AccountStream(in.MemberID), func(a *commands.Account) ([]events.Payload, error) {
		return decideEntitle(a, in)
	})
	if err != nil {
		return Result{}, err
	}
	return Result{OrderNo: OrderNo(in.Distribution.ID), Position: rec.Position}, nil
}

// Pay pays a member's entitlement once its payment date has come.
func (s *Commands) Pay(ctx context.Context, meta commands.Meta, memberID, orderNo string) (Result, error) {
	c, err := s.k.Begin(meta, "dividend.pay")
	if err != nil {
		return Result{}, err
	}
	if !commands.ValidMemberID(memberID) {
		return Result{}, commands.NotFound(commands.KeyAccountNotExist)
	}
	rec, err := commands.Execute(ctx, s.k, c, events.AccountStream(memberID), func(a *commands.Account) ([]events.Payload, error) {
		return decidePay(a, orderNo, c.Now)
	})
	if err != nil {
		return Result{}, err
	}
	return Result{OrderNo: orderNo, Position: rec.Position}, nil
}
