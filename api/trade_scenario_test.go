package api

import (
	"context"
	"github.com/lotbook/lotbook/api/httpx"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"

	"github.com/lotbook/lotbook/api/wire"
	"github.com/lotbook/lotbook/commands"
	"github.com/lotbook/lotbook/market"
	"github.com/lotbook/lotbook/market/rules"
)

// Trading scenarios over HTTP on SQLite and PostgreSQL. The market is driven by the test: a
// scripted wrapper gives the traded symbol a fixed reference price (so the day's band and tick
// checks are the exchange's rules on known numbers) and the book the test sets; the engine sees a
// quote update only when the test sends one. Every figure is computed by hand from
// market-rules.md; the harness checks the ledger (audit.Verify) after each scenario.

// scriptedMarket is the real market except for the symbols the test scripts.
type scriptedMarket struct {
	*market.Service
	mu      sync.Mutex
	books   map[string]scriptBook
	phase   string // "" the market's own session
	oddLot  string
	updates chan string
}

type scriptBook struct {
	ref, last  decimal.Decimal
	bids, asks []market.Level
}

func (m *scriptedMarket) Quote(symbol string) (market.Quote, error) {
	q, err := m.Service.Quote(symbol)
	if err != nil {
		return q, err
	}
	m.mu.Lock()
	b, ok := m.books[q.Symbol]
	m.mu.Unlock()
	if !ok {
		return q, nil
	}
	down, up, err := rules.Limits(b.ref, m.kind(q.Symbol))
	if err != nil {
		return q, err
	}
	q.PrevClose, q.LimitDown, q.LimitUp, q.Price = b.ref, down, up, b.last
	q.Change = b.last.Sub(b.ref)
	q.Bids, q.Asks = b.bids, b.asks
	return q, nil
}

func (m *scriptedMarket) kind(symbol string) rules.Kind {
	if in, err := m.Service.Instrument(symbol); err == nil && in.Type == "etf" {
		return rules.ETF
	}
	return rules.Stock
}

func (m *scriptedMarket) CheckPrice(symbol string, p decimal.Decimal) error {
	m.mu.Lock()
	b, ok := m.books[strings.ToUpper(symbol)]
	m.mu.Unlock()
	if !ok {
		return m.Service.CheckPrice(symbol, p)
	}
	return rules.CheckPrice(p, b.ref, m.kind(symbol))
}

func (m *scriptedMarket) Session() market.SessionInfo {
	s := m.Service.Session()
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.phase != "" {
		// The exchange's sessions: the after-hours ones take orders in their phase, auctioned once
		// when their entry ends.
		s.Phase, s.OddLot = m.phase, m.oddLot
		s.FixedPrice, s.OddAfterHours, s.AfterHoursEvery = m.phase == "after_hours_fixed", m.oddLot == "after_hours", 0
	}
	return s
}

func (m *scriptedMarket) setSession(phase, oddLot string) {
	m.mu.Lock()
	m.phase, m.oddLot = phase, oddLot
	m.mu.Unlock()
}

func lvls(pairs ...any) []market.Level {
	var out []market.Level
	for i := 0; i+1 < len(pairs); i += 2 {
		out = append(out, market.Level{Price: decimal.RequireFromString(pairs[i].(string)), Size: int64(pairs[i+1].(int))})
	}
	return out
}

// book scripts a symbol: reference price, last price and best levels.
func (m *scriptedMarket) book(symbol, ref, last string, bids, asks []market.Level) {
	m.mu.Lock()
	m.books[symbol] = scriptBook{ref: decimal.RequireFromString(ref), last: decimal.RequireFromString(last), bids: bids, asks: asks}
	m.mu.Unlock()
}

// scriptedFeed delivers the updates the test sends.
type scriptedFeed struct {
	mu      sync.Mutex
	changed []string
	ready   chan struct{}
}

func (f *scriptedFeed) Watch(...string)   {}
func (f *scriptedFeed) Unwatch(...string) {}
func (f *scriptedFeed) Ready() <-chan struct{} {
	return f.ready
}

func (f *scriptedFeed) Changed() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := f.changed
	f.changed = nil
	return out
}

func (f *scriptedFeed) send(symbol string) {
	f.mu.Lock()
	f.changed = append(f.changed, symbol)
	f.mu.Unlock()
	select {
	case f.ready <- struct{}{}:
	default:
	}
}

// tradeHarness is a harness whose engine trades against a scripted market, with a member
// holding cash TWD.
type tradeHarness struct {
	*harness
	mkt  *scriptedMarket
	feed *scriptedFeed
	m    *client
}

func newTradeHarness(t *testing.T, h *harness, cash string) *tradeHarness {
	t.Helper()
	sm := &scriptedMarket{Service: h.st.Market, books: map[string]scriptBook{}}
	feed := &scriptedFeed{ready: make(chan struct{}, 1)}
	e := h.st.trade
	e.SetMarket(sm, feed)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if err := e.WaitReady(ctx); err != nil {
		t.Fatal(err)
	}
	th := &tradeHarness{harness: h, mkt: sm, feed: feed}
	if cash != "" {
		th.m = h.register("09" + strconv.Itoa(10000000+int(imageSizes.Add(1))))
		th.m.fund(cash)
	}
	return th
}

// match runs the engine over the symbol's current quote, as a quote update does, once the
// engine has folded every event written so far (an order just placed reaches it through its
// subscription, which may lag the answer that placed it).
func (th *tradeHarness) match(symbol string) {
	th.engineCaughtUp()
	th.st.trade.MatchSymbol(context.Background(), symbol)
}

func (th *tradeHarness) sweep() {
	th.engineCaughtUp()
	th.st.trade.Sweep(context.Background())
}

func (th *tradeHarness) engineCaughtUp() {
	th.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	head, err := th.st.Store.Head(ctx)
	if err != nil {
		th.t.Fatal(err)
	}
	for {
		folded := th.st.trade.Position()
		if folded >= head {
			return
		}
		if ctx.Err() != nil {
			th.t.Fatalf("the engine folded the log to %d, not to the head %d", folded, head)
		}
		time.Sleep(time.Millisecond)
	}
}

func (c *client) order(body map[string]any) answer {
	c.h.t.Helper()
	return c.post("/api/vue/trade/orders", body)
}

func (c *client) placed(body map[string]any) wire.TradeResult {
	c.h.t.Helper()
	a := c.order(body)
	want(c.h.t, a, 200, "ok")
	var r wire.TradeResult
	a.data(c.h.t, &r)
	return r
}

// at reads after the projections reached pos.
func (c *client) at(path string, pos int64, v any) {
	c.h.t.Helper()
	c.getOK(path, v, "Lotbook-Position", strconv.FormatInt(pos, 10))
}

func (c *client) cash(pos int64) wire.UserInfo {
	c.h.t.Helper()
	var u wire.UserInfo
	c.at("/api/vue/user/info", pos, &u)
	return u
}

func (c *client) wantCash(pos int64, available, frozen string) {
	c.h.t.Helper()
	if u := c.cash(pos); u.Assets.Available != available || u.Assets.Frozen != frozen {
		c.h.t.Fatalf("cash %+v, want available %s frozen %s", u.Assets, available, frozen)
	}
}

// closedAt closes all of a position with a limit order at price, which the caller's book fills.
func (c *client) closedAt(positionID, price string) wire.TradeResult {
	c.h.t.Helper()
	a := c.post("/api/vue/trade/positions/"+positionID+"/close", map[string]any{"type": "limit", "price": price})
	want(c.h.t, a, 200, "close_submitted")
	var r wire.TradeResult
	a.data(c.h.t, &r)
	return r
}

func (c *client) orderNamed(orderNo string) wire.TradeOrder {
	c.h.t.Helper()
	var p wire.TradeOrderPage
	c.at("/api/vue/trade/orders?status=all", c.h.head(), &p)
	for _, o := range p.Items {
		if o.OrderNo == orderNo {
			return o
		}
	}
	c.h.t.Fatalf("order %s not listed", orderNo)
	return wire.TradeOrder{}
}

func (c *client) positionNamed(id string) wire.TradePositionDetail {
	c.h.t.Helper()
	var d wire.TradePositionDetail
	c.at("/api/vue/trade/positions/"+id, c.h.head(), &d)
	return d
}

func TestTradeLimitRestsFillsInPartsAndSellsWithFees(t *testing.T) {
	forEachBackend(t, func(t *testing.T, h *harness) {
		th := newTradeHarness(t, h, "1000000")
		m := th.m
		th.mkt.book("2603", "186.5", "186.5", lvls("186", 5000), lvls("187", 5000))
		o := m.placed(map[string]any{"symbol": "2603", "direction": "long", "type": "limit", "lots": 2, "price": "186"})
		if o.Status != wire.TradeOrderStatusPending || o.Filled != 0 || o.PositionId != o.OrderNo {
			t.Fatalf("resting order %+v", o)
		}
		// 372,000 + commission 530 (530.1) frozen.
		m.wantCash(o.Position, "627470.00", "372530.00")
		var pending wire.TradePositionPage
		m.at("/api/vue/trade/positions?status=pending", o.Position, &pending)
		if len(pending.Items) != 1 || pending.Items[0].Status != wire.PositionPending {
			t.Fatalf("pending positions %+v", pending)
		}

		// The market crosses: 1 lot at 186 (commission 265), then the rest at 185.5 (264 more:
		// 529 on 371,500); the unused 501 is released.
		th.mkt.book("2603", "186.5", "186", lvls("185.5", 5000), lvls("186", 1000, "186.5", 4000))
		th.match("2603")
		if got := m.orderNamed(o.OrderNo); got.Status != wire.TradeOrderStatusPartial || got.Filled != 1000 || got.Commission != "265.00" {
			t.Fatalf("after the first cross %+v", got)
		}
		th.mkt.book("2603", "186.5", "185.5", lvls("185", 5000), lvls("185.5", 3000))
		th.feed.send("2603") // through the engine's update loop this time
		deadline := time.Now().Add(10 * time.Second)
		for m.orderNamed(o.OrderNo).Status != wire.TradeOrderStatusFilled {
			if time.Now().After(deadline) {
				t.Fatalf("the quote update did not fill the order: %+v", m.orderNamed(o.OrderNo))
			}
			time.Sleep(20 * time.Millisecond)
		}
		m.wantCash(h.head(), "627971.00", "0.00")
		d := m.positionNamed(o.OrderNo)
		if p := d.Position; p.Status != wire.PositionHolding || p.Shares != 2000 || p.EntryPrice != "185.75" || p.Fee != "529.00" ||
			p.Price != "185.50" || p.MarketValue != "371000.00" || len(d.Orders) != 1 {
			t.Fatalf("position %+v", d)
		}

		// Sell it all at market: 1,000 at 188 and 1,000 at 187.5 = 375,500; commission 535
		// (535.0875), day-trade tax 563 (563.25); 374,402 back; profit 2,373.
		th.mkt.book("2603", "186.5", "188", lvls("188", 1000, "187.5", 1000), lvls("188.5", 5000))
		a := m.post("/api/vue/trade/positions/"+o.OrderNo+"/close", map[string]any{"type": "market"})
		want(t, a, 200, "close_submitted")
		var cl wire.TradeResult
		a.data(t, &cl)
		if cl.Status != wire.TradeOrderStatusFilled || cl.Filled != 2000 {
			t.Fatalf("close %+v", cl)
		}
		u := m.cash(cl.Position)
		if u.Assets.Available != "1002373.00" || u.Assets.Frozen != "0.00" || u.Assets.Total != "1002373.00" || u.Assets.Profit != "2373.00" {
			t.Fatalf("after the sale %+v", u.Assets)
		}
		d = m.positionNamed(o.OrderNo)
		if p := d.Position; p.Status != wire.PositionClosed || p.ExitPrice != "187.75" || p.Profit != "2373.00" || p.Tax != "563.00" ||
			p.Fee != "1064.00" || p.ClosedAt == nil || len(d.Orders) != 2 {
			t.Fatalf("closed position %+v", d)
		}
		// Fund records: every fee, tax and the sale, unsettled until Wednesday (T+2).
		recs := m.records("all", cl.Position)
		byType := map[wire.FundRecordType][]wire.FundRecord{}
		for _, r := range recs.Items {
			byType[r.Type] = append(byType[r.Type], r)
		}
		sale := byType[wire.Trade][0]
		if sale.Amount != "375500.00" || sale.Status != wire.FundRecordStatusUnsettled || httpx.Deref(sale.SettleDate) != "2026-03-04" ||
			httpx.Deref(sale.Symbol) != "2603" || sale.OrderNo != cl.OrderNo {
			t.Fatalf("sale line %+v", sale)
		}
		if len(byType[wire.Trade]) != 3 || len(byType[wire.Fee]) != 3 || len(byType[wire.Tax]) != 1 ||
			byType[wire.Fee][0].Amount != "-535.00" || byType[wire.Tax][0].Amount != "-563.00" ||
			byType[wire.Trade][1].Amount != "-185500.00" || byType[wire.Trade][1].Status != wire.FundRecordStatusCompleted {
			t.Fatalf("fund records %+v", byType)
		}
		var fees wire.FundRecordPage
		m.at("/api/vue/funds/records?type=fee", cl.Position, &fees)
		if len(fees.Items) != 3 {
			t.Fatalf("fee records %+v", fees)
		}
	})
}

func TestTradeMarketOrderWalksTheBookAndCancelReleases(t *testing.T) {
	forEachBackend(t, func(t *testing.T, h *harness) {
		th := newTradeHarness(t, h, "1000000")
		m := th.m
		th.mkt.book("2603", "186.5", "187", lvls("186.5", 5000), lvls("187", 1000, "187.5", 1000, "188", 5000))
		o := m.placed(map[string]any{"symbol": "2603", "direction": "long", "type": "market", "lots": 3})
		// 187,000 + 187,500 + 188,000 = 562,500; commission 801 (801.5625).
		if o.Status != wire.TradeOrderStatusFilled || o.Filled != 3000 {
			t.Fatalf("market order %+v", o)
		}
		m.wantCash(o.Position, "436699.00", "0.00")
		got := m.orderNamed(o.OrderNo)
		if got.AvgPrice != "187.50" || got.Amount != "562500.00" || got.Commission != "801.00" || got.Price != "193.54" {
			t.Fatalf("order %+v (price is the protective 187 × 1.035)", got)
		}

		// A resting limit order cancelled: its frozen cash comes back in full.
		r := m.placed(map[string]any{"symbol": "2603", "direction": "long", "type": "limit", "lots": 1, "price": "180"})
		m.wantCash(r.Position, "256443.00", "180256.00") // 180,000 + 256 (256.5)
		a := m.raw("DELETE", "/api/vue/trade/orders/"+r.OrderNo, "", nil, "Idempotency-Key", uuid.NewString())
		want(t, a, 200, "order_cancelled")
		var c wire.TradeResult
		a.data(t, &c)
		m.wantCash(c.Position, "436699.00", "0.00")
		if p := m.positionNamed(r.OrderNo).Position; p.Status != wire.PositionCancelled {
			t.Fatalf("cancelled order's position %+v", p)
		}
		want(t, m.post("/api/vue/trade/orders/"+r.OrderNo+"/cancel", map[string]any{}), 422, "order_not_pending")
		want(t, m.post("/api/vue/trade/orders/T0/cancel", map[string]any{}), 404, "order_not_found")
		other := h.register("0922222222")
		want(t, other.post("/api/vue/trade/orders/"+o.OrderNo+"/cancel", map[string]any{}), 404, "order_not_found")
		want(t, other.get("/api/vue/trade/positions/"+o.OrderNo), 404, "position_not_found")
	})
}

func TestTradeRefusalsAndIdempotency(t *testing.T) {
	forEachBackend(t, func(t *testing.T, h *harness) {
		th := newTradeHarness(t, h, "1000000")
		m := th.m
		th.mkt.book("2603", "186.5", "186.5", lvls("186", 5000), lvls("187", 5000))
		limit := func(lots int, price string) map[string]any {
			return map[string]any{"symbol": "2603", "direction": "long", "type": "limit", "lots": lots, "price": price}
		}
		cases := []struct {
			body map[string]any
			code int
			msg  string
		}{
			{limit(1, "205.5"), 422, "price_out_of_band"}, // limit-up is 205 (186.5 × 1.1 = 205.15 down to the tick)
			{limit(1, "167.5"), 422, "price_out_of_band"},
			{limit(1, "186.3"), 422, "price_not_on_tick"}, // 0.5 between 100 and 500
			{limit(1, "0"), 400, "price_invalid"},
			{limit(6, "186"), 422, "insufficient_balance"}, // 1,116,000 + commission
			{map[string]any{"symbol": "2603", "direction": "long", "type": "limit", "lots": 1}, 400, "price_required"},
			{map[string]any{"symbol": "2603", "direction": "long", "type": "market"}, 400, "quantity_required"},
			{map[string]any{"symbol": "2603", "direction": "long", "type": "market", "lots": 1, "shares": 5}, 400, "quantity_invalid"},
			{map[string]any{"symbol": "2603", "direction": "long", "type": "market", "lots": 1, "leverage": "3"}, 400, "leverage_invalid"},
			{map[string]any{"symbol": "2603", "direction": "short", "type": "market", "shares": 5}, 400, "odd_lot_cash_only"},
			{map[string]any{"symbol": "9999", "direction": "long", "type": "market", "lots": 1}, 404, "symbol_not_found"},
			{map[string]any{"symbol": "TAIEX", "direction": "long", "type": "market", "lots": 1}, 404, "symbol_not_found"},
			{map[string]any{"symbol": "2603", "direction": "up", "type": "market", "lots": 1}, 400, "invalid_request"},
			{map[string]any{"symbol": "2603", "direction": "long", "type": "market", "lots": 1, "colour": "red"}, 400, "invalid_request"},
		}
		h.unchanged(func() {
			for _, c := range cases {
				want(t, m.order(c.body), c.code, c.msg)
			}
			th.mkt.setSession("closed", "closed")
			want(t, m.order(limit(1, "186")), 422, "not_trading_time")
			th.mkt.setSession("pre_open", "closed")
			want(t, m.order(map[string]any{"symbol": "2603", "direction": "long", "type": "market", "lots": 1}), 422, "not_trading_time")
			th.mkt.setSession("", "")
		})
		// Idempotency: the same key and body answer the same order once; another body is a conflict.
		key := uuid.NewString()
		a1 := m.postKey("/api/vue/trade/orders", key, limit(1, "186"))
		a2 := m.postKey("/api/vue/trade/orders", key, limit(1, "186"))
		want(t, a1, 200, "ok")
		want(t, a2, 200, "ok")
		var r1, r2 wire.TradeResult
		a1.data(t, &r1)
		a2.data(t, &r2)
		if r1.OrderNo != r2.OrderNo || a2.header.Get("Idempotent-Replayed") != "true" {
			t.Fatalf("replay %+v %+v %v", r1, r2, a2.header)
		}
		want(t, m.postKey("/api/vue/trade/orders", key, limit(2, "186")), 409, "idempotency_key_reused")
		want(t, m.raw("POST", "/api/vue/trade/orders", "application/json", []byte(`{"symbol":"2603"}`)), 400, "idempotency_key_required")
		var list wire.TradeOrderPage
		m.at("/api/vue/trade/orders?status=working", r1.Position, &list)
		if len(list.Items) != 1 {
			t.Fatalf("working orders %+v", list)
		}
		// Banned from trading.
		want(t, h.ops.post("/api/vue/ops/members/"+m.account+"/flags", map[string]any{"flag": "trade_banned", "on": true, "reason": "review"}), 200, "ok")
		h.unchanged(func() { want(t, m.order(limit(1, "186")), 403, "trade_banned") })
		want(t, h.ops.get("/api/vue/trade/orders"), 403, "forbidden")
		want(t, h.anon().get("/api/vue/trade/orders"), 401, "unauthorized")
	})
}

// soldSameDay: a verified member with a card and NT$200,000 buys a lot of 2603 at 186 and sells
// it at market the same day. Paid 186,265; got 186,000 - 265 - 279 (day-trade tax) = 185,456:
// 199,191 available, of which 13,735 withdrawable until the sale settles on Wednesday.
func soldSameDay(t *testing.T, h *harness) (*client, string, wire.TradeResult) {
	t.Helper()
	th := newTradeHarness(t, h, "")
	h.withdrawals()
	m, card := h.ready("0933333333", "A123456789", "0123-4567-8901", "200000")
	th.mkt.book("2603", "186.5", "186", lvls("186", 1000), lvls("186", 1000))
	o := m.placed(map[string]any{"symbol": "2603", "direction": "long", "type": "limit", "lots": 1, "price": "186"})
	a := m.post("/api/vue/trade/positions/"+o.PositionId+"/close", map[string]any{"type": "market"})
	want(t, a, 200, "close_submitted")
	var cl wire.TradeResult
	a.data(t, &cl)
	return m, card, cl
}

func TestTradeProceedsWithdrawableOnSettlement(t *testing.T) {
	forEachBackend(t, func(t *testing.T, h *harness) {
		m, card, cl := soldSameDay(t, h)
		m.wantCash(cl.Position, "199191.00", "0.00")
		h.unchanged(func() { want(t, m.withdraw("20000", card, "123456"), 422, "insufficient_withdrawable") })
		h.clock.Advance(48 * time.Hour)
		want(t, m.withdraw("20000", card, "123456"), 200, "ok")
		if sale := m.records("trade", h.head()).Items[0]; sale.Status != wire.FundRecordStatusCompleted {
			t.Fatalf("settled sale %+v", sale)
		}
	})
}

func TestTradeDayTradeClosesAtSessionEnd(t *testing.T) {
	forEachBackend(t, func(t *testing.T, h *harness) {
		th := newTradeHarness(t, h, "1000000")
		m := th.m
		th.mkt.book("2603", "186.5", "187", lvls("186.5", 5000), lvls("187", 5000))
		o := m.placed(map[string]any{"symbol": "2603", "direction": "long", "type": "market", "lots": 1, "dayTrade": true})
		var s wire.DayTradingSummary
		m.at("/api/vue/trade/dayTrading", o.Position, &s)
		if s.TradingDay != "2026-03-02" || s.HoldingShares != 1000 || s.Committed != "187000.00" || s.Valuation != "187000.00" || len(s.Positions) != 1 {
			t.Fatalf("day trading %+v", s)
		}
		th.mkt.book("2603", "186.5", "188", lvls("188", 5000), lvls("188.5", 5000))
		th.closesAtSessionEnd(o.OrderNo)
		// Bought 187,000 + 266; sold 188,000 - 267 - 282 (0.15 %): profit 185 on 187,000 committed.
		m.at("/api/vue/trade/dayTrading", h.head(), &s)
		if s.HoldingShares != 0 || s.Profit != "185.00" || s.ReturnRate != "0.10" || len(s.Orders) != 2 ||
			s.Orders[1].PlacedBy != wire.PlacedByDayTradeClose {
			t.Fatalf("after the close %+v", s)
		}
	})
}

// closesAtSessionEnd sweeps the member's open day trade: nothing while the market is continuous,
// then, in the closing auction, the day-trade close of all of it.
func (th *tradeHarness) closesAtSessionEnd(positionID string) {
	th.t.Helper()
	m := th.m
	th.sweep() // still continuous: nothing closes
	if p := m.positionNamed(positionID).Position; p.Status != wire.PositionHolding {
		th.t.Fatalf("closed during the session: %+v", p)
	}
	th.mkt.setSession("closing_auction", "intraday")
	th.sweep()
	deadline := time.Now().Add(10 * time.Second)
	for m.positionNamed(positionID).Position.Status != wire.PositionClosed {
		if time.Now().After(deadline) {
			th.t.Fatalf("day trade still open: %+v", m.positionNamed(positionID))
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func TestTradeMarginCallAndForcedClose(t *testing.T) {
	forEachBackend(t, func(t *testing.T, h *harness) {
		th := newTradeHarness(t, h, "1000000")
		m := th.m
		th.mkt.book("2603", "186.5", "186", lvls("185.5", 5000), lvls("186", 5000))
		o := m.placed(map[string]any{"symbol": "2603", "direction": "long", "type": "limit", "lots": 2, "price": "186", "leverage": "2.5"})
		// 372,000: loan 223,000 (223,200 in whole thousands), the member pays 149,000 + 530.
		m.wantCash(o.Position, "850470.00", "0.00")
		if p := m.positionNamed(o.OrderNo).Position; p.Loan != "223000.00" || p.Margin != "149530.00" || p.Leverage != "2.50" {
			t.Fatalf("margin position %+v", p)
		}
		notices := func() wire.TradeNoticePage {
			var n wire.TradeNoticePage
			m.at("/api/vue/trade/notices", h.head(), &n)
			return n
		}
		if n := notices(); httpx.Deref(n.Ratio) != "1.6681" || len(n.Items) != 0 {
			t.Fatalf("notices at cost %+v", n)
		}
		// Days later (reference 140): at 144 the ratio is 288,000 / 223,000 = 1.2914, a margin call.
		th.mkt.book("2603", "140", "144", lvls("144", 5000), lvls("144.5", 5000))
		th.sweep()
		if n := notices(); len(n.Items) != 1 || n.Items[0].Type != wire.NoticeMarginCall || n.Items[0].Deadline != "2026-03-04" {
			t.Fatalf("notices after the fall %+v", n)
		}
		// At 133 it is 1.1928, below 120 %: closed at once, 266,000 - 379 - 399 - 223,000 back.
		th.mkt.book("2603", "140", "133", lvls("133", 5000), lvls("133.5", 5000))
		th.sweep()
		n := notices()
		if len(n.Items) != 2 || n.Items[0].Type != wire.NoticeForcedClose || n.Items[0].Reason != "ratio_below_forced" ||
			n.Items[0].Positions[0] != o.OrderNo || n.Ratio != nil {
			t.Fatalf("notices after the forced close %+v", n)
		}
		d := m.positionNamed(o.OrderNo)
		if d.Position.Status != wire.PositionClosed || d.Position.Profit != "-107308.00" || d.Orders[1].PlacedBy != wire.PlacedByForcedClose {
			t.Fatalf("forced close %+v", d)
		}
		u := m.cash(h.head())
		if u.Assets.Available != "892692.00" || u.Assets.Total != "892692.00" || u.Assets.Profit != "-107308.00" {
			t.Fatalf("after the forced close %+v", u.Assets)
		}
	})
}

func TestTradeDayOrderExpiresWhenItsDayEnds(t *testing.T) {
	forEachBackend(t, func(t *testing.T, h *harness) {
		th := newTradeHarness(t, h, "1000000")
		m := th.m
		th.mkt.book("2603", "186.5", "186.5", lvls("186", 5000), lvls("187", 5000))
		o := m.placed(map[string]any{"symbol": "2603", "direction": "long", "type": "limit", "lots": 1, "price": "180"})
		m.wantCash(o.Position, "819744.00", "180256.00")
		th.sweep()
		if got := m.orderNamed(o.OrderNo); got.Status != wire.TradeOrderStatusPending {
			t.Fatalf("expired during its day: %+v", got)
		}
		h.clock.Advance(24 * time.Hour)
		th.sweep()
		if got := m.orderNamed(o.OrderNo); got.Status != wire.TradeOrderStatusExpired || got.TradingDay != "2026-03-02" {
			t.Fatalf("the next day %+v", got)
		}
		m.wantCash(h.head(), "1000000.00", "0.00")
		if p := m.positionNamed(o.OrderNo).Position; p.Status != wire.PositionCancelled {
			t.Fatalf("position of the expired order %+v", p)
		}
	})
}

func TestTradeConcurrentOrdersNeverOverspend(t *testing.T) {
	forEachBackend(t, func(t *testing.T, h *harness) {
		th := newTradeHarness(t, h, "1000000")
		m := th.m
		th.mkt.book("2603", "186.5", "186.5", lvls("186", 5000), lvls("187", 5000))
		body := map[string]any{"symbol": "2603", "direction": "long", "type": "limit", "lots": 1, "price": "186"}
		answers := concurrently(20, func(int) answer { return m.order(body) })
		placed := successes(t, "concurrent order", answers, func(a answer) bool { return a.code == 422 && a.Msg == "insufficient_balance" })
		// Each freezes 186,265: five fit in 1,000,000, a sixth does not.
		if len(placed) != 5 {
			t.Fatalf("%d of 20 orders placed, want 5", len(placed))
		}
		m.wantCash(h.head(), "68675.00", "931325.00")
		// The same key from many clients at once places one order.
		key := uuid.NewString()
		small := map[string]any{"symbol": "2603", "direction": "long", "type": "limit", "lots": 0, "shares": 100, "price": "186"}
		var nos []string
		for _, a := range concurrently(8, func(int) answer { return m.postKey("/api/vue/trade/orders", key, small) }) {
			var r wire.TradeResult
			if a.code == 200 {
				a.data(t, &r)
			}
			nos = append(nos, r.OrderNo)
		}
		for _, no := range nos {
			if no == "" || no != nos[0] {
				t.Fatalf("one key, orders %v", nos)
			}
		}
	})
}

func TestTradeShortETFRoundTrip(t *testing.T) {
	forEachBackend(t, func(t *testing.T, h *harness) {
		th := newTradeHarness(t, h, "1000000")
		m := th.m
		th.mkt.book("0050", "62.6", "62.5", lvls("62.5", 5000), lvls("62.55", 5000))
		o := m.placed(map[string]any{"symbol": "0050", "direction": "short", "type": "market", "lots": 1, "leverage": "1.11"})
		// 62,500 sold: commission 89, ETF tax 0.1 % = 62; margin 56,307 (56,306.31 up).
		if o.Status != wire.TradeOrderStatusFilled {
			t.Fatalf("short sale %+v", o)
		}
		m.wantCash(o.Position, "943693.00", "0.00")
		if p := m.positionNamed(o.OrderNo).Position; p.Direction != wire.TradePositionDirectionShort || p.InstrumentType != wire.TradeKindEtf ||
			p.Margin != "56307.00" || p.Tax != "62.00" || p.Fee != "89.00" {
			t.Fatalf("short position %+v", p)
		}
		th.mkt.book("0050", "62.6", "62", lvls("61.95", 5000), lvls("62", 5000))
		cl := m.closedAt(o.OrderNo, "62")
		// Collateral 62,349 + 56,307 less 62,000 and commission 88: 56,568 back; profit 261.
		if u := m.cash(cl.Position); u.Assets.Available != "1000261.00" || u.Assets.Profit != "261.00" {
			t.Fatalf("after the cover %+v", u.Assets)
		}
		var lines wire.FundRecordPage
		m.at("/api/vue/funds/records?type=collateral", cl.Position, &lines)
		if len(lines.Items) != 2 || lines.Items[0].Amount != "118656.00" || lines.Items[1].Amount != "-118656.00" {
			t.Fatalf("collateral lines %+v", lines.Items)
		}
	})
}

// TestTradeEngineRebuildsItsBookFromTheLog: a resting order survives a restart; the new process's
// engine folds it from the log and fills it on the next quote.
func TestTradeEngineRebuildsItsBookFromTheLog(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	clock := newTestClock()
	open := func() (*Stack, *httptest.Server, context.CancelFunc, chan error) {
		st, err := OpenStack(context.Background(), Config{DataDir: dir, Logger: testLogger(t), PasswordCost: commands.PasswordCost{Time: 1, MemoryKiB: 64, Threads: 1},
			Clock: clock.Now, Web: testWeb, Demo: true, Market: testMarket(t),
			RateLimits: RateLimits{LoginPerAccount: 1000, LoginPerIP: 1000, RegisterPerIP: 1000}})
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() { done <- st.Run(ctx) }()
		return st, httptest.NewServer(st.Handler()), cancel, done
	}
	stop := func(st *Stack, srv *httptest.Server, cancel context.CancelFunc, done chan error) {
		srv.Close()
		cancel()
		if err := <-done; err != nil {
			t.Fatal(err)
		}
		if err := st.Close(); err != nil {
			t.Fatal(err)
		}
	}
	st, srv, cancel, done := open()
	h := &harness{t: t, st: st, srv: srv, clock: clock}
	h.seed()
	h.ops = h.login("ops", "opsdemo1")
	th := newTradeHarness(t, h, "1000000")
	th.mkt.book("2603", "186.5", "186.5", lvls("186", 5000), lvls("187", 5000))
	o := th.m.placed(map[string]any{"symbol": "2603", "direction": "long", "type": "limit", "lots": 1, "price": "186"})
	member := th.m
	h.catchUp()
	stop(st, srv, cancel, done)

	st, srv, cancel, done = open()
	defer stop(st, srv, cancel, done)
	h2 := &harness{t: t, st: st, srv: srv, clock: clock}
	th2 := newTradeHarness(t, h2, "")
	resting := th2.st.trade.Holds(o.OrderNo)
	if !resting {
		t.Fatal("the restarted engine does not hold the resting order")
	}
	th2.mkt.book("2603", "186.5", "186", lvls("185.5", 5000), lvls("186", 5000))
	th2.match("2603")
	member.h = h2
	if got := member.orderNamed(o.OrderNo); got.Status != wire.TradeOrderStatusFilled || got.Filled != 1000 {
		t.Fatalf("after the restart %+v", got)
	}
	h2.verify()
}
