package commands

import (
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/lotbook/lotbook/commands/fx"
	"github.com/lotbook/lotbook/commands/rules/fees"
	"github.com/lotbook/lotbook/commands/rules/matching"
	"github.com/lotbook/lotbook/events"
)

// Trading against the store with a scripted market: every figure below is computed by hand from
// market-rules.md (commission 0.1425 % down to whole NT$, minimum NT$20 / NT$1; tax 0.3 %, 0.15 %
// day trade, down to whole NT$; financing to 60 % in whole thousands; short margin ≥ 90 %).

func lv(price string, size int64) matching.Level { return matching.Level{Price: d(price), Size: size} }

// mkt is a continuous session of stock 1101 at last price 100 (band 90 to 110) with the given book.
func mkt(last string, bids, asks []matching.Level) Market {
	return Market{Symbol: "1101", Name: "台泥", Kind: fees.Stock, Phase: "continuous", OddLot: "intraday", TradingDay: "2026-11-23",
		Quote: MarketQuote{Last: d(last), LimitUp: d("110"), LimitDown: d("90"), Bids: bids, Asks: asks, Time: t0},
		CheckPrice: func(p decimal.Decimal) string {
			if p.GreaterThan(d("110")) || p.LessThan(d("90")) {
				return KeyPriceOutOfBand
			}
			if !p.Mod(d("0.5")).IsZero() && p.GreaterThanOrEqual(d("100")) {
				return KeyPriceNotOnTick
			}
			return ""
		}}
}

// trader registers a member with 1,000,000 TWD.
func (f *fixture) trader(account string) string {
	f.t.Helper()
	s := f.register(account, "LOTBOOK")
	o := f.deposit(s.MemberID, "1000000")
	_, err := f.svc.ApproveDeposit(f.ctx, meta("ops:ops"), ReviewOrder{MemberID: s.MemberID, OrderNo: o.OrderNo, Remark: ""})
	f.must(err)
	return s.MemberID
}

func tradingFixture(t *testing.T) (*fixture, string) {
	f := newFixture(t)
	f.seed(true)
	return f, f.trader("0912345678")
}

func (f *fixture) balance(memberID string) Balance {
	f.t.Helper()
	b, err := View(f.ctx, f.svc, events.AccountStream(memberID), func(a *Account, _ *Entry) Balance { return a.Balances[TWD] })
	f.must(err)
	return b
}

func (f *fixture) wantCash(memberID, available, frozen string) {
	f.t.Helper()
	if b := f.balance(memberID); !b.Available.Equal(d(available)) || !b.Frozen.Equal(d(frozen)) {
		f.t.Fatalf("cash available %s frozen %s, want %s %s", b.Available, b.Frozen, available, frozen)
	}
}

func (f *fixture) position(memberID, id string) tradePosition {
	f.t.Helper()
	p, err := View(f.ctx, f.svc, events.AccountStream(memberID), func(a *Account, _ *Entry) tradePosition {
		if p := tradingPart.Of(a).positions[id]; p != nil {
			return *p
		}
		return tradePosition{}
	})
	f.must(err)
	return p
}

func (f *fixture) fills(orderNo string) []events.OrderFilled {
	var out []events.OrderFilled
	for _, r := range f.checkLog() {
		p, err := events.DecodeRecorded(r)
		f.must(err)
		if e, ok := p.(events.OrderFilled); ok && e.OrderNo == orderNo {
			out = append(out, e)
		}
	}
	return out
}

func TestMarketBuyWalksTheBookAndSellPaysDayTradeTax(t *testing.T) {
	f, m := tradingFixture(t)
	book := mkt("100", []matching.Level{lv("99.5", 3000)}, []matching.Level{lv("100", 1000), lv("100.5", 2000)})
	buy, err := f.svc.PlaceOrder(f.ctx, meta("member"), m, OrderInput{Symbol: "1101", Direction: "long", Type: "market", Lots: 2}, book)
	f.must(err)
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

	sell, err := f.svc.ClosePosition(f.ctx, meta("member"), ClosePosition{MemberID: m, PositionID: buy.PositionID, Close: CloseInput{Type: "market"}, Market: mkt("101", []matching.Level{lv("101", 5000)}, []matching.Level{lv("101.5", 5000)})})
	f.must(err)
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
	// T+2: the proceeds trade at once but are withdrawable from 25 November.
	w, err := View(f.ctx, f.svc, events.AccountStream(m), func(a *Account, _ *Entry) [2]decimal.Decimal {
		return [2]decimal.Decimal{withdrawable(a, TWD, f.clock.now()), withdrawable(a, TWD, f.clock.now().Add(48*time.Hour))}
	})
	f.must(err)
	if !w[0].Equal(d("799215")) || !w[1].Equal(d("1000625")) {
		t.Fatalf("withdrawable now %s, on settlement %s", w[0], w[1])
	}
}

func TestLimitOrderRestsFillsInPartsAndCancelReleases(t *testing.T) {
	f, m := tradingFixture(t)
	o, err := f.svc.PlaceOrder(f.ctx, meta("member"), m, OrderInput{Symbol: "1101", Direction: "long", Type: "limit", Lots: 3, Price: "99"},
		mkt("100", nil, []matching.Level{lv("100", 9000)}))
	f.must(err)
	// 297,000 + commission 423.225 -> 423 frozen.
	if o.Status != OrderPending || o.Filled != 0 {
		t.Fatalf("order %+v", o)
	}
	f.wantCash(m, "702577", "297423")
	fill := func(seq string, asks ...matching.Level) TradeResult {
		r, err := f.svc.FillOrder(f.ctx, Meta{CommandID: o.OrderNo + "/fill/" + seq, Actor: "system"}, FillOrder{MemberID: m, OrderNo: o.OrderNo, Market: mkt("99", nil, asks)})
		f.must(err)
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
	c, err := f.svc.CancelOrder(f.ctx, meta("member"), CancelOrder{MemberID: m, OrderNo: o.OrderNo})
	f.must(err)
	if c.Status != OrderCancelled {
		t.Fatalf("cancel %+v", c)
	}
	f.wantCash(m, "802219", "0")
	if p := f.position(m, o.OrderNo); p.status() != PositionHolding || p.shares != 2000 || !p.basis.Equal(d("197781")) {
		t.Fatalf("position %+v", p)
	}
	_, err = f.svc.CancelOrder(f.ctx, meta("member"), CancelOrder{MemberID: m, OrderNo: o.OrderNo})
	wantKey(t, err, KeyOrderNotPending)
	_, err = f.svc.CancelOrder(f.ctx, meta("member"), CancelOrder{MemberID: m, OrderNo: "T000"})
	wantKey(t, err, KeyOrderNotFound)
}

func TestMarginLongAndShortRoundTrips(t *testing.T) {
	f, m := tradingFixture(t)
	long, err := f.svc.PlaceOrder(f.ctx, meta("member"), m, OrderInput{Symbol: "1101", Direction: "long", Type: "limit", Lots: 2, Price: "100", Leverage: "2.5"},
		mkt("100", nil, []matching.Level{lv("100", 5000)}))
	f.must(err)
	// 200,000: loan 120,000, the member pays 80,000 + commission 285.
	if fl := f.fills(long.OrderNo); len(fl) != 1 || !fl[0].Loan.Equal(d("120000")) || !fl[0].Cash.Equal(d("-80285")) {
		t.Fatalf("margin buy %+v", fl)
	}
	f.wantCash(m, "919715", "0")
	_, err = f.svc.ClosePosition(f.ctx, meta("member"), ClosePosition{MemberID: m, PositionID: long.PositionID, Close: CloseInput{Type: "market"}, Market: mkt("95", []matching.Level{lv("95", 5000)}, nil)})
	f.must(err)
	// 190,000 - 270 commission - 285 day-trade tax - 120,000 loan = 69,445; loss 10,840.
	f.wantCash(m, "989160", "0")
	if p := f.position(m, long.PositionID); !p.realised.Equal(d("-10840")) || !p.loan.IsZero() {
		t.Fatalf("margin long closed %+v", p)
	}

	short, err := f.svc.PlaceOrder(f.ctx, meta("member"), m, OrderInput{Symbol: "1101", Direction: "short", Type: "market", Lots: 1, Leverage: "1.11"},
		mkt("100", []matching.Level{lv("100", 2000)}, nil))
	f.must(err)
	// 100,000 sold: commission 142, tax 300; margin 90,091 (90,090.09 up) from the 99,101 frozen at limit-up.
	if fl := f.fills(short.OrderNo); len(fl) != 1 || !fl[0].Margin.Equal(d("90091")) || !fl[0].Basis.Equal(d("99558")) {
		t.Fatalf("short sale %+v", fl)
	}
	f.wantCash(m, "899069", "0")
	cover, err := f.svc.ClosePosition(f.ctx, meta("member"), ClosePosition{MemberID: m, PositionID: short.PositionID, Close: CloseInput{Type: "market"}, Market: mkt("98", nil, []matching.Level{lv("98", 5000)})})
	f.must(err)
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
		_, err := f.svc.PlaceOrder(f.ctx, meta("member"), m, in, mk)
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
		{"no quantity", OrderInput{Symbol: "1101", Direction: "long", Type: "market"}, book, KeyQuantityRequired},
		{"lots and shares", OrderInput{Symbol: "1101", Direction: "long", Type: "market", Lots: 1, Shares: 5}, book, KeyQuantityInvalid},
		{"500 lots", OrderInput{Symbol: "1101", Direction: "long", Type: "market", Lots: 500}, book, KeyQuantityInvalid},
		{"no limit price", OrderInput{Symbol: "1101", Direction: "long", Type: "limit", Lots: 1}, book, KeyPriceRequired},
		{"zero limit price", OrderInput{Symbol: "1101", Direction: "long", Type: "limit", Lots: 1, Price: "0"}, book, KeyPriceInvalid},
		{"three decimals", OrderInput{Symbol: "1101", Direction: "long", Type: "limit", Lots: 1, Price: "99.555"}, book, KeyPriceInvalid},
		{"outside the band", OrderInput{Symbol: "1101", Direction: "long", Type: "limit", Lots: 1, Price: "111"}, book, KeyPriceOutOfBand},
		// Prices and leverage share the strict grammar of amounts: what decimal.NewFromString
		// would read as 100 or 1.5 is still refused.
		{"price exponent", OrderInput{Symbol: "1101", Direction: "long", Type: "limit", Lots: 1, Price: "1e2"}, book, KeyPriceInvalid},
		{"price plus sign", OrderInput{Symbol: "1101", Direction: "long", Type: "limit", Lots: 1, Price: "+100"}, book, KeyPriceInvalid},
		{"price with space", OrderInput{Symbol: "1101", Direction: "long", Type: "limit", Lots: 1, Price: " 100"}, book, KeyPriceInvalid},
		{"price trailing zeros", OrderInput{Symbol: "1101", Direction: "long", Type: "limit", Lots: 1, Price: "100.000"}, book, KeyPriceInvalid},
		{"price trailing point", OrderInput{Symbol: "1101", Direction: "long", Type: "limit", Lots: 1, Price: "100."}, book, KeyPriceInvalid},
		{"price leading point", OrderInput{Symbol: "1101", Direction: "long", Type: "limit", Lots: 1, Price: ".5"}, book, KeyPriceInvalid},
		{"leverage exponent", OrderInput{Symbol: "1101", Direction: "long", Type: "market", Lots: 1, Leverage: "15e-1"}, book, KeyLeverageInvalid},
		{"leverage plus sign", OrderInput{Symbol: "1101", Direction: "long", Type: "market", Lots: 1, Leverage: "+2"}, book, KeyLeverageInvalid},
		{"leverage with space", OrderInput{Symbol: "1101", Direction: "long", Type: "market", Lots: 1, Leverage: "2 "}, book, KeyLeverageInvalid},
		{"leverage three decimals", OrderInput{Symbol: "1101", Direction: "long", Type: "market", Lots: 1, Leverage: "1.500"}, book, KeyLeverageInvalid},
		{"off the tick", OrderInput{Symbol: "1101", Direction: "long", Type: "limit", Lots: 1, Price: "100.1"}, book, KeyPriceNotOnTick},
		{"leverage 3", OrderInput{Symbol: "1101", Direction: "long", Type: "market", Lots: 1, Leverage: "3"}, book, KeyLeverageInvalid},
		{"short leverage 2", OrderInput{Symbol: "1101", Direction: "short", Type: "market", Lots: 1, Leverage: "2"}, book, KeyLeverageInvalid},
		{"odd lot short", OrderInput{Symbol: "1101", Direction: "short", Type: "market", Shares: 10}, book, KeyOddLotCashOnly},
		{"odd-lot day trade", OrderInput{Symbol: "1101", Direction: "long", Type: "market", Shares: 10, DayTrade: true}, book, KeyDayTradeBoardLotOnly},
		{"market closed", OrderInput{Symbol: "1101", Direction: "long", Type: "limit", Lots: 1, Price: "100"}, closed, KeyNotTradingTime},
		{"no price", OrderInput{Symbol: "1101", Direction: "long", Type: "market", Lots: 1}, noPrice, KeyPriceNotObtained},
		{"unknown symbol", OrderInput{Symbol: "9999", Direction: "long", Type: "market", Lots: 1}, unknown, KeySymbolNotFound},
		{"more than the cash", OrderInput{Symbol: "1101", Direction: "long", Type: "limit", Lots: 11, Price: "100"}, book, KeyInsufficientBalance},
	}
	before := len(f.all())
	for _, c := range cases {
		err := place(c.in, c.mk)
		if e, ok := AsError(err); !ok || e.Key != c.key {
			t.Errorf("%s: %v, want %s", c.name, err, c.key)
		}
	}
	if after := len(f.all()); after != before {
		t.Fatalf("refused orders wrote %d events", after-before)
	}
	pre := book
	pre.Phase = "pre_open"
	_, err := f.svc.PlaceOrder(f.ctx, meta("member"), m, OrderInput{Symbol: "1101", Direction: "long", Type: "market", Lots: 1}, pre)
	wantKey(t, err, KeyNotTradingTime) // market orders only while the market matches
	_, err = f.svc.SetAccountFlag(f.ctx, meta("ops:ops"), SetFlag{Account: "0912345678", Flag: events.FlagTradeBanned, On: true, Reason: "review"})
	f.must(err)
	err = place(OrderInput{Symbol: "1101", Direction: "long", Type: "market", Lots: 1}, book)
	wantKey(t, err, KeyTradeBanned)
	if e, _ := AsError(err); e.Kind != KindForbidden {
		t.Fatalf("trade_banned is %v", e.Kind)
	}
}

func TestOddLotAndIdempotentReplay(t *testing.T) {
	f, m := tradingFixture(t)
	book := mkt("100", nil, []matching.Level{lv("100", 1000)})
	mt := meta("member")
	a, err := f.svc.PlaceOrder(f.ctx, mt, m, OrderInput{Symbol: "1101", Direction: "long", Type: "limit", Shares: 10, Price: "100"}, book)
	f.must(err)
	b, err := f.svc.PlaceOrder(f.ctx, mt, m, OrderInput{Symbol: "1101", Direction: "long", Type: "limit", Shares: 10, Price: "100"}, book)
	f.must(err)
	if a.OrderNo != b.OrderNo || a.Position != b.Position || a.Status != OrderFilled {
		t.Fatalf("replay %+v vs %+v", a, b)
	}
	if n := count(f.all(), "OrderPlaced"); n != 1 {
		t.Fatalf("%d orders placed", n)
	}
	// 1,000 plus the odd-lot minimum commission of NT$1 (1.425 -> 1).
	f.wantCash(m, "998999", "0")
	_, err = f.svc.ClosePosition(f.ctx, meta("member"), ClosePosition{MemberID: m, PositionID: a.PositionID, Close: CloseInput{Lots: 1, Type: "market"}, Market: book})
	wantKey(t, err, KeyCloseQuantityInvalid)
	_, err = f.svc.ClosePosition(f.ctx, meta("member"), ClosePosition{MemberID: m, PositionID: "T1", Close: CloseInput{Type: "market"}, Market: book})
	wantKey(t, err, KeyPositionNotFound)
}

func TestProceedsWithdrawableOnSettlement(t *testing.T) {
	f := fundsFixture(t)
	m := f.verified("0912345678", "A123456789", "100500")
	card := f.card(m, "0123-4567-8901")
	buy, err := f.svc.PlaceOrder(f.ctx, meta("member"), m, OrderInput{Symbol: "1101", Direction: "long", Type: "limit", Lots: 1, Price: "100"},
		mkt("100", nil, []matching.Level{lv("100", 1000)}))
	f.must(err)
	_, err = f.svc.ClosePosition(f.ctx, meta("member"), ClosePosition{MemberID: m, PositionID: buy.PositionID, Close: CloseInput{Type: "market"}, Market: mkt("100", []matching.Level{lv("100", 1000)}, nil)})
	f.must(err)
	// Bought 100,000 + 142; sold 100,000 - 142 - 150: available 100,066, of which 99,708 settle on
	// 25 November: 358 withdrawable until then.
	f.wantCash(m, "100066", "0")
	// The figure the withdraw screen shows is the one the decision checks.
	w, err := f.svc.Withdrawable(f.ctx, m)
	f.must(err)
	if !w[TWD].Equal(d("358")) || !w["USD"].IsZero() || len(w) != len(fx.Currencies) {
		t.Fatalf("withdrawable %v", w)
	}
	_, err = f.svc.RequestWithdrawal(f.ctx, meta("member"), m, WithdrawalInput{Amount: "358.01", CardID: card, FundPassword: "123456"})
	wantKey(t, err, KeyInsufficientWithdrawable)
	_, err = f.svc.RequestWithdrawal(f.ctx, meta("member"), m, WithdrawalInput{Amount: "1000", CardID: card, FundPassword: "123456"})
	wantKey(t, err, KeyInsufficientWithdrawable)
	_, err = f.svc.RequestWithdrawal(f.ctx, meta("member"), m, WithdrawalInput{Amount: "200000", CardID: card, FundPassword: "123456"})
	wantKey(t, err, KeyInsufficientBalance)
	_, err = f.svc.RequestWithdrawal(f.ctx, meta("member"), m, WithdrawalInput{Amount: "358", CardID: card, FundPassword: "123456"})
	f.must(err)
	f.clock.add(48 * time.Hour)
	_, err = f.svc.RequestWithdrawal(f.ctx, meta("member"), m, WithdrawalInput{Amount: "1000", CardID: card, FundPassword: "123456"})
	wantKey(t, err, KeyFundOperationPending) // the proceeds settled; the first withdrawal still waits for ops
}

func TestRuleClosesAndLockRules(t *testing.T) {
	f := newFixture(t, func(o *Options) { o.Trading = TradingRules{LockMinutes: 5, HoldDays: 1} })
	f.seed(true)
	m := f.trader("0912345678")
	book := mkt("100", []matching.Level{lv("100", 5000)}, []matching.Level{lv("100", 5000)})
	p, err := f.svc.PlaceOrder(f.ctx, meta("member"), m, OrderInput{Symbol: "1101", Direction: "long", Type: "market", Lots: 1}, book)
	f.must(err)
	_, err = f.svc.ClosePosition(f.ctx, meta("member"), ClosePosition{MemberID: m, PositionID: p.PositionID, Close: CloseInput{Type: "market"}, Market: book})
	wantKey(t, err, KeyPositionLocked)
	f.clock.add(10 * time.Minute)
	_, err = f.svc.ClosePosition(f.ctx, meta("member"), ClosePosition{MemberID: m, PositionID: p.PositionID, Close: CloseInput{Type: "market"}, Market: book})
	wantKey(t, err, KeySaleNotAllowedYet)
	next := book
	next.TradingDay = "2026-11-24"
	_, err = f.svc.ClosePosition(f.ctx, meta("member"), ClosePosition{MemberID: m, PositionID: p.PositionID, Close: CloseInput{Type: "limit", Price: "101"}, Market: next})
	f.must(err)
	if pos := f.position(m, p.PositionID); pos.status() != PositionClosing {
		t.Fatalf("status %s", pos.status())
	}
	_, err = f.svc.ClosePosition(f.ctx, meta("member"), ClosePosition{MemberID: m, PositionID: p.PositionID, Close: CloseInput{Type: "market"}, Market: next})
	wantKey(t, err, KeyPositionNotHolding)
}

func TestMarginCallMetAndForcedClose(t *testing.T) {
	f, m := tradingFixture(t)
	long, err := f.svc.PlaceOrder(f.ctx, meta("member"), m, OrderInput{Symbol: "1101", Direction: "long", Type: "limit", Lots: 2, Price: "100", Leverage: "2.5"},
		mkt("100", nil, []matching.Level{lv("100", 5000)}))
	f.must(err)
	at := func(last string) map[string]Market { // days later: the band has moved with the price
		v := mkt(last, []matching.Level{lv(last, 5000)}, nil)
		v.Quote.LimitDown, v.Quote.LimitUp, v.TradingDay = d("70"), d("85"), "2026-11-26"
		return map[string]Market{"1101": v}
	}
	check := func(last, want string) MarginResult {
		t.Helper()
		r, err := f.svc.MarginCheck(f.ctx, meta("system"), MarginCheck{MemberID: m, Markets: at(last)})
		f.must(err)
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
	f.clock.add(72 * time.Hour) // Thursday: past the deadline (Wednesday)
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
	dt, err := f.svc.PlaceOrder(f.ctx, meta("member"), m, OrderInput{Symbol: "1101", Direction: "long", Type: "market", Lots: 1, DayTrade: true}, book)
	f.must(err)
	plain, err := f.svc.PlaceOrder(f.ctx, meta("member"), m, OrderInput{Symbol: "1101", Direction: "long", Type: "market", Lots: 1}, book)
	f.must(err)
	r, err := f.svc.CloseByRule(f.ctx, meta("system"), CloseByRule{MemberID: m, PositionID: plain.PositionID, By: events.OrderByDayTradeClose, Market: book})
	f.must(err)
	if r.OrderNo != "" {
		t.Fatalf("closed a position that is no day trade: %+v", r)
	}
	r, err = f.svc.CloseByRule(f.ctx, meta("system"), CloseByRule{MemberID: m, PositionID: dt.PositionID, By: events.OrderByDayTradeClose, Market: book})
	f.must(err)
	fl := f.fills(r.OrderNo)
	if r.Status != OrderFilled || len(fl) != 1 || !fl[0].DayTrade || !fl[0].Tax.Equal(d("150")) {
		t.Fatalf("day-trade close %+v %+v", r, fl)
	}
	if p := f.position(m, dt.PositionID); p.status() != PositionClosed {
		t.Fatalf("day trade %+v", p)
	}
}
