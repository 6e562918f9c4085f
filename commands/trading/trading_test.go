package trading

import (
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/lotbook/lotbook/commands"
	"github.com/lotbook/lotbook/commands/commandstest"
	"github.com/lotbook/lotbook/commands/funds"
	"github.com/lotbook/lotbook/commands/rules/fees"
	"github.com/lotbook/lotbook/commands/rules/matching"
	"github.com/lotbook/lotbook/events"
)

// Trading against the store with a scripted market: every figure below is computed by hand from
// market-rules.md (commission 0.1425 % down to whole NT$, minimum NT$20 / NT$1; tax 0.3 %, 0.15 %
// day trade, down to whole NT$; financing to 60 % in whole thousands; short margin ≥ 90 %).

var d = decimal.RequireFromString

func lv(price string, size int64) matching.Level { return matching.Level{Price: d(price), Size: size} }

// mkt is a continuous session of stock 1101 at last price 100 (band 90 to 110) with the given book.
func mkt(last string, bids, asks []matching.Level) Market {
	return Market{Symbol: "1101", Name: "台泥", Kind: fees.Stock, Phase: "continuous", OddLot: "intraday", TradingDay: "2026-11-23",
		Quote: MarketQuote{Last: d(last), LimitUp: d("110"), LimitDown: d("90"), Bids: bids, Asks: asks, Time: commandstest.T0},
		CheckPrice: func(p decimal.Decimal) string {
			if p.GreaterThan(d("110")) || p.LessThan(d("90")) {
				return commands.KeyPriceOutOfBand
			}
			if !p.Mod(d("0.5")).IsZero() && p.GreaterThanOrEqual(d("100")) {
				return commands.KeyPriceNotOnTick
			}
			return ""
		}}
}

// fixture is the kernel's test bed with trading's commands, and funds' to fund traders.
type fixture struct {
	*commandstest.Fixture
	tr    *Commands
	funds *funds.Commands
}

// newFixture is trading over a fresh SQLite store (over store when given), with the platform's
// members and an always-open bank deposit channel.
func newFixture(t testing.TB, rules TradingRules, store ...events.Store) *fixture {
	var base *commandstest.Fixture
	if len(store) > 0 {
		base = commandstest.Over(t, store[0])
	} else {
		base = commandstest.New(t)
	}
	f := &fixture{Fixture: base, tr: New(base.Svc, rules), funds: funds.New(base.Svc)}
	f.SeedMembers()
	_, err := f.funds.ConfigureDepositChannel(f.Ctx, commandstest.Meta("system"), funds.ChannelInput{ID: "bank", Name: "Bank transfer", Currency: "TWD",
		Min: "1000", Max: "1000000", Password: "8888", Window: events.TimeWindow{AlwaysOpen: true}, Enabled: true})
	f.Must(err)
	return f
}

// trader registers a member with 1,000,000 TWD.
func (f *fixture) trader(account string) string {
	f.T.Helper()
	s := f.Register(account, "LOTBOOK")
	o, err := f.funds.RequestDeposit(f.Ctx, commandstest.Meta("member"), s.MemberID, funds.DepositInput{ChannelID: "bank", Amount: "1000000",
		ProofFileID: f.Upload(s.MemberID), ChannelPassword: "8888"})
	f.Must(err)
	_, err = f.funds.ApproveDeposit(f.Ctx, commandstest.Meta("ops:ops"), funds.ReviewOrder{MemberID: s.MemberID, OrderNo: o.OrderNo, Remark: ""})
	f.Must(err)
	return s.MemberID
}

func tradingFixture(t *testing.T) (*fixture, string) {
	f := newFixture(t, TradingRules{})
	return f, f.trader("0912345678")
}

func (f *fixture) balance(memberID string) commands.Balance {
	f.T.Helper()
	b, err := commands.View(f.Ctx, f.Svc, events.AccountStream(memberID), func(a *commands.Account, _ *commands.Entry) commands.Balance { return a.Balances[TWD] })
	f.Must(err)
	return b
}

func (f *fixture) wantCash(memberID, available, frozen string) {
	f.T.Helper()
	if b := f.balance(memberID); !b.Available.Equal(d(available)) || !b.Frozen.Equal(d(frozen)) {
		f.T.Fatalf("cash available %s frozen %s, want %s %s", b.Available, b.Frozen, available, frozen)
	}
}

func (f *fixture) position(memberID, id string) tradePosition {
	f.T.Helper()
	p, err := commands.View(f.Ctx, f.Svc, events.AccountStream(memberID), func(a *commands.Account, _ *commands.Entry) tradePosition {
		if p := tradingPart.Of(a).positions[id]; p != nil {
			return *p
		}
		return tradePosition{}
	})
	f.Must(err)
	return p
}

func (f *fixture) fills(orderNo string) []events.OrderFilled {
	var out []events.OrderFilled
	for _, r := range f.CheckLog() {
		p, err := events.DecodeRecorded(r)
		f.Must(err)
		if e, ok := p.(events.OrderFilled); ok && e.OrderNo == orderNo {
			out = append(out, e)
		}
	}
	return out
}

// A holding bought outside the order book (a block trade, a chip grab) and sold the same day is
// no day trade (market-rules 1e): the sale pays the ordinary 0.3 % tax, not the day-trade 0.15 %.
func TestSameDaySaleOfAnOffBookHoldingPaysTheOrdinaryTax(t *testing.T) {
	for _, by := range []string{events.OrderByBlock, events.OrderByChipGrab} {
		t.Run(by, func(t *testing.T) {
			f, m := tradingFixture(t)
			c, err := f.Svc.Begin(commandstest.Meta("ops:ops"), "test.bought")
			f.Must(err)
			_, err = commands.Execute(f.Ctx, f.Svc, c, events.AccountStream(m), func(a *commands.Account) ([]events.Payload, error) {
				return commands.Bought(a, commands.Purchase{OrderNo: "B-" + by, Symbol: "1101", Name: "台泥", Kind: fees.Stock.String(), By: by,
					Price: d("100"), Shares: 2000}, c.Now), nil
			})
			f.Must(err)
			sell, err := f.tr.ClosePosition(f.Ctx, commandstest.Meta("member"), ClosePosition{MemberID: m, PositionID: "B-" + by, Close: CloseInput{Type: "market"},
				Market: mkt("101", []matching.Level{lv("101", 5000)}, []matching.Level{lv("101.5", 5000)})})
			f.Must(err)
			// 202,000 sold: tax 0.3 % = 606 (a day trade would pay 303).
			sf := f.fills(sell.OrderNo)
			if sell.Status != OrderFilled || len(sf) != 1 || !sf[0].Tax.Equal(d("606")) || sf[0].DayTrade {
				t.Fatalf("sell %+v %+v", sell, sf)
			}
		})
	}
}

func TestMarketBuyWalksTheBookAndSellPaysDayTradeTax(t *testing.T) {
	f, m := tradingFixture(t)
	book := mkt("100", []matching.Level{lv("99.5", 3000)}, []matching.Level{lv("100", 1000), lv("100.5", 2000)})
	buy, err := f.tr.PlaceOrder(f.Ctx, commandstest.Meta("member"), m, OrderInput{Symbol: "1101", Direction: "long", Type: "market", Lots: 2}, book)
	f.Must(err)
	// 1,000 at 100 and 1,000 at 100.5: 200,500; commission 285.7125 -> 285.
	if buy.Status != OrderFilled || buy.Filled != 2000 || buy.PositionID != buy.OrderNo {
		t.Fatalf("buy %+v", buy)
	}
	fl := f.fills(buy.OrderNo)
	if len(fl) != 1 || len(fl[0].Executions) != 2 || !fl[0].Amount.Equal(d("200500")) || !fl[0].Commission.Equal(d("285")) ||
		!fl[0].Quote.Last.Equal(d("100")) || len(fl[0].Quote.Asks) != 2 {
		t.Fatalf("fill %+v", fl)
	}
	f.wantCash(m, "799215", "0") // the protective reservation (207,294) released all but 200,785

	sell, err := f.tr.ClosePosition(f.Ctx, commandstest.Meta("member"), ClosePosition{MemberID: m, PositionID: buy.PositionID, Close: CloseInput{Type: "market"}, Market: mkt("101", []matching.Level{lv("101", 5000)}, []matching.Level{lv("101.5", 5000)})})
	f.Must(err)
	// 202,000; commission 287.85 -> 287; day-trade tax 0.15 % = 303; net 201,410; profit 625.
	sf := f.fills(sell.OrderNo)
	if sell.Status != OrderFilled || len(sf) != 1 || !sf[0].Commission.Equal(d("287")) || !sf[0].Tax.Equal(d("303")) || !sf[0].DayTrade ||
		!sf[0].Cash.Equal(d("201410")) || !sf[0].Profit.Equal(d("625")) || sf[0].SettleDate != "2026-11-25" {
		t.Fatalf("sell %+v %+v", sell, sf)
	}
	f.wantCash(m, "1000625", "0")
	if p := f.position(m, buy.PositionID); p.status() != PositionClosed || !p.realised.Equal(d("625")) || !p.basis.IsZero() {
		t.Fatalf("position %+v", p)
	}
	// T+2: the proceeds trade at once but are withdrawable from 25 November: trading keeps them
	// from withdrawal until then (the account shell's question to its parts).
	w, err := commands.View(f.Ctx, f.Svc, events.AccountStream(m), func(a *commands.Account, _ *commands.Entry) [2]decimal.Decimal {
		free := func(at time.Time) decimal.Decimal {
			return a.Balances[TWD].Available.Sub(a.HeldFromWithdrawal(TWD, at))
		}
		return [2]decimal.Decimal{free(f.Clock.Now()), free(f.Clock.Now().Add(48 * time.Hour))}
	})
	f.Must(err)
	if !w[0].Equal(d("799215")) || !w[1].Equal(d("1000625")) {
		t.Fatalf("withdrawable now %s, on settlement %s", w[0], w[1])
	}
}

func TestLimitOrderRestsFillsInPartsAndCancelReleases(t *testing.T) {
	f, m := tradingFixture(t)
	o, err := f.tr.PlaceOrder(f.Ctx, commandstest.Meta("member"), m, OrderInput{Symbol: "1101", Direction: "long", Type: "limit", Lots: 3, Price: "99"},
		mkt("100", nil, []matching.Level{lv("100", 9000)}))
	f.Must(err)
	// 297,000 + commission 423.225 -> 423 frozen.
	if o.Status != OrderPending || o.Filled != 0 {
		t.Fatalf("order %+v", o)
	}
	f.wantCash(m, "702577", "297423")
	fill := func(seq string, asks ...matching.Level) TradeResult {
		r, err := f.tr.FillOrder(f.Ctx, commands.Meta{CommandID: o.OrderNo + "/fill/" + seq, Actor: "system"}, FillOrder{MemberID: m, OrderNo: o.OrderNo, Market: mkt("99", nil, asks)})
		f.Must(err)
		return r
	}
	if r := fill("1", lv("99.5", 5000)); r.Filled != 0 || r.Status != "" {
		t.Fatalf("a book above the limit filled %+v", r)
	}
	r := fill("1", lv("99", 1000), lv("99.5", 5000)) // 99,000 + 141 (141.075)
	if r.Status != OrderPartial || r.Filled != 1000 {
		t.Fatalf("first part %+v", r)
	}
	if again := fill("1", lv("99", 1000)); again.Filled != 1000 || again.Position != r.Position {
		t.Fatalf("a retried fill applied again: %+v vs %+v", again, r)
	}
	fill("2", lv("98.5", 1000)) // 98,500; commission of 197,500 is 281 (281.4375): 140 more
	f.wantCash(m, "702577", "99642")
	c, err := f.tr.CancelOrder(f.Ctx, commandstest.Meta("member"), CancelOrder{MemberID: m, OrderNo: o.OrderNo})
	f.Must(err)
	if c.Status != OrderCancelled {
		t.Fatalf("cancel %+v", c)
	}
	f.wantCash(m, "802219", "0")
	if p := f.position(m, o.OrderNo); p.status() != PositionHolding || p.shares != 2000 || !p.basis.Equal(d("197781")) {
		t.Fatalf("position %+v", p)
	}
	_, err = f.tr.CancelOrder(f.Ctx, commandstest.Meta("member"), CancelOrder{MemberID: m, OrderNo: o.OrderNo})
	commandstest.WantKey(t, err, commands.KeyOrderNotPending)
	_, err = f.tr.CancelOrder(f.Ctx, commandstest.Meta("member"), CancelOrder{MemberID: m, OrderNo: "T000"})
	commandstest.WantKey(t, err, commands.KeyOrderNotFound)
}

// marginLong buys m two lots of 1101 at 100 on 2.5x margin, filled at once.
func (f *fixture) marginLong(m string) TradeResult {
	long, err := f.tr.PlaceOrder(f.Ctx, commandstest.Meta("member"), m, OrderInput{Symbol: "1101", Direction: "long", Type: "limit", Lots: 2, Price: "100", Leverage: "2.5"},
		mkt("100", nil, []matching.Level{lv("100", 5000)}))
	f.Must(err)
	return long
}

func TestMarginLongAndShortRoundTrips(t *testing.T) {
	f, m := tradingFixture(t)
	long := f.marginLong(m)
	// 200,000: loan 120,000, the member pays 80,000 + commission 285.
	if fl := f.fills(long.OrderNo); len(fl) != 1 || !fl[0].Loan.Equal(d("120000")) || !fl[0].Cash.Equal(d("-80285")) {
		t.Fatalf("margin buy %+v", fl)
	}
	f.wantCash(m, "919715", "0")
	_, err := f.tr.ClosePosition(f.Ctx, commandstest.Meta("member"), ClosePosition{MemberID: m, PositionID: long.PositionID, Close: CloseInput{Type: "market"}, Market: mkt("95", []matching.Level{lv("95", 5000)}, nil)})
	f.Must(err)
	// 190,000 - 270 commission - 285 day-trade tax - 120,000 loan = 69,445; loss 10,840.
	f.wantCash(m, "989160", "0")
	if p := f.position(m, long.PositionID); !p.realised.Equal(d("-10840")) || !p.loan.IsZero() {
		t.Fatalf("margin long closed %+v", p)
	}

	short, err := f.tr.PlaceOrder(f.Ctx, commandstest.Meta("member"), m, OrderInput{Symbol: "1101", Direction: "short", Type: "market", Lots: 1, Leverage: "1.11"},
		mkt("100", []matching.Level{lv("100", 2000)}, nil))
	f.Must(err)
	// 100,000 sold: commission 142, tax 300; margin 90,091 (90,090.09 up) from the 99,101 frozen at limit-up.
	if fl := f.fills(short.OrderNo); len(fl) != 1 || !fl[0].Margin.Equal(d("90091")) || !fl[0].Basis.Equal(d("99558")) {
		t.Fatalf("short sale %+v", fl)
	}
	f.wantCash(m, "899069", "0")
	cover, err := f.tr.ClosePosition(f.Ctx, commandstest.Meta("member"), ClosePosition{MemberID: m, PositionID: short.PositionID, Close: CloseInput{Type: "market"}, Market: mkt("98", nil, []matching.Level{lv("98", 5000)})})
	f.Must(err)
	// Collateral 189,649 less 98,000 and commission 139 back to the member: 91,510; profit 1,419.
	if fl := f.fills(cover.OrderNo); len(fl) != 1 || !fl[0].Cash.Equal(d("91510")) || !fl[0].Profit.Equal(d("1419")) {
		t.Fatalf("cover %+v", fl)
	}
	f.wantCash(m, "990579", "0") // 989,160 + 1,419
}

func TestOrderRefusals(t *testing.T) {
	f, m := tradingFixture(t)
	book := mkt("100", []matching.Level{lv("99.5", 3000)}, []matching.Level{lv("100", 1000)})
	place := func(in OrderInput, mk Market) error {
		_, err := f.tr.PlaceOrder(f.Ctx, commandstest.Meta("member"), m, in, mk)
		return err
	}
	closed := book
	closed.Phase, closed.OddLot = "closed", "closed"
	noPrice := book
	noPrice.Quote.Last = decimal.Zero
	unknown := book
	unknown.Symbol = ""
	cases := []struct {
		name string
		in   OrderInput
		mk   Market
		key  string
	}{
		{"no quantity", OrderInput{Symbol: "1101", Direction: "long", Type: "market"}, book, commands.KeyQuantityRequired},
		{"lots and shares", OrderInput{Symbol: "1101", Direction: "long", Type: "market", Lots: 1, Shares: 5}, book, commands.KeyQuantityInvalid},
		{"500 lots", OrderInput{Symbol: "1101", Direction: "long", Type: "market", Lots: 500}, book, commands.KeyQuantityInvalid},
		{"no limit price", OrderInput{Symbol: "1101", Direction: "long", Type: "limit", Lots: 1}, book, commands.KeyPriceRequired},
		{"zero limit price", OrderInput{Symbol: "1101", Direction: "long", Type: "limit", Lots: 1, Price: "0"}, book, commands.KeyPriceInvalid},
		{"three decimals", OrderInput{Symbol: "1101", Direction: "long", Type: "limit", Lots: 1, Price: "99.555"}, book, commands.KeyPriceInvalid},
		{"outside the band", OrderInput{Symbol: "1101", Direction: "long", Type: "limit", Lots: 1, Price: "111"}, book, commands.KeyPriceOutOfBand},
		// Prices and leverage share the strict grammar of amounts: what decimal.NewFromString
		// would read as 100 or 1.5 is still refused.
		{"price exponent", OrderInput{Symbol: "1101", Direction: "long", Type: "limit", Lots: 1, Price: "1e2"}, book, commands.KeyPriceInvalid},
		{"price plus sign", OrderInput{Symbol: "1101", Direction: "long", Type: "limit", Lots: 1, Price: "+100"}, book, commands.KeyPriceInvalid},
		{"price with space", OrderInput{Symbol: "1101", Direction: "long", Type: "limit", Lots: 1, Price: " 100"}, book, commands.KeyPriceInvalid},
		{"price trailing zeros", OrderInput{Symbol: "1101", Direction: "long", Type: "limit", Lots: 1, Price: "100.000"}, book, commands.KeyPriceInvalid},
		{"price trailing point", OrderInput{Symbol: "1101", Direction: "long", Type: "limit", Lots: 1, Price: "100."}, book, commands.KeyPriceInvalid},
		{"price leading point", OrderInput{Symbol: "1101", Direction: "long", Type: "limit", Lots: 1, Price: ".5"}, book, commands.KeyPriceInvalid},
		{"leverage exponent", OrderInput{Symbol: "1101", Direction: "long", Type: "market", Lots: 1, Leverage: "15e-1"}, book, commands.KeyLeverageInvalid},
		{"leverage plus sign", OrderInput{Symbol: "1101", Direction: "long", Type: "market", Lots: 1, Leverage: "+2"}, book, commands.KeyLeverageInvalid},
		{"leverage with space", OrderInput{Symbol: "1101", Direction: "long", Type: "market", Lots: 1, Leverage: "2 "}, book, commands.KeyLeverageInvalid},
		{"leverage three decimals", OrderInput{Symbol: "1101", Direction: "long", Type: "market", Lots: 1, Leverage: "1.500"}, book, commands.KeyLeverageInvalid},
		{"off the tick", OrderInput{Symbol: "1101", Direction: "long", Type: "limit", Lots: 1, Price: "100.1"}, book, commands.KeyPriceNotOnTick},
		{"leverage 3", OrderInput{Symbol: "1101", Direction: "long", Type: "market", Lots: 1, Leverage: "3"}, book, commands.KeyLeverageInvalid},
		{"short leverage 2", OrderInput{Symbol: "1101", Direction: "short", Type: "market", Lots: 1, Leverage: "2"}, book, commands.KeyLeverageInvalid},
		{"odd lot short", OrderInput{Symbol: "1101", Direction: "short", Type: "market", Shares: 10}, book, commands.KeyOddLotCashOnly},
		{"odd-lot day trade", OrderInput{Symbol: "1101", Direction: "long", Type: "market", Shares: 10, DayTrade: true}, book, commands.KeyDayTradeBoardLotOnly},
		{"market closed", OrderInput{Symbol: "1101", Direction: "long", Type: "limit", Lots: 1, Price: "100"}, closed, commands.KeyNotTradingTime},
		{"no price", OrderInput{Symbol: "1101", Direction: "long", Type: "market", Lots: 1}, noPrice, commands.KeyPriceNotObtained},
		{"unknown symbol", OrderInput{Symbol: "9999", Direction: "long", Type: "market", Lots: 1}, unknown, commands.KeySymbolNotFound},
		{"more than the cash", OrderInput{Symbol: "1101", Direction: "long", Type: "limit", Lots: 11, Price: "100"}, book, commands.KeyInsufficientBalance},
	}
	before := len(f.All())
	for _, c := range cases {
		err := place(c.in, c.mk)
		if e, ok := commands.AsError(err); !ok || e.Key != c.key {
			t.Errorf("%s: %v, want %s", c.name, err, c.key)
		}
	}
	if after := len(f.All()); after != before {
		t.Fatalf("refused orders wrote %d events", after-before)
	}
	pre := book
	pre.Phase = "pre_open"
	_, err := f.tr.PlaceOrder(f.Ctx, commandstest.Meta("member"), m, OrderInput{Symbol: "1101", Direction: "long", Type: "market", Lots: 1}, pre)
	commandstest.WantKey(t, err, commands.KeyNotTradingTime) // market orders only while the market matches
	_, err = f.Svc.SetAccountFlag(f.Ctx, commandstest.Meta("ops:ops"), commands.SetFlag{Account: "0912345678", Flag: events.FlagTradeBanned, On: true, Reason: "review"})
	f.Must(err)
	err = place(OrderInput{Symbol: "1101", Direction: "long", Type: "market", Lots: 1}, book)
	commandstest.WantKey(t, err, commands.KeyTradeBanned)
	if e, _ := commands.AsError(err); e.Kind != commands.KindForbidden {
		t.Fatalf("trade_banned is %v", e.Kind)
	}
}

func TestOddLotAndIdempotentReplay(t *testing.T) {
	f, m := tradingFixture(t)
	book := mkt("100", nil, []matching.Level{lv("100", 1000)})
	mt := commandstest.Meta("member")
	a, err := f.tr.PlaceOrder(f.Ctx, mt, m, OrderInput{Symbol: "1101", Direction: "long", Type: "limit", Shares: 10, Price: "100"}, book)
	f.Must(err)
	b, err := f.tr.PlaceOrder(f.Ctx, mt, m, OrderInput{Symbol: "1101", Direction: "long", Type: "limit", Shares: 10, Price: "100"}, book)
	f.Must(err)
	if a.OrderNo != b.OrderNo || a.Position != b.Position || a.Status != OrderFilled {
		t.Fatalf("replay %+v vs %+v", a, b)
	}
	if n := commandstest.Count(f.All(), "OrderPlaced"); n != 1 {
		t.Fatalf("%d orders placed", n)
	}
	// 1,000 plus the odd-lot minimum commission of NT$1 (1.425 -> 1).
	f.wantCash(m, "998999", "0")
	_, err = f.tr.ClosePosition(f.Ctx, commandstest.Meta("member"), ClosePosition{MemberID: m, PositionID: a.PositionID, Close: CloseInput{Lots: 1, Type: "market"}, Market: book})
	commandstest.WantKey(t, err, commands.KeyCloseQuantityInvalid)
	_, err = f.tr.ClosePosition(f.Ctx, commandstest.Meta("member"), ClosePosition{MemberID: m, PositionID: "T1", Close: CloseInput{Type: "market"}, Market: book})
	commandstest.WantKey(t, err, commands.KeyPositionNotFound)
}

func TestRuleClosesAndLockRules(t *testing.T) {
	f := newFixture(t, TradingRules{LockMinutes: 5, HoldDays: 1})
	m := f.trader("0912345678")
	book := mkt("100", []matching.Level{lv("100", 5000)}, []matching.Level{lv("100", 5000)})
	p, err := f.tr.PlaceOrder(f.Ctx, commandstest.Meta("member"), m, OrderInput{Symbol: "1101", Direction: "long", Type: "market", Lots: 1}, book)
	f.Must(err)
	_, err = f.tr.ClosePosition(f.Ctx, commandstest.Meta("member"), ClosePosition{MemberID: m, PositionID: p.PositionID, Close: CloseInput{Type: "market"}, Market: book})
	commandstest.WantKey(t, err, commands.KeyPositionLocked)
	f.Clock.Add(10 * time.Minute)
	_, err = f.tr.ClosePosition(f.Ctx, commandstest.Meta("member"), ClosePosition{MemberID: m, PositionID: p.PositionID, Close: CloseInput{Type: "market"}, Market: book})
	commandstest.WantKey(t, err, commands.KeySaleNotAllowedYet)
	next := book
	next.TradingDay = "2026-11-24"
	_, err = f.tr.ClosePosition(f.Ctx, commandstest.Meta("member"), ClosePosition{MemberID: m, PositionID: p.PositionID, Close: CloseInput{Type: "limit", Price: "101"}, Market: next})
	f.Must(err)
	if pos := f.position(m, p.PositionID); pos.status() != PositionClosing {
		t.Fatalf("status %s", pos.status())
	}
	_, err = f.tr.ClosePosition(f.Ctx, commandstest.Meta("member"), ClosePosition{MemberID: m, PositionID: p.PositionID, Close: CloseInput{Type: "market"}, Market: next})
	commandstest.WantKey(t, err, commands.KeyPositionNotHolding)
}

func TestMarginCallMetAndForcedClose(t *testing.T) {
	f, m := tradingFixture(t)
	long := f.marginLong(m)
	at := func(last string) map[string]Market { // days later: the band has moved with the price
		v := mkt(last, []matching.Level{lv(last, 5000)}, nil)
		v.Quote.LimitDown, v.Quote.LimitUp, v.TradingDay = d("70"), d("85"), "2026-11-26"
		return map[string]Market{"1101": v}
	}
	check := func(last, want string) MarginResult {
		t.Helper()
		r, err := f.tr.MarginCheck(f.Ctx, commandstest.Meta("system"), MarginCheck{MemberID: m, Markets: at(last)})
		f.Must(err)
		if r.Decision != want {
			t.Fatalf("at %s: ratio %s decision %q, want %q", last, r.Ratio, r.Decision, want)
		}
		return r
	}
	// Loan 120,000 on 2,000 shares: 130 % is 78.00 a share.
	if r := check("100", ""); !r.Ratio.Equal(d("1.6666")) || !r.Owed {
		t.Fatalf("at cost %+v", r)
	}
	check("77.5", "margin_call") // 155,000 / 120,000 = 1.2916
	check("77", "")              // still called, not yet forced
	check("80", "margin_call_met")
	check("77.5", "margin_call")
	f.Clock.Add(72 * time.Hour) // Thursday: past the deadline (Wednesday)
	check("77.5", "forced_close")
	p := f.position(m, long.PositionID)
	if p.status() != PositionClosed || !p.loan.IsZero() {
		t.Fatalf("after forced close %+v", p)
	}
	// 155,000 - 220 commission - 465 tax - 120,000 loan: 34,315 back; 80,285 were paid in.
	f.wantCash(m, "954030", "0")
	if r := check("77.5", ""); r.Owed {
		t.Fatalf("nothing owed after the close: %+v", r)
	}
}

func TestDayTradeCloseByRule(t *testing.T) {
	f, m := tradingFixture(t)
	book := mkt("100", []matching.Level{lv("100", 5000)}, []matching.Level{lv("100", 5000)})
	dt, err := f.tr.PlaceOrder(f.Ctx, commandstest.Meta("member"), m, OrderInput{Symbol: "1101", Direction: "long", Type: "market", Lots: 1, DayTrade: true}, book)
	f.Must(err)
	plain, err := f.tr.PlaceOrder(f.Ctx, commandstest.Meta("member"), m, OrderInput{Symbol: "1101", Direction: "long", Type: "market", Lots: 1}, book)
	f.Must(err)
	r, err := f.tr.CloseByRule(f.Ctx, commandstest.Meta("system"), CloseByRule{MemberID: m, PositionID: plain.PositionID, By: events.OrderByDayTradeClose, Market: book})
	f.Must(err)
	if r.OrderNo != "" {
		t.Fatalf("closed a position that is no day trade: %+v", r)
	}
	r, err = f.tr.CloseByRule(f.Ctx, commandstest.Meta("system"), CloseByRule{MemberID: m, PositionID: dt.PositionID, By: events.OrderByDayTradeClose, Market: book})
	f.Must(err)
	fl := f.fills(r.OrderNo)
	if r.Status != OrderFilled || len(fl) != 1 || !fl[0].DayTrade || !fl[0].Tax.Equal(d("150")) {
		t.Fatalf("day-trade close %+v %+v", r, fl)
	}
	if p := f.position(m, dt.PositionID); p.status() != PositionClosed {
		t.Fatalf("day trade %+v", p)
	}
}
