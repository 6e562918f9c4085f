// Package credit is the credit capability's HTTP side: members see their limit with the rule,
// borrow, repay and list their loans, and apply for a seat account; ops review loans and seat
// applications.
package credit

import (
	"context"
	"fmt"
	"strings"

	"github.com/shopspring/decimal"

	"github.com/lotbook/lotbook/api/httpx"
	"github.com/lotbook/lotbook/api/wire"
	"github.com/lotbook/lotbook/commands"
	creditcmd "github.com/lotbook/lotbook/commands/credit"
	"github.com/lotbook/lotbook/commands/rules/credit"
	"github.com/lotbook/lotbook/commands/trading/engine"
	"github.com/lotbook/lotbook/events"
	"github.com/lotbook/lotbook/projections"
	readcredit "github.com/lotbook/lotbook/projections/credit"

	// The loan interest process manager registers itself (process.Register) when linked in.
	_ "github.com/lotbook/lotbook/commands/credit/interest"
)

// Commands are the write side's operations this module sends (*credit.Commands of commands/credit).
type Commands interface {
	Borrow(ctx context.Context, meta commands.Meta, memberID string, in creditcmd.Borrow, prices creditcmd.Prices) (creditcmd.Result, error)
	Repay(ctx context.Context, meta commands.Meta, memberID string, in creditcmd.Repay) (creditcmd.Result, error)
	ApproveLoan(ctx context.Context, meta commands.Meta, in creditcmd.Review) (creditcmd.Result, error)
	RejectLoan(ctx context.Context, meta commands.Meta, in creditcmd.Review) (creditcmd.Result, error)
	ApplySeat(ctx context.Context, meta commands.Meta, memberID string) (creditcmd.Result, error)
	ApproveSeat(ctx context.Context, meta commands.Meta, in creditcmd.Review) (creditcmd.Result, error)
	RejectSeat(ctx context.Context, meta commands.Meta, in creditcmd.Review) (creditcmd.Result, error)
	Quota(ctx context.Context, memberID string, prices creditcmd.Prices) (creditcmd.Quota, error)
}

// Module serves the credit routes.
type Module struct {
	cmd    Commands
	read   *projections.ReadDB
	market func() engine.Market // the only source of prices
}

// New is the credit module over its commands, the read models and the market.
func New(cmd Commands, read *projections.ReadDB, market func() engine.Market) *Module {
	return &Module{cmd: cmd, read: read, market: market}
}

// Routes are the credit operations of openapi.yaml.
func (m *Module) Routes() []httpx.Route {
	return []httpx.Route{
		httpx.Op(httpx.Member, "GET", "/api/vue/credit", httpx.IdemNone, m.summary),
		httpx.Op(httpx.Member, "GET", "/api/vue/credit/loans", httpx.IdemNone, m.myLoans),
		httpx.Op(httpx.Member, "POST", "/api/vue/credit/loans", httpx.IdemRequired, m.borrow),
		httpx.Op(httpx.Member, "POST", "/api/vue/credit/loans/{orderNo}/repay", httpx.IdemRequired, m.repay),
		httpx.Op(httpx.Member, "POST", "/api/vue/credit/seat", httpx.IdemRequired, m.applySeat),
		httpx.Op(httpx.Ops, "GET", "/api/vue/ops/credit/loans", httpx.IdemNone, m.loanQueue),
		httpx.Op(httpx.Ops, "POST", "/api/vue/ops/credit/loans/{orderNo}/approve", httpx.IdemRequired, m.approveLoan),
		httpx.Op(httpx.Ops, "POST", "/api/vue/ops/credit/loans/{orderNo}/reject", httpx.IdemRequired, m.rejectLoan),
		httpx.Op(httpx.Ops, "GET", "/api/vue/ops/credit/seats", httpx.IdemNone, m.seatQueue),
		httpx.Op(httpx.Ops, "POST", "/api/vue/ops/credit/seats/{orderNo}/approve", httpx.IdemRequired, m.approveSeat),
		httpx.Op(httpx.Ops, "POST", "/api/vue/ops/credit/seats/{orderNo}/reject", httpx.IdemRequired, m.rejectSeat),
	}
}

// prices values holdings at the market's last price, by the class the rule knows.
type prices struct{ mk engine.Market }

func (p prices) Price(security string) (string, decimal.Decimal, bool) {
	symbol, ok := strings.CutPrefix(security, events.MarketTW+":")
	if !ok || p.mk == nil {
		return "", decimal.Zero, false
	}
	q, err := p.mk.Quote(symbol)
	if err != nil || !q.Price.IsPositive() {
		return "", decimal.Zero, false
	}
	switch {
	case q.Type == "etf" && strings.HasSuffix(q.Symbol, "B"):
		return credit.ClassBondETF, q.Price, true
	case q.Type == "etf":
		return credit.ClassETF, q.Price, true
	case q.Type == "stock":
		return credit.ClassStock, q.Price, true
	}
	return "", decimal.Zero, false
}

func (m *Module) prices() creditcmd.Prices { return prices{mk: m.market()} }

func (m *Module) summary(c *httpx.Call) (httpx.Reply, error) {
	q, err := m.cmd.Quota(c.Ctx(), c.Sess.MemberID, m.prices())
	if err != nil {
		return httpx.Reply{}, err
	}
	rule := wire.LoanRule{DaysPerYear: credit.DaysPerYear}
	for _, h := range credit.Haircuts {
		rule.Haircuts = append(rule.Haircuts, struct {
			Class string       `json:"class"`
			Rate  wire.Decimal `json:"rate"`
		}{Class: h.Class, Rate: h.Rate.String()})
	}
	for _, b := range credit.Bands {
		rule.Bands = append(rule.Bands, struct {
			Amount   wire.Decimal `json:"amount"`
			MinScore int          `json:"minScore"`
		}{Amount: httpx.Money(b.Amount), MinScore: b.MinScore})
	}
	seat := wire.CreditSummarySeatNone
	switch q.Seat {
	case events.ReviewPending:
		seat = wire.CreditSummarySeatPending
	case events.ReviewApproved:
		seat = wire.CreditSummarySeatApproved
	}
	return httpx.OK(wire.CreditSummary{Score: q.Score, Collateral: httpx.Money(q.Collateral), Band: httpx.Money(q.Band),
		Limit: httpx.Money(q.Limit), Used: httpx.Money(q.Used), Loanable: httpx.Money(q.Available), Borrowed: httpx.Money(q.Principal),
		Interest: httpx.Money(q.Interest), Debt: httpx.Money(q.Owed), AnnualRate: credit.AnnualRate.String(),
		MinLoan: httpx.Money(credit.MinLoan), Rule: rule, Seat: seat, Outstanding: q.Outstanding})
}

func resultOut(r creditcmd.Result) wire.CreditResult {
	out := wire.CreditResult{OrderNo: r.OrderNo, Status: wire.CreditResultStatus(r.Status), Position: r.Position}
	if r.RepayNo != "" {
		out.RepayNo = &r.RepayNo
	}
	return out
}

func (m *Module) borrow(c *httpx.Call) (httpx.Reply, error) {
	return httpx.Send(c, "BorrowRequest", wire.MessageKeyLoanApplied, func(req wire.BorrowRequest) (creditcmd.Result, error) {
		return m.cmd.Borrow(c.Ctx(), c.Meta(), c.Sess.MemberID, creditcmd.Borrow{Amount: req.Amount, FundPassword: req.FundPassword}, m.prices())
	}, resultOut)
}

func (m *Module) repay(c *httpx.Call) (httpx.Reply, error) {
	return httpx.Send(c, "RepayRequest", wire.MessageKeyLoanRepaid, func(req wire.RepayRequest) (creditcmd.Result, error) {
		return m.cmd.Repay(c.Ctx(), c.Meta(), c.Sess.MemberID, creditcmd.Repay{OrderNo: c.Var("orderNo"), Amount: req.Amount,
			FundPassword: req.FundPassword})
	}, resultOut)
}

func (m *Module) applySeat(c *httpx.Call) (httpx.Reply, error) {
	return httpx.Send(c, "Empty", wire.MessageKeySeatApplied, func(wire.Empty) (creditcmd.Result, error) {
		return m.cmd.ApplySeat(c.Ctx(), c.Meta(), c.Sess.MemberID)
	}, resultOut)
}

// loanOut maps a loan; ops lists also name the borrower and the reviewer.
func loanOut(l readcredit.Loan, ops bool) wire.LoanRecord {
	out := wire.LoanRecord{OrderNo: l.OrderNo, Amount: httpx.Money(l.Amount), AnnualRate: l.AnnualRate.String(), Status: wire.LoanStatus(l.Status),
		Borrowed: httpx.Money(l.Principal), Interest: httpx.Money(l.Interest), InterestTotal: httpx.Money(l.InterestTotal),
		Repaid: httpx.Money(l.Repaid), Debt: httpx.Money(l.Outstanding()), Remark: l.Remark, CreatedAt: l.CreatedAt, UpdatedAt: l.UpdatedAt}
	if l.DisbursedDay != "" {
		out.DisbursedDay = &l.DisbursedDay
	}
	if l.AccruedThrough != "" {
		out.AccruedThrough = &l.AccruedThrough
	}
	if ops {
		out.Account, out.ReviewedBy = &l.Account, &l.ReviewedBy
	}
	return out
}

func loanPage(ls []readcredit.Loan, page int, more, ops bool) wire.LoanPage {
	items := make([]wire.LoanRecord, 0, len(ls))
	for _, l := range ls {
		items = append(items, loanOut(l, ops))
	}
	return wire.LoanPage{Items: items, Page: page, HasMore: more}
}

func (m *Module) myLoans(c *httpx.Call) (httpx.Reply, error) {
	page, size, err := httpx.Paging(c.R.URL.Query())
	if err != nil {
		return httpx.Reply{}, err
	}
	ls, more, err := readcredit.MemberLoans(c.Ctx(), m.read.Reader, c.Sess.MemberID, page, size)
	if err != nil {
		return httpx.Reply{}, fmt.Errorf("loans of %s: %w", c.Sess.MemberID, err)
	}
	return httpx.OK(loanPage(ls, page, more, false))
}

func (m *Module) loanQueue(c *httpx.Call) (httpx.Reply, error) {
	status, page, size, err := httpx.QueueQuery(c, readcredit.StatusPending, func(s string) bool { return wire.LoanStatus(s).Valid() })
	if err != nil {
		return httpx.Reply{}, err
	}
	ls, more, err := readcredit.LoanQueue(c.Ctx(), m.read.Reader, status, page, size)
	if err != nil {
		return httpx.Reply{}, fmt.Errorf("loan queue: %w", err)
	}
	return httpx.OK(loanPage(ls, page, more, true))
}

func (m *Module) seatQueue(c *httpx.Call) (httpx.Reply, error) {
	status, page, size, err := httpx.QueueQuery(c, events.ReviewPending, func(s string) bool { return wire.ReviewStatus(s).Valid() })
	if err != nil {
		return httpx.Reply{}, err
	}
	ss, more, err := readcredit.SeatQueue(c.Ctx(), m.read.Reader, status, page, size)
	if err != nil {
		return httpx.Reply{}, fmt.Errorf("seat queue: %w", err)
	}
	items := make([]wire.SeatApplication, 0, len(ss))
	for _, s := range ss {
		items = append(items, wire.SeatApplication{OrderNo: s.OrderNo, Account: s.Account, Status: wire.ReviewStatus(s.Status),
			Remark: s.Remark, ReviewedBy: &s.ReviewedBy, CreatedAt: s.CreatedAt, UpdatedAt: s.UpdatedAt})
	}
	return httpx.OK(wire.SeatPage{Items: items, Page: page, HasMore: more})
}

type decision func(ctx context.Context, meta commands.Meta, in creditcmd.Review) (creditcmd.Result, error)

func (m *Module) approveLoan(c *httpx.Call) (httpx.Reply, error) {
	return m.reviewLoan(c, true, m.cmd.ApproveLoan)
}
func (m *Module) rejectLoan(c *httpx.Call) (httpx.Reply, error) {
	return m.reviewLoan(c, false, m.cmd.RejectLoan)
}
func (m *Module) approveSeat(c *httpx.Call) (httpx.Reply, error) {
	return m.reviewSeat(c, true, m.cmd.ApproveSeat)
}
func (m *Module) rejectSeat(c *httpx.Call) (httpx.Reply, error) {
	return m.reviewSeat(c, false, m.cmd.RejectSeat)
}

// reviewLoan decides on a loan; its member comes from the read model.
func (m *Module) reviewLoan(c *httpx.Call, approve bool, decide decision) (httpx.Reply, error) {
	return m.review(c, approve, decide, func(ctx context.Context, no string) (string, error) {
		l, err := readcredit.LoanByNo(ctx, m.read.Reader, no)
		return l.MemberID, err
	})
}

func (m *Module) reviewSeat(c *httpx.Call, approve bool, decide decision) (httpx.Reply, error) {
	return m.review(c, approve, decide, func(ctx context.Context, no string) (string, error) {
		s, err := readcredit.SeatByNo(ctx, m.read.Reader, no)
		return s.MemberID, err
	})
}

func (m *Module) review(c *httpx.Call, approve bool, decide decision, owner func(context.Context, string) (string, error)) (httpx.Reply, error) {
	r, err := c.ReviewOf(approve, "credit order", owner)
	if err != nil {
		return httpx.Reply{}, err
	}
	res, err := decide(c.Ctx(), c.Meta(), creditcmd.Review{MemberID: r.MemberID, OrderNo: r.OrderNo, Remark: r.Remark})
	if err != nil {
		return httpx.Reply{}, err
	}
	return httpx.OK(resultOut(res))
}
