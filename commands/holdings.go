package commands

import (
	"context"
	"time"

	"github.com/shopspring/decimal"

	"github.com/lotbook/lotbook/commands/rules/fees"
	"github.com/lotbook/lotbook/events"
)

// What capabilities that sell shares outside the order book (block trades, chip grabbing, new
// shares) share with the kernel: the member's right to buy, and the holding a purchase at a
// fixed price becomes.

// TWD is the currency of the Taiwan market.
const TWD = "TWD"

// TradingRefusal answers why the member may not buy shares (not a registered member, disabled,
// frozen, trade banned), nil when they may; the answers orders get.
func (s *Service) TradingRefusal(ctx context.Context, memberID string) (*Error, error) {
	return View(ctx, s, events.MemberStream(memberID), func(m *Member, _ *Entry) *Error {
		if !m.IsMember() {
			return NotFound(KeyAccountNotExist)
		}
		return m.RefuseFlags(events.FlagDisabled, events.FlagFrozen, events.FlagTradeBanned)
	})
}

// Purchase is shares of a security bought outside the order book at one fixed price, paid from
// the member's available cash.
type Purchase struct {
	OrderNo, Symbol, Name, Kind, By string
	Price                           decimal.Decimal
	Shares                          int64
}

// Cost is what the purchase takes from available cash: the amount and the commission.
func (p Purchase) Cost() (amount, commission decimal.Decimal) {
	amount = p.Price.Mul(decimal.NewFromInt(p.Shares))
	return amount, fees.Commission(amount, p.Shares%fees.BoardLot != 0)
}

// Bought is the purchase as trading records a fill: an opening OrderPlaced (By the capability)
// and its one OrderFilled.v2 at the price, the cash from available to trade clearing and fees
// revenue and the shares from the exchange into the member's shares account. The holding is then
// a position like any other: shown, valued, sold, and checked by verify against the share
// ledger. The caller makes sure available holds the Cost (it unfreezes its reservation first).
func Bought(a *Account, p Purchase, now time.Time) []events.Payload {
	amount, commission := p.Cost()
	paid := amount.Add(commission)
	security := events.Security(events.MarketTW, p.Symbol)
	quote := events.QuoteUsed{Time: now.UTC(), Last: p.Price}
	postings := []events.Posting{
		{Account: a.Available, Currency: TWD, Amount: paid.Neg()},
		{Account: events.HouseTradeClearing, Currency: TWD, Amount: amount},
		{Account: events.HouseFeesRevenue, Currency: TWD, Amount: commission},
	}
	postings = append(postings, events.TransferShares(events.HouseExchangeShares, events.MemberAccount(a.MemberID, events.KindShares), security, p.Shares)...)
	return []events.Payload{
		events.OrderPlaced{OrderNo: p.OrderNo, PositionID: p.OrderNo, Intent: events.IntentOpen, Symbol: p.Symbol, Name: p.Name,
			Kind: p.Kind, Side: events.SideBuy, Direction: events.DirectionLong, Type: events.OrderLimit, Shares: p.Shares,
			OddLot: p.Shares%fees.BoardLot != 0, Price: p.Price, Leverage: decimal.NewFromInt(1),
			TradingDay: now.In(Taipei).Format(time.DateOnly), By: p.By, Quote: quote},
		events.OrderFilled{OrderNo: p.OrderNo, PositionID: p.OrderNo, Security: security, Seq: 1, Side: events.SideBuy,
			Executions: []events.Execution{{Price: p.Price, Shares: p.Shares}}, Shares: p.Shares, Amount: amount,
			Commission: commission, Tax: decimal.Zero, Loan: decimal.Zero, Margin: decimal.Zero, Cash: paid.Neg(),
			Profit: decimal.Zero, Basis: paid, Quote: quote, Postings: postings},
	}
}
