// Package funds is the money's HTTP side: deposit channels and deposits with their ops review,
// withdrawals with theirs, balances per currency, currency exchange and the member's fund
// records (the journal's lines).
package funds

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/shopspring/decimal"

	"github.com/lotbook/lotbook/api/httpx"
	"github.com/lotbook/lotbook/api/wire"
	"github.com/lotbook/lotbook/commands"
	fundscmd "github.com/lotbook/lotbook/commands/funds"
	"github.com/lotbook/lotbook/commands/rules/settlement"
	"github.com/lotbook/lotbook/commands/rules/window"
	"github.com/lotbook/lotbook/events"
	"github.com/lotbook/lotbook/projections"
	"github.com/lotbook/lotbook/projections/config"
	"github.com/lotbook/lotbook/projections/reviews"
)

// Commands are the write side's operations this module sends (*funds.Commands of commands/funds).
type Commands interface {
	RequestDeposit(ctx context.Context, meta commands.Meta, memberID string, in fundscmd.DepositInput) (fundscmd.OrderResult, error)
	ApproveDeposit(ctx context.Context, meta commands.Meta, in fundscmd.ReviewOrder) (fundscmd.OrderResult, error)
	RejectDeposit(ctx context.Context, meta commands.Meta, in fundscmd.ReviewOrder) (fundscmd.OrderResult, error)
	RequestWithdrawal(ctx context.Context, meta commands.Meta, memberID string, in fundscmd.WithdrawalInput) (fundscmd.OrderResult, error)
	ApproveWithdrawal(ctx context.Context, meta commands.Meta, in fundscmd.ReviewOrder) (fundscmd.OrderResult, error)
	RejectWithdrawal(ctx context.Context, meta commands.Meta, in fundscmd.ReviewOrder) (fundscmd.OrderResult, error)
	Withdrawable(ctx context.Context, memberID string) (map[string]decimal.Decimal, error)
	QuoteExchange(ctx context.Context, meta commands.Meta, memberID string, in fundscmd.QuoteInput) (fundscmd.Quote, error)
	Exchange(ctx context.Context, meta commands.Meta, in fundscmd.Exchange) (fundscmd.ExchangeResult, error)
}

// Module serves the money routes.
type Module struct {
	cmd      Commands
	read     *projections.ReadDB
	now      func() time.Time
	calendar window.Calendar
	owners   *orderOwners // deposits taken here, for ops decisions
}

// New is the funds module over the command service, the read models, the clock and the
// calendar the channels' windows follow.
func New(cmd Commands, read *projections.ReadDB, now func() time.Time, calendar window.Calendar) *Module {
	return &Module{cmd: cmd, read: read, now: now, calendar: calendar, owners: newOrderOwners()}
}

// Routes are the money operations of openapi.yaml.
func (m *Module) Routes() []httpx.Route {
	return []httpx.Route{
		httpx.Op(httpx.AnyUser, "GET", "/api/vue/funds/channels", httpx.IdemNone, m.channels),
		httpx.Op(httpx.Member, "POST", "/api/vue/funds/deposits", httpx.IdemRequired, m.requestDeposit),
		httpx.Op(httpx.Member, "GET", "/api/vue/funds/records", httpx.IdemNone, m.fundRecords),
		httpx.Op(httpx.Ops, "GET", "/api/vue/ops/deposits", httpx.IdemNone, m.opsDeposits),
		httpx.Op(httpx.Ops, "POST", "/api/vue/ops/deposits/{orderNo}/approve", httpx.IdemRequired, m.review("deposit", m.depositOwner, Commands.ApproveDeposit, true)),
		httpx.Op(httpx.Ops, "POST", "/api/vue/ops/deposits/{orderNo}/reject", httpx.IdemRequired, m.review("deposit", m.depositOwner, Commands.RejectDeposit, false)),
		httpx.Op(httpx.AnyUser, "GET", "/api/vue/funds/withdrawChannels", httpx.IdemNone, m.withdrawChannels),
		httpx.Op(httpx.Member, "POST", "/api/vue/funds/withdrawals", httpx.IdemRequired, m.requestWithdrawal),
		httpx.Op(httpx.Member, "GET", "/api/vue/funds/balances", httpx.IdemNone, m.balances),
		httpx.Op(httpx.Member, "POST", "/api/vue/funds/exchange/quote", httpx.IdemRequired, m.exchangeQuote),
		httpx.Op(httpx.Member, "POST", "/api/vue/funds/exchange", httpx.IdemRequired, m.exchange),
		httpx.Op(httpx.Ops, "GET", "/api/vue/ops/withdrawals", httpx.IdemNone, m.opsWithdrawals),
		httpx.Op(httpx.Ops, "POST", "/api/vue/ops/withdrawals/{orderNo}/approve", httpx.IdemRequired, m.review("withdrawal", m.withdrawalOwner, Commands.ApproveWithdrawal, true)),
		httpx.Op(httpx.Ops, "POST", "/api/vue/ops/withdrawals/{orderNo}/reject", httpx.IdemRequired, m.review("withdrawal", m.withdrawalOwner, Commands.RejectWithdrawal, false)),
	}
}

func (m *Module) channels(c *httpx.Call) (httpx.Reply, error) {
	var chs []projections.Channel
	var payees map[string]events.Payee
	err := c.Snapshot(func(rd *projections.Reader) error {
		var err error
		if chs, err = config.Channels(c.Ctx(), rd); err != nil {
			return fmt.Errorf("channels: %w", err)
		}
		if payees, err = config.Payees(c.Ctx(), rd); err != nil {
			return fmt.Errorf("payees: %w", err)
		}
		return nil
	})
	if err != nil {
		return httpx.Reply{}, err
	}
	now := m.now()
	out := make([]wire.DepositChannel, 0, len(chs))
	for _, ch := range chs {
		if !ch.Enabled {
			continue // switched off by ops: members do not see it
		}
		out = append(out, wire.DepositChannel{
			Id: ch.ID, Name: ch.Name, Currency: ch.Currency, Min: httpx.Money(ch.Min), Max: httpx.Money(ch.Max),
			Window:  windowOut(ch.Window),
			OpenNow: window.Open(ch.Window, now, m.calendar),
			Payee:   httpx.Payee(payees[ch.ID]),
		})
	}
	return httpx.OK(out)
}

func windowOut(w events.TimeWindow) wire.TimeWindow { return httpx.Window(w) }

func (m *Module) requestDeposit(c *httpx.Call) (httpx.Reply, error) {
	var req wire.DepositRequest
	if err := c.Decode("DepositRequest", &req); err != nil {
		return httpx.Reply{}, err
	}
	res, err := m.cmd.RequestDeposit(c.Ctx(), c.Meta(), c.Sess.MemberID, fundscmd.DepositInput{
		ChannelID: req.ChannelId, Amount: req.Amount, ProofFileID: req.ProofFileId, ChannelPassword: req.ChannelPassword,
	})
	if err != nil {
		return httpx.Reply{}, err
	}
	m.owners.add(res.OrderNo, c.Sess.MemberID)
	return httpx.OK(orderOut(res))
}

func orderOut(r fundscmd.OrderResult) wire.OrderResult {
	return wire.OrderResult{OrderNo: r.OrderNo, Status: wire.ReviewStatus(r.Status), Position: r.Position}
}

func (m *Module) fundRecords(c *httpx.Call) (httpx.Reply, error) {
	q := c.R.URL.Query()
	typ := q.Get("type")
	if typ == "" {
		typ = "all"
	}
	if typ != "all" && !slices.Contains(events.LineTypes(), typ) {
		return httpx.Reply{}, httpx.InvalidRequest(fmt.Errorf("type %q", typ))
	}
	page, size, err := httpx.Paging(q)
	if err != nil {
		return httpx.Reply{}, err
	}
	lines, more, err := m.read.FundHistory(c.Ctx(), c.Sess.MemberID, typ, page, size)
	if err != nil {
		return httpx.Reply{}, fmt.Errorf("fund records: %w", err)
	}
	items := make([]wire.FundRecord, 0, len(lines))
	for _, l := range lines {
		items = append(items, fundRecordOut(l, m.now()))
	}
	return httpx.OK(wire.FundRecordPage{Items: items, Page: page, HasMore: more})
}

// fundRecordOut maps a journal line as its event labelled it: the optional fields are the details
// the line carries, whatever its type; a line with no currency (credit points) shows its plain
// amount.
func fundRecordOut(l projections.FundLine, now time.Time) wire.FundRecord {
	out := wire.FundRecord{
		OrderNo: l.OrderNo, Type: wire.FundRecordType(l.Type), Currency: l.Currency, Amount: l.Amount.String(),
		Status: wire.FundRecordStatus(l.Status), Remark: l.Remark, ChannelName: l.Details["channelName"],
		ProofFileId: l.Details["proofFileId"], CreatedAt: l.CreatedAt.UTC(), UpdatedAt: l.UpdatedAt.UTC(),
	}
	if l.Currency != "" {
		out.Amount = amountIn(l.Amount, l.Currency)
	}
	for name, dst := range map[string]**string{"bankName": &out.BankName, "cardLast4": &out.CardLast4, "rate": &out.Rate} {
		if v, ok := l.Details[name]; ok {
			*dst = &v
		}
	}
	if v, ok := l.Details["creditScore"]; ok {
		if score, err := strconv.Atoi(v); err == nil {
			out.CreditScore = &score
		}
	}
	if l.Symbol != "" {
		tradeLineOut(&out, l.Symbol, l.Details["settleDate"], now)
	}
	return out
}

func reviewStatusValid(status string) bool { return wire.ReviewStatus(status).Valid() }

func (m *Module) opsDeposits(c *httpx.Call) (httpx.Reply, error) {
	status, page, size, err := httpx.QueueQuery(c, events.ReviewPending, reviewStatusValid)
	if err != nil {
		return httpx.Reply{}, err
	}
	deps, more, err := reviews.Queue(c.Ctx(), m.read.Reader, status, page, size)
	if err != nil {
		return httpx.Reply{}, fmt.Errorf("deposit queue: %w", err)
	}
	items := make([]wire.OpsDeposit, 0, len(deps))
	for _, d := range deps {
		items = append(items, wire.OpsDeposit{
			OrderNo: d.OrderNo, Account: d.Account, Currency: d.Currency, Amount: httpx.Money(d.Amount),
			ChannelName: d.ChannelName, ProofFileId: d.ProofFileID, Status: wire.ReviewStatus(d.Status),
			Remark: d.Remark, CreatedAt: d.CreatedAt.UTC(),
		})
	}
	return httpx.OK(wire.OpsDepositPage{Items: items, Page: page, HasMore: more})
}

// depositOwner finds whose deposit orderNo is; the commands act on that member's stream.
func (m *Module) depositOwner(ctx context.Context, orderNo string) (string, error) {
	if memberID, ok := m.owners.get(orderNo); ok {
		return memberID, nil
	}
	d, err := reviews.ByOrderNo(ctx, m.read.Reader, orderNo)
	return d.MemberID, err
}

// reviewCommand is an ops decision on one member's order (approve or reject): a method
// expression of Commands.
type reviewCommand func(cmd Commands, ctx context.Context, meta commands.Meta, in fundscmd.ReviewOrder) (fundscmd.OrderResult, error)

// review is ops' decision on a deposit or a withdrawal (what): owner says whose order it is as
// the read model has it, read again after catching up when the order is not there yet (one
// written a moment ago); act approves or rejects it (as approve says), on the member's stream.
func (m *Module) review(what string, owner func(ctx context.Context, orderNo string) (string, error), act reviewCommand, approve bool) httpx.Handler {
	return func(c *httpx.Call) (httpx.Reply, error) {
		r, err := c.ReviewOf(approve, what, func(ctx context.Context, orderNo string) (string, error) {
			memberID, err := owner(ctx, orderNo)
			if httpx.IsNotFound(err) {
				c.CatchUpHead()
				memberID, err = owner(ctx, orderNo)
			}
			return memberID, err
		})
		if err != nil {
			return httpx.Reply{}, err
		}
		res, err := act(m.cmd, c.Ctx(), c.Meta(), fundscmd.ReviewOrder{MemberID: r.MemberID, OrderNo: r.OrderNo, Remark: r.Remark})
		if err != nil {
			return httpx.Reply{}, err
		}
		return httpx.OK(orderOut(res))
	}
}

// tradeLineOut adds a trade line's symbol and settlement: a sale's trade line is unsettled until
// its settlement date (the proceeds trade at once and are withdrawable from that day).
func tradeLineOut(out *wire.FundRecord, symbol, settleDate string, now time.Time) {
	out.Symbol = &symbol
	if settleDate == "" {
		return
	}
	out.SettleDate = &settleDate
	if !settlement.Settled(settleDate, now) {
		out.Status = wire.FundRecordStatusUnsettled
	}
}
