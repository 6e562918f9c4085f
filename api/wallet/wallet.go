// Package wallet is the wallet's HTTP side: the member's cash per currency with every hold on
// it and why (projections/wallet.go), and the monthly statement (對帳單): opening and closing
// cash per currency, every fund record line and every fill of a Taipei calendar month.
package wallet

import (
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"github.com/lotbook/lotbook/api/httpx"
	"github.com/lotbook/lotbook/api/wire"
	"github.com/lotbook/lotbook/events"
	"github.com/lotbook/lotbook/projections"
)

// maxStatementLines bounds one month's lines: a member with more gets the first ones and
// truncated set (the fund records list the rest).
const maxStatementLines = 5000

// Module serves the wallet routes.
type Module struct {
	read *projections.ReadDB
	now  func() time.Time
}

// New is the wallet module over the read models and the clock.
func New(read *projections.ReadDB, now func() time.Time) *Module {
	return &Module{read: read, now: now}
}

// Routes are the wallet operations of openapi.yaml.
func (m *Module) Routes() []httpx.Route {
	return []httpx.Route{
		httpx.Op(httpx.Member, "GET", "/api/vue/wallet", httpx.IdemNone, m.wallet),
		httpx.Op(httpx.Member, "GET", "/api/vue/user/statement", httpx.IdemNone, m.statement),
	}
}

func (m *Module) wallet(c *httpx.Call) (httpx.Reply, error) {
	var (
		bals  map[string]projections.Balance
		holds []projections.Hold
	)
	id := c.Sess.MemberID
	err := c.Snapshot(func(rd *projections.Reader) error {
		var err error
		if bals, err = rd.Balances(c.Ctx(), id); err != nil {
			return fmt.Errorf("balances of %s: %w", id, err)
		}
		if holds, err = rd.Holds(c.Ctx(), id); err != nil {
			return fmt.Errorf("holds of %s: %w", id, err)
		}
		return nil
	})
	if err != nil {
		return httpx.Reply{}, err
	}
	return httpx.OK(walletOf(bals, holds))
}

// walletOf lists every currency the member holds or has held, the house currency first then
// by code, each with its holds; unexplained is the frozen cash no hold names (zero unless an
// event moved frozen cash without naming why).
func walletOf(bals map[string]projections.Balance, holds []projections.Hold) wire.Wallet {
	byCur := map[string][]wire.WalletHold{}
	named := map[string]decimal.Decimal{}
	for _, h := range holds {
		byCur[h.Currency] = append(byCur[h.Currency], wire.WalletHold{Ref: h.Ref, Reason: h.Reason, Amount: httpx.Money(h.Amount),
			Since: h.Since.UTC()})
		named[h.Currency] = named[h.Currency].Add(h.Amount)
	}
	curs := currencies(bals, byCur)
	out := wire.Wallet{Currencies: make([]wire.WalletCurrency, 0, len(curs))}
	for _, cur := range curs {
		b := bals[cur]
		hs := byCur[cur]
		if hs == nil {
			hs = []wire.WalletHold{}
		}
		out.Currencies = append(out.Currencies, wire.WalletCurrency{Currency: cur, Available: httpx.Money(b.Available),
			Frozen: httpx.Money(b.Frozen), Holds: hs, Unexplained: httpx.Money(b.Frozen.Sub(named[cur]))})
	}
	return out
}

// currencies are the keys of a and b, TWD first, then the others by code.
func currencies[A, B any](a map[string]A, b map[string]B) []string {
	curs := make([]string, 0, len(a)+len(b))
	for cur := range a {
		curs = append(curs, cur)
	}
	for cur := range b {
		if _, ok := a[cur]; !ok {
			curs = append(curs, cur)
		}
	}
	sort.Slice(curs, func(i, j int) bool {
		if (curs[i] == "TWD") != (curs[j] == "TWD") {
			return curs[i] == "TWD"
		}
		return curs[i] < curs[j]
	})
	return curs
}

var monthPattern = regexp.MustCompile(`^[0-9]{4}-(0[1-9]|1[0-2])$`)

// monthRange is the Taipei calendar month ("2006-01") as an instant range [from, to).
func monthRange(month string) (from, to time.Time, ok bool) {
	if !monthPattern.MatchString(month) {
		return time.Time{}, time.Time{}, false
	}
	from, err := time.ParseInLocation("2006-01", month, projections.Taipei)
	if err != nil || from.Year() < 2000 {
		return time.Time{}, time.Time{}, false
	}
	return from, from.AddDate(0, 1, 0), true
}

func (m *Module) statement(c *httpx.Call) (httpx.Reply, error) {
	month := c.R.URL.Query().Get("month")
	if month == "" {
		month = projections.StatementMonth(m.now())
	}
	from, to, ok := monthRange(month)
	if !ok || month > projections.StatementMonth(m.now()) {
		return httpx.Reply{}, httpx.InvalidRequest(fmt.Errorf("month %q", month))
	}
	var (
		before, within map[string]decimal.Decimal
		lines          []projections.FundLine
	)
	id := c.Sess.MemberID
	err := c.Snapshot(func(rd *projections.Reader) error {
		var err error
		if before, within, err = rd.CashBefore(c.Ctx(), id, month); err != nil {
			return fmt.Errorf("cash of %s: %w", id, err)
		}
		if lines, err = rd.FundLinesBetween(c.Ctx(), id, from, to, maxStatementLines); err != nil {
			return fmt.Errorf("lines of %s: %w", id, err)
		}
		return nil
	})
	if err != nil {
		return httpx.Reply{}, err
	}
	return httpx.OK(statementOf(month, from, to, before, within, lines))
}

// tradeLines are the line types of a fill (events.OrderFilled.JournalLines).
var tradeLines = []string{events.LineTrade, events.LineFee, events.LineTax, events.LineFinancing, events.LineCollateral}

func statementOf(month string, from, to time.Time, before, within map[string]decimal.Decimal, lines []projections.FundLine) wire.Statement {
	out := wire.Statement{Month: month, From: from.UTC(), To: to.UTC(), Cash: []wire.StatementCash{}, Lines: []wire.StatementLine{},
		Trades: []wire.StatementTrade{}, Totals: []wire.StatementTotal{}}
	if len(lines) > maxStatementLines {
		lines, out.Truncated = lines[:maxStatementLines], true
	}
	for _, cur := range currencies(before, within) {
		open := before[cur]
		out.Cash = append(out.Cash, wire.StatementCash{Currency: cur, Opening: httpx.Money(open), Closing: httpx.Money(open.Add(within[cur])),
			Change: httpx.Money(within[cur])})
	}
	type totalKey struct{ cur, typ string }
	totals := map[totalKey]decimal.Decimal{}
	var order []totalKey
	var fill *wire.StatementTrade
	var fillSeq int64
	for _, l := range lines {
		// A withdrawal's line holds its amount (positive); on the statement it is cash going out.
		if l.Type == events.LineWithdraw && l.Amount.IsPositive() {
			l.Amount = l.Amount.Neg()
		}
		out.Lines = append(out.Lines, wire.StatementLine{Seq: l.Seq, Type: l.Type, OrderNo: l.OrderNo, Currency: l.Currency,
			Amount: l.Amount.String(), Status: l.Status, Remark: l.Remark, Symbol: l.Symbol, CreatedAt: l.CreatedAt.UTC()})
		if l.Currency != "" && !strings.Contains(l.Currency, ":") && counted(l.Status) {
			k := totalKey{l.Currency, l.Type}
			if _, ok := totals[k]; !ok {
				order = append(order, k)
			}
			totals[k] = totals[k].Add(l.Amount)
		}
		if !slices.Contains(tradeLines, l.Type) {
			continue
		}
		if fill == nil || fillSeq != l.Seq || fill.OrderNo != l.OrderNo {
			out.Trades = append(out.Trades, wire.StatementTrade{OrderNo: l.OrderNo, Symbol: l.Symbol, Name: l.Remark, Currency: l.Currency,
				At: l.CreatedAt.UTC(), Amount: "0", Fee: "0", Tax: "0", Financing: "0", Collateral: "0"})
			fill, fillSeq = &out.Trades[len(out.Trades)-1], l.Seq
		}
		switch l.Type {
		case events.LineTrade:
			fill.Amount, fill.Side, fill.Shares, fill.SettleDate = l.Amount.String(), l.Details["side"], l.Details["shares"], l.Details["settleDate"]
		case events.LineFee:
			fill.Fee = l.Amount.String()
		case events.LineTax:
			fill.Tax = l.Amount.String()
		case events.LineFinancing:
			fill.Financing = l.Amount.String()
		case events.LineCollateral:
			fill.Collateral = l.Amount.String()
		}
	}
	sort.SliceStable(order, func(i, j int) bool {
		if order[i].cur != order[j].cur {
			return order[i].cur < order[j].cur
		}
		return order[i].typ < order[j].typ
	})
	for _, k := range order {
		out.Totals = append(out.Totals, wire.StatementTotal{Currency: k.cur, Type: k.typ, Amount: totals[k].String()})
	}
	return out
}

// counted tells whether a line's amount happened: pending and rejected lines are listed, not
// totalled.
func counted(status string) bool {
	return status == events.LineCompleted || status == events.ReviewApproved
}
