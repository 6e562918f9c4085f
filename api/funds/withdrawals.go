package funds

import (
	"context"
	"fmt"

	"github.com/shopspring/decimal"

	"github.com/lotbook/lotbook/api/httpx"
	"github.com/lotbook/lotbook/api/wire"
	fundscmd "github.com/lotbook/lotbook/commands/funds"
	"github.com/lotbook/lotbook/commands/fx"
	"github.com/lotbook/lotbook/commands/rules/bank"
	moneyrule "github.com/lotbook/lotbook/commands/rules/money"
	"github.com/lotbook/lotbook/commands/rules/window"
	"github.com/lotbook/lotbook/events"
	pfunds "github.com/lotbook/lotbook/projections/funds"
)

// Withdrawals, balances per currency and currency exchange.

// amountIn writes an amount with its currency's minor unit (JPY "468", TWD "468.00").
func amountIn(d decimal.Decimal, currency string) string { return moneyrule.Format(d, currency) }

func (m *Module) withdrawChannels(c *httpx.Call) (httpx.Reply, error) {
	chs, err := pfunds.WithdrawalChannels(c.Ctx(), m.read.Reader)
	if err != nil {
		return httpx.Reply{}, fmt.Errorf("withdrawal channels: %w", err)
	}
	now := m.now()
	out := make([]wire.WithdrawChannel, 0, len(chs))
	for _, ch := range chs {
		if !ch.Enabled {
			continue
		}
		out = append(out, wire.WithdrawChannel{Id: ch.ID, Name: ch.Name, Currency: ch.Currency,
			Min: amountIn(ch.Min, ch.Currency), Max: amountIn(ch.Max, ch.Currency), Window: windowOut(ch.Window),
			OpenNow: window.Open(ch.Window, now, m.calendar)})
	}
	return httpx.OK(out)
}

func (m *Module) requestWithdrawal(c *httpx.Call) (httpx.Reply, error) {
	var req wire.WithdrawalRequest
	if err := c.Decode("WithdrawalRequest", &req); err != nil {
		return httpx.Reply{}, err
	}
	res, err := m.cmd.RequestWithdrawal(c.Ctx(), c.Meta(), c.Sess.MemberID, fundscmd.WithdrawalInput{
		Amount: req.Amount, CardID: req.CardId, FundPassword: req.FundPassword,
	})
	if err != nil {
		return httpx.Reply{}, err
	}
	return httpx.OK(orderOut(res))
}

func (m *Module) opsWithdrawals(c *httpx.Call) (httpx.Reply, error) {
	status, page, size, err := httpx.QueueQuery(c, events.ReviewPending, reviewStatusValid)
	if err != nil {
		return httpx.Reply{}, err
	}
	ws, more, err := pfunds.WithdrawalQueue(c.Ctx(), m.read.Reader, status, page, size)
	if err != nil {
		return httpx.Reply{}, fmt.Errorf("withdrawal queue: %w", err)
	}
	items := make([]wire.OpsWithdrawal, 0, len(ws))
	for _, w := range ws {
		items = append(items, wire.OpsWithdrawal{OrderNo: w.OrderNo, Account: w.Account, Currency: w.Currency,
			Amount: amountIn(w.Amount, w.Currency), ChannelName: w.ChannelName, HolderName: w.HolderName, BankName: w.BankName,
			Branch: w.Branch, BankCode: w.BankCode, CardNumberMasked: bank.Mask(w.CardLast4), Status: wire.ReviewStatus(w.Status),
			Remark: w.Remark, ReviewedBy: w.ReviewedBy, CreatedAt: w.CreatedAt.UTC()})
	}
	return httpx.OK(wire.OpsWithdrawalPage{Items: items, Page: page, HasMore: more})
}

// withdrawalOwner finds whose withdrawal orderNo is; the commands act on that member's stream.
func (m *Module) withdrawalOwner(ctx context.Context, orderNo string) (string, error) {
	w, err := pfunds.WithdrawalByOrderNo(ctx, m.read.Reader, orderNo)
	return w.MemberID, err
}

func (m *Module) balances(c *httpx.Call) (httpx.Reply, error) {
	bals, err := m.read.Balances(c.Ctx(), c.Sess.MemberID)
	if err != nil {
		return httpx.Reply{}, fmt.Errorf("balances of %s: %w", c.Sess.MemberID, err)
	}
	// Withdrawable comes from the rule the withdrawal itself applies (commands), so that the
	// figure shown is exactly what a withdrawal accepts.
	wd, err := m.cmd.Withdrawable(c.Ctx(), c.Sess.MemberID)
	if err != nil {
		return httpx.Reply{}, fmt.Errorf("withdrawable of %s: %w", c.Sess.MemberID, err)
	}
	out := make([]wire.CurrencyBalance, 0, len(fx.Currencies))
	for _, cur := range fx.Currencies {
		b := bals[cur]
		out = append(out, wire.CurrencyBalance{Currency: cur, Available: amountIn(b.Available, cur),
			Frozen: amountIn(b.Frozen, cur), Total: amountIn(b.Cash(), cur), Withdrawable: amountIn(wd[cur], cur)})
	}
	return httpx.OK(out)
}

func (m *Module) exchangeQuote(c *httpx.Call) (httpx.Reply, error) {
	var req wire.ExchangeQuoteRequest
	if err := c.Decode("ExchangeQuoteRequest", &req); err != nil {
		return httpx.Reply{}, err
	}
	q, err := m.cmd.QuoteExchange(c.Ctx(), c.Meta(), c.Sess.MemberID, fundscmd.QuoteInput{From: req.From, To: req.To, Amount: req.Amount})
	if err != nil {
		return httpx.Reply{}, err
	}
	return httpx.OK(wire.ExchangeQuote{QuoteId: q.QuoteID, From: q.From, To: q.To, Amount: amountIn(q.Amount, q.From),
		Rate: q.Rate.String(), ToAmount: amountIn(q.ToAmount, q.To), ExpiresAt: q.ExpiresAt.UTC(), Position: q.Position})
}

func (m *Module) exchange(c *httpx.Call) (httpx.Reply, error) {
	var req wire.ExchangeRequest
	if err := c.Decode("ExchangeRequest", &req); err != nil {
		return httpx.Reply{}, err
	}
	x, err := m.cmd.Exchange(c.Ctx(), c.Meta(), fundscmd.Exchange{MemberID: c.Sess.MemberID, QuoteID: req.QuoteId})
	if err != nil {
		return httpx.Reply{}, err
	}
	return httpx.OK(wire.ExchangeResult{OrderNo: x.OrderNo, From: x.From, To: x.To, FromAmount: amountIn(x.FromAmount, x.From),
		ToAmount: amountIn(x.ToAmount, x.To), Rate: x.Rate.String(), Position: x.Position})
}
