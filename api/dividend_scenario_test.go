package api

import (
	"context"
	"testing"
	"time"

	"github.com/lotbook/lotbook/api/wire"
	"github.com/lotbook/lotbook/commands"
	"github.com/lotbook/lotbook/commands/dividend"
	"github.com/lotbook/lotbook/commands/dividend/payout"
	rule "github.com/lotbook/lotbook/commands/rules/dividend"
	"github.com/lotbook/lotbook/events"
	"github.com/lotbook/lotbook/market"
)

// registered is the stack's process manager of that name (process.Register).
func (h *harness) registered(name string) any {
	h.t.Helper()
	for _, p := range h.st.processes {
		if p.name == name {
			return p.run
		}
	}
	h.t.Fatalf("no process manager %q registered", name)
	return nil
}

// payoutDue runs the dividend process's due steps once it has folded the log to its head.
func (h *harness) payoutDue(p *payout.Process) {
	h.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if err := p.WaitReady(ctx); err != nil {
		h.t.Fatal(err)
	}
	// Fold to the head, run what is due, until a run writes nothing more (an entitlement is paid
	// on the run after it is folded).
	for {
		head := h.head()
		for p.Position() < head {
			if ctx.Err() != nil {
				h.t.Fatalf("the dividend process folded to %d, not %d", p.Position(), head)
			}
			time.Sleep(5 * time.Millisecond)
		}
		if err := p.RunDue(ctx); err != nil {
			if ctx.Err() != nil {
				h.t.Fatalf("dividend steps: %v", err)
			}
			time.Sleep(10 * time.Millisecond)
			continue
		}
		if h.head() == head {
			break
		}
	}
	h.catchUp()
}

// firstDividend is the first dividend going ex after from whose distribution matches ok.
func firstDividend(t *testing.T, m *market.Service, from time.Time, ok func(market.Dividend) bool) market.Dividend {
	t.Helper()
	for _, d := range m.DividendsBetween(from, from.AddDate(1, 0, 0)) {
		if in, err := m.Instrument(d.Symbol); err == nil && in.Type == "stock" && ok(d) {
			return d
		}
	}
	t.Fatal("no dividend in a year")
	return market.Dividend{}
}

// Dividends over HTTP on SQLite and PostgreSQL: a member holds two stocks over their ex-dates
// (one paying cash, one paying cash and new shares); the payout process records the entitlements
// at the ex-dates, pays them on the payment dates as balanced postings (cash net of the fee, new
// shares as a zero-cost position), and a second process started on the same log (a restart)
// writes nothing more. The harness checks the ledger, the shares and replay after it.
func TestDividendScenario(t *testing.T) {
	forEachBackend(t, func(t *testing.T, h *harness) {
		th := newTradeHarness(t, h, "1000000")
		m := th.m
		now := h.clock.Now()
		cashOnly := firstDividend(t, h.st.Market, now.Add(24*time.Hour), func(d market.Dividend) bool { return !d.HasStock() && d.Cash.IsPositive() })
		withStock := firstDividend(t, h.st.Market, now.Add(24*time.Hour), func(d market.Dividend) bool {
			return d.HasStock() && d.Cash.IsPositive() && d.Symbol != cashOnly.Symbol
		})
		for _, d := range []market.Dividend{cashOnly, withStock} {
			th.mkt.book(d.Symbol, "50", "50", lvls("49.95", 5000), lvls("50", 5000))
			m.placed(map[string]any{"symbol": d.Symbol, "direction": "long", "type": "market", "lots": 2})
			th.match(d.Symbol)
		}
		h.catchUp()
		proc := h.registered(payout.ProcessName).(*payout.Process)
		h.payoutDue(proc)
		before := m.cash(h.head()).Assets.Available

		// Past each ex-date: the entitlement is recorded, nothing is paid yet.
		for _, d := range []market.Dividend{cashOnly, withStock} {
			if at := d.ExDate.Add(time.Hour); h.clock.Now().Before(at) {
				h.clock.Advance(at.Sub(h.clock.Now()))
			}
			h.payoutDue(proc)
			m = h.login(m.account, "secret123")
		}
		last := cashOnly.PayDate
		if withStock.PayDate.After(last) {
			last = withStock.PayDate
		}
		if first := min(cashOnly.PayDate.Unix(), withStock.PayDate.Unix()); h.clock.Now().Unix() < first {
			if got := m.cash(h.head()).Assets.Available; got != before {
				t.Fatalf("available %s before any payment date, was %s", got, before)
			}
		}
		// Past both payment dates: paid.
		h.clock.Advance(last.Add(time.Hour).Sub(h.clock.Now()))
		h.payoutDue(proc)
		m = h.login(m.account, "secret123") // months later: the session has expired
		// Every dividend of the two stocks that went ex since the purchase is recorded, and paid when
		// its payment date has passed (a quarterly payer may have gone ex twice).
		expect, cashLines, stockLines := dec(before), 0, 0
		for _, d := range h.st.Market.DividendsBetween(now, h.clock.Now()) {
			if d.Symbol != cashOnly.Symbol && d.Symbol != withStock.Symbol {
				continue
			}
			p := rule.Of(2000, d.Cash, d.Stock)
			if p.Net.IsPositive() {
				cashLines++
			}
			if p.NewShares > 0 {
				stockLines++
			}
			if d.PayDate.After(h.clock.Now()) {
				continue
			}
			expect = expect.Add(p.Net)
			if p.NewShares > 0 {
				pos := m.positionNamed(dividend.OrderNo(d.ID) + "-S").Position
				if pos.Shares != p.NewShares || pos.Symbol != d.Symbol {
					t.Fatalf("new shares position %+v, want %d shares of %s", pos, p.NewShares, d.Symbol)
				}
			}
		}
		if got := m.cash(h.head()).Assets.Available; !dec(got).Equal(expect) {
			t.Fatalf("available %s after the payments, want %s", got, expect)
		}
		lines := map[string]int{}
		for _, r := range m.records("", h.head()).Items {
			lines[string(r.Type)]++
		}
		if lines["dividend"] != cashLines || lines["dividend_stock"] != stockLines || stockLines == 0 {
			t.Fatalf("fund record lines %v, want %d cash and %d stock", lines, cashLines, stockLines)
		}

		var rc wire.DividendReceipts
		m.at("/api/vue/dividend/receipts", h.head(), &rc)
		if len(rc.Items) != cashLines+stockLines || rc.NhiRate != "2.11" || rc.RemittanceFee != "10.00" {
			t.Fatalf("receipts %+v", rc)
		}
		var cal []wire.DividendEvent
		m.getOK("/api/vue/dividend/calendar?kind=stock&days=120", &cal)
		for _, e := range cal {
			if e.Stock == "0.00" {
				t.Fatalf("ex-rights calendar lists %+v", e)
			}
		}
		var info wire.DividendInfo
		m.getOK("/api/vue/dividend/info?code="+withStock.Symbol, &info)
		if info.Symbol != withStock.Symbol || len(info.Items) == 0 {
			t.Fatalf("info %+v", info)
		}
		var high []wire.DividendYield
		m.getOK("/api/vue/dividend/highYield", &high)
		if len(high) != 50 || dec(high[0].Yield).LessThan(dec(high[49].Yield)) {
			t.Fatalf("high yield %d items", len(high))
		}
		want(t, m.get("/api/vue/dividend/info?code=ZZZZ"), 404, "not_found")
		want(t, m.get("/api/vue/dividend/calendar?days=500"), 400, "invalid_request")

		// A restart: a second process on the same log and checkpoint writes nothing, nor does a
		// payment sent again under a new id.
		h.unchanged(func() {
			ctx, cancel := context.WithCancel(context.Background())
			again := payout.New(payout.Config{Commands: dividend.New(h.st.Commands), Market: h.st.Market, Store: h.st.Store, Clock: h.clock.Now})
			done := make(chan error, 1)
			go func() { done <- again.Run(ctx) }()
			h.payoutDue(again)
			cancel()
			if err := <-done; err != nil {
				t.Fatal(err)
			}
			_, err := dividend.New(h.st.Commands).Pay(context.Background(), commands.Meta{CommandID: "pay-again"}, events.MemberID(m.account),
				dividend.OrderNo(cashOnly.ID))
			if err != nil {
				t.Fatal(err)
			}
		})
	})
}
