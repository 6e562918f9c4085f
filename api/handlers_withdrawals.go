package api

import (
	"fmt"
	"net/http"

	"github.com/gorilla/mux"
	"github.com/shopspring/decimal"

	"github.com/lotbook/lotbook/api/wire"
	"github.com/lotbook/lotbook/commands"
	"github.com/lotbook/lotbook/commands/fx"
	"github.com/lotbook/lotbook/commands/rules/bank"
	moneyrule "github.com/lotbook/lotbook/commands/rules/money"
	"github.com/lotbook/lotbook/commands/rules/window"
	"github.com/lotbook/lotbook/events"
	"github.com/lotbook/lotbook/projections/funds"
	"github.com/lotbook/lotbook/projections/valuation"
)

// Withdrawals, balances per currency and currency exchange.

// amountIn writes an amount with its currency's minor unit (JPY "468", TWD "468.00").
func amountIn(d decimal.Decimal, currency string) string { return moneyrule.Format(d, currency) }

func (s *server) withdrawChannels(c *call) (reply, error) {
	chs, err := funds.WithdrawalChannels(c.ctx(), s.read.Reader)
	if err != nil {
		return reply{}, fmt.Errorf("withdrawal channels: %w", err)
	}
	now := s.now()
	out := make([]wire.WithdrawChannel, 0, len(chs))
	for _, ch := range chs {
		if !ch.Enabled {
			continue
		}
		out = append(out, wire.WithdrawChannel{Id: ch.ID, Name: ch.Name, Currency: ch.Currency,
			Min: amountIn(ch.Min, ch.Currency), Max: amountIn(ch.Max, ch.Currency), Window: windowOut(ch.Window),
			OpenNow: window.Open(ch.Window, now, s.calendar)})
	}
	return ok(out)
}

func (s *server) requestWithdrawal(c *call) (reply, error) {
	var req wire.WithdrawalRequest
	if err := c.decode("WithdrawalRequest", &req); err != nil {
		return reply{}, err
	}
	res, err := s.cmd.RequestWithdrawal(c.ctx(), c.meta(), c.sess.MemberID, commands.WithdrawalInput{
		Amount: req.Amount, CardID: req.CardId, FundPassword: req.FundPassword,
	})
	if err != nil {
		return reply{}, err
	}
	return ok(orderOut(res))
}

func (s *server) opsWithdrawals(c *call) (reply, error) {
	status, page, size, err := queueQuery(c, events.ReviewPending, reviewStatusValid)
	if err != nil {
		return reply{}, err
	}
	ws, more, err := funds.WithdrawalQueue(c.ctx(), s.read.Reader, status, page, size)
	if err != nil {
		return reply{}, fmt.Errorf("withdrawal queue: %w", err)
	}
	items := make([]wire.OpsWithdrawal, 0, len(ws))
	for _, w := range ws {
		items = append(items, wire.OpsWithdrawal{OrderNo: w.OrderNo, Account: w.Account, Currency: w.Currency,
			Amount: amountIn(w.Amount, w.Currency), ChannelName: w.ChannelName, HolderName: w.HolderName, BankName: w.BankName,
			Branch: w.Branch, BankCode: w.BankCode, CardNumberMasked: bank.Mask(w.CardLast4), Status: wire.ReviewStatus(w.Status),
			Remark: w.Remark, ReviewedBy: w.ReviewedBy, CreatedAt: w.CreatedAt.UTC()})
	}
	return ok(wire.OpsWithdrawalPage{Items: items, Page: page, HasMore: more})
}

// withdrawalOwner finds whose withdrawal orderNo is; the commands act on that member's stream.
func (s *server) withdrawalOwner(c *call) (string, string, error) {
	orderNo := mux.Vars(c.r)["orderNo"]
	w, err := funds.WithdrawalByOrderNo(c.ctx(), s.read.Reader, orderNo)
	if isNotFound(err) {
		s.catchUpHead(c.ctx())
		w, err = funds.WithdrawalByOrderNo(c.ctx(), s.read.Reader, orderNo)
	}
	if err != nil {
		if isNotFound(err) {
			return "", "", refuse(http.StatusNotFound, wire.MessageKeyOrderNotFound, nil)
		}
		return "", "", fmt.Errorf("withdrawal %s: %w", orderNo, err)
	}
	return w.MemberID, orderNo, nil
}

func (s *server) approveWithdrawal(c *call) (reply, error) {
	return s.approve(c, s.withdrawalOwner, s.cmd.ApproveWithdrawal)
}

func (s *server) rejectWithdrawal(c *call) (reply, error) {
	return s.reject(c, s.withdrawalOwner, s.cmd.RejectWithdrawal)
}

func (s *server) balances(c *call) (reply, error) {
	bals, err := s.read.Balances(c.ctx(), c.sess.MemberID)
	if err != nil {
		return reply{}, fmt.Errorf("balances of %s: %w", c.sess.MemberID, err)
	}
	// Withdrawable comes from the rule the withdrawal itself applies (commands), so that the
	// figure shown is exactly what a withdrawal accepts.
	wd, err := s.cmd.Withdrawable(c.ctx(), c.sess.MemberID)
	if err != nil {
		return reply{}, fmt.Errorf("withdrawable of %s: %w", c.sess.MemberID, err)
	}
	out := make([]wire.CurrencyBalance, 0, len(fx.Currencies))
	for _, cur := range fx.Currencies {
		b := bals[cur]
		out = append(out, wire.CurrencyBalance{Currency: cur, Available: amountIn(b.Available, cur),
			Frozen: amountIn(b.Frozen, cur), Total: amountIn(valuation.Cash(b), cur), Withdrawable: amountIn(wd[cur], cur)})
	}
	return ok(out)
}

func (s *server) exchangeQuote(c *call) (reply, error) {
	var req wire.ExchangeQuoteRequest
	if err := c.decode("ExchangeQuoteRequest", &req); err != nil {
		return reply{}, err
	}
	q, err := s.cmd.QuoteExchange(c.ctx(), c.meta(), c.sess.MemberID, commands.QuoteInput{From: req.From, To: req.To, Amount: req.Amount})
	if err != nil {
		return reply{}, err
	}
	return ok(wire.ExchangeQuote{QuoteId: q.QuoteID, From: q.From, To: q.To, Amount: amountIn(q.Amount, q.From),
		Rate: q.Rate.String(), ToAmount: amountIn(q.ToAmount, q.To), ExpiresAt: q.ExpiresAt.UTC(), Position: q.Position})
}

func (s *server) exchange(c *call) (reply, error) {
	var req wire.ExchangeRequest
	if err := c.decode("ExchangeRequest", &req); err != nil {
		return reply{}, err
	}
	x, err := s.cmd.Exchange(c.ctx(), c.meta(), commands.Exchange{MemberID: c.sess.MemberID, QuoteID: req.QuoteId})
	if err != nil {
		return reply{}, err
	}
	return ok(wire.ExchangeResult{OrderNo: x.OrderNo, From: x.From, To: x.To, FromAmount: amountIn(x.FromAmount, x.From),
		ToAmount: amountIn(x.ToAmount, x.To), Rate: x.Rate.String(), Position: x.Position})
}
