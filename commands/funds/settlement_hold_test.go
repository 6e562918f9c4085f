package funds_test

import (
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/lotbook/lotbook/commands"
	"github.com/lotbook/lotbook/commands/commandstest"
	"github.com/lotbook/lotbook/commands/commandstest/scenario"
	"github.com/lotbook/lotbook/commands/funds"
	"github.com/lotbook/lotbook/commands/fx"
	"github.com/lotbook/lotbook/commands/rules/fees"
	"github.com/lotbook/lotbook/commands/rules/matching"
	"github.com/lotbook/lotbook/commands/trading"
	"github.com/lotbook/lotbook/events"
)

// The cross-part questions of the account shell, across capabilities: sale proceeds that trading
// holds until settlement are not withdrawable by funds.

func lv(price string, size int64) matching.Level { return matching.Level{Price: d(price), Size: size} }

// book is a continuous session of stock 1101 at last price 100 (band 90 to 110).
func book(bids, asks []matching.Level) trading.Market {
	return trading.Market{Symbol: "1101", Name: "台泥", Kind: fees.Stock, Phase: "continuous", OddLot: "intraday", TradingDay: "2026-11-23",
		Quote:      trading.MarketQuote{Last: d("100"), LimitUp: d("110"), LimitDown: d("90"), Bids: bids, Asks: asks, Time: commandstest.T0},
		CheckPrice: func(decimal.Decimal) string { return "" }}
}

func wantCash(f *scenario.Fixture, memberID, available, frozen string) {
	f.T.Helper()
	b, err := commands.View(f.Ctx, f.Svc, events.AccountStream(memberID), func(a *commands.Account, _ *commands.Entry) commands.Balance { return a.Balances["TWD"] })
	f.Must(err)
	if !b.Available.Equal(d(available)) || !b.Frozen.Equal(d(frozen)) {
		f.T.Fatalf("cash available %s frozen %s, want %s %s", b.Available, b.Frozen, available, frozen)
	}
}

func TestProceedsWithdrawableOnSettlement(t *testing.T) {
	f := newFundsFixture(t)
	m := f.Verified("0912345678", "A123456789", "100500")
	card := f.Card(m, "0123-4567-8901")
	buy, err := f.Trading.PlaceOrder(f.Ctx, commandstest.Meta("member"), m, trading.OrderInput{Symbol: "1101", Direction: "long", Type: "limit", Lots: 1, Price: "100"},
		book(nil, []matching.Level{lv("100", 1000)}))
	f.Must(err)
	_, err = f.Trading.ClosePosition(f.Ctx, commandstest.Meta("member"), trading.ClosePosition{MemberID: m, PositionID: buy.PositionID, Close: trading.CloseInput{Type: "market"}, Market: book([]matching.Level{lv("100", 1000)}, nil)})
	f.Must(err)
	// Bought 100,000 + 142; sold 100,000 - 142 - 150: available 100,066, of which 99,708 settle on
	// 25 November: 358 withdrawable until then.
	wantCash(f, m, "100066", "0")
	// The figure the withdraw screen shows is the one the decision checks.
	w, err := f.Funds.Withdrawable(f.Ctx, m)
	f.Must(err)
	if !w["TWD"].Equal(d("358")) || !w["USD"].IsZero() || len(w) != len(fx.Currencies) {
		t.Fatalf("withdrawable %v", w)
	}
	_, err = f.Funds.RequestWithdrawal(f.Ctx, commandstest.Meta("member"), m, funds.WithdrawalInput{Amount: "358.01", CardID: card, FundPassword: "123456"})
	commandstest.WantKey(t, err, commands.KeyInsufficientWithdrawable)
	_, err = f.Funds.RequestWithdrawal(f.Ctx, commandstest.Meta("member"), m, funds.WithdrawalInput{Amount: "1000", CardID: card, FundPassword: "123456"})
	commandstest.WantKey(t, err, commands.KeyInsufficientWithdrawable)
	_, err = f.Funds.RequestWithdrawal(f.Ctx, commandstest.Meta("member"), m, funds.WithdrawalInput{Amount: "200000", CardID: card, FundPassword: "123456"})
	commandstest.WantKey(t, err, commands.KeyInsufficientBalance)
	_, err = f.Funds.RequestWithdrawal(f.Ctx, commandstest.Meta("member"), m, funds.WithdrawalInput{Amount: "358", CardID: card, FundPassword: "123456"})
	f.Must(err)
	f.Clock.Add(48 * time.Hour)
	_, err = f.Funds.RequestWithdrawal(f.Ctx, commandstest.Meta("member"), m, funds.WithdrawalInput{Amount: "1000", CardID: card, FundPassword: "123456"})
	commandstest.WantKey(t, err, commands.KeyFundOperationPending) // the proceeds settled; the first withdrawal still waits for ops
}
