package api

import (
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/lotbook/lotbook/api/wire"
)

// The market scenarios run over HTTP against the shared simulated market; the harness checks the
// ledger's invariants (audit.Verify) after each.

func marketHarness(t *testing.T) *harness {
	return newHarness(t, testDB{kind: "sqlite"}, RateLimits{LoginPerAccount: 1000, LoginPerIP: 1000, RegisterPerIP: 1000})
}

// getOK sends a GET that must answer 200 ok and decodes its data strictly into v.
func (c *client) getOK(path string, v any, headers ...string) {
	c.h.t.Helper()
	a := c.get(path, headers...)
	want(c.h.t, a, 200, "ok")
	a.data(c.h.t, v)
}

func d(t testing.TB, s string) decimal.Decimal {
	t.Helper()
	v, err := decimal.NewFromString(s)
	if err != nil {
		t.Fatalf("decimal %q: %v", s, err)
	}
	return v
}

// checkQuote checks what every quote must satisfy: two-decimal strings, prices inside the day's
// band, change consistent with the reference, a sane book.
func checkQuote(t testing.TB, q wire.Quote) {
	t.Helper()
	for name, v := range map[string]string{"price": q.Price, "change": q.Change, "changePercent": q.ChangePercent, "prevClose": q.PrevClose,
		"open": q.Open, "high": q.High, "low": q.Low, "turnover": q.Turnover, "limitUp": q.LimitUp, "limitDown": q.LimitDown} {
		if i := strings.IndexByte(v, '.'); i < 0 || len(v)-i != 3 {
			t.Fatalf("%s %s = %q, want two decimals", q.Symbol, name, v)
		}
	}
	if q.Symbol == "" || q.Name == "" || q.NameEn == "" || !q.TradingStatus.Valid() || !q.Market.Valid() || !q.Type.Valid() || q.Time.IsZero() || q.Time.Location() != time.UTC {
		t.Fatalf("quote %+v", q)
	}
	if !d(t, q.Change).Equal(d(t, q.Price).Sub(d(t, q.PrevClose))) {
		t.Fatalf("%s change %s != %s - %s", q.Symbol, q.Change, q.Price, q.PrevClose)
	}
	if q.Type == wire.Index {
		return
	}
	lo, hi := d(t, q.LimitDown), d(t, q.LimitUp)
	ref := d(t, q.PrevClose)
	if !lo.LessThan(ref) || !ref.LessThan(hi) {
		t.Fatalf("%s band %s < %s < %s broken", q.Symbol, lo, ref, hi)
	}
	inBand := func(what, v string) {
		if p := d(t, v); p.LessThan(lo) || p.GreaterThan(hi) {
			t.Fatalf("%s %s %s outside %s..%s", q.Symbol, what, v, lo, hi)
		}
	}
	inBand("price", q.Price)
	if q.Volume > 0 {
		inBand("open", q.Open)
		inBand("high", q.High)
		inBand("low", q.Low)
		if d(t, q.Low).GreaterThan(d(t, q.Price)) || d(t, q.Price).GreaterThan(d(t, q.High)) {
			t.Fatalf("%s price %s outside low %s..high %s", q.Symbol, q.Price, q.Low, q.High)
		}
	}
	for i, l := range q.Bids {
		inBand("bid", l.Price)
		if l.Size <= 0 || i > 0 && !d(t, l.Price).LessThan(d(t, q.Bids[i-1].Price)) {
			t.Fatalf("%s bids not best first: %+v", q.Symbol, q.Bids)
		}
	}
	for i, l := range q.Asks {
		inBand("ask", l.Price)
		if l.Size <= 0 || i > 0 && !d(t, l.Price).GreaterThan(d(t, q.Asks[i-1].Price)) {
			t.Fatalf("%s asks not best first: %+v", q.Symbol, q.Asks)
		}
	}
	if len(q.Bids) > 0 && len(q.Asks) > 0 && !d(t, q.Bids[0].Price).LessThan(d(t, q.Asks[0].Price)) {
		t.Fatalf("%s crossed book: bid %s ask %s", q.Symbol, q.Bids[0].Price, q.Asks[0].Price)
	}
	if len(q.Bids) > 5 || len(q.Asks) > 5 {
		t.Fatalf("%s more than five levels", q.Symbol)
	}
}

func TestMarketLists(t *testing.T) {
	t.Parallel()
	h := marketHarness(t)
	c := h.anon()
	totals := map[string]int{}
	for _, tab := range []string{"all", "gainers", "losers", "volume"} {
		for _, mk := range []string{"", "listed", "otc"} {
			for _, typ := range []string{"", "stock", "etf"} {
				name := fmt.Sprintf("tab=%s&market=%s&type=%s", tab, mk, typ)
				var p1, p2 wire.QuotePage
				c.getOK("/api/vue/market/stocks?"+name+"&page=1&size=20", &p1)
				c.getOK("/api/vue/market/stocks?"+name+"&page=2&size=20", &p2)
				if p1.Page != 1 || p2.Page != 2 || len(p1.Items) != 20 || !p1.HasMore || p1.Total < 40 || p1.Total != p2.Total {
					t.Fatalf("%s: page 1 %d items of %d (more %v), page 2 %d", name, len(p1.Items), p1.Total, p1.HasMore, len(p2.Items))
				}
				if prev, seen := totals[mk+"/"+typ]; seen && prev != p1.Total {
					t.Fatalf("%s: total %d, another tab said %d", name, p1.Total, prev)
				}
				totals[mk+"/"+typ] = p1.Total
				items := append(p1.Items, p2.Items...)
				seen := map[string]bool{}
				for i, q := range items {
					checkQuote(t, q)
					if seen[q.Symbol] {
						t.Fatalf("%s: %s twice on pages 1 and 2", name, q.Symbol)
					}
					seen[q.Symbol] = true
					if mk != "" && string(q.Market) != mk || typ != "" && string(q.Type) != typ || q.Type == wire.Index {
						t.Fatalf("%s: item %+v", name, q)
					}
					if len(q.Bids)+len(q.Asks) != 0 {
						t.Fatalf("%s: list items carry a book", name)
					}
					if i == 0 || i == 20 { // the market may move between the two pages
						continue
					}
					prev := items[i-1]
					var inOrder bool
					switch tab {
					case "all":
						inOrder = prev.Symbol < q.Symbol
					case "gainers":
						inOrder = !d(t, q.ChangePercent).GreaterThan(d(t, prev.ChangePercent))
					case "losers":
						inOrder = !d(t, q.ChangePercent).LessThan(d(t, prev.ChangePercent))
					case "volume":
						inOrder = q.Volume <= prev.Volume
					}
					if !inOrder {
						t.Fatalf("%s: %s after %s out of order", name, q.Symbol, prev.Symbol)
					}
				}
			}
		}
	}
	if totals["/"] != totals["listed/"]+totals["otc/"] || totals["/"] != totals["/stock"]+totals["/etf"] || totals["/"] < 1800 {
		t.Fatalf("totals %v", totals)
	}

	// The last page, and past it.
	var all wire.QuotePage
	last := (totals["otc/etf"] + 19) / 20
	c.getOK(fmt.Sprintf("/api/vue/market/stocks?market=otc&type=etf&page=%d", last), &all)
	if all.HasMore || len(all.Items) == 0 || len(all.Items) > 20 {
		t.Fatalf("last page %+v", all)
	}
	want(t, c.get(fmt.Sprintf("/api/vue/market/stocks?market=otc&type=etf&page=%d", last+1)), 400, "page_out_of_range")
	for _, bad := range []string{"tab=rise", "market=nyse", "type=index",
		"page=0", "page=x", "size=0", "size=101"} {
		want(t, c.get("/api/vue/market/stocks?"+bad), 400, "invalid_request")
	}
}

func TestMarketDetail(t *testing.T) {
	t.Parallel()
	h := marketHarness(t)
	c := h.anon()
	var q quoteDetailWire
	c.getOK("/api/vue/market/stocks/2330", &q)
	checkQuote(t, q.Quote)
	if q.Symbol != "2330" || q.Name != "台積電" || q.NameEn != "Taiwan Semiconductor Manufacturing" || q.Market != wire.MarketKindListed ||
		q.Type != wire.Stock || len(q.Bids) != 5 || len(q.Asks) != 5 || q.Volume <= 0 {
		t.Fatalf("2330 %+v", q)
	}
	// The demo publishes its after-hours sessions' one-minute auction cadence.
	if q.Session != (wire.MarketSession{Phase: "continuous", Open: true, Demo: true, AfterHoursAuctionEvery: 60}) {
		t.Fatalf("session %+v", q.Session)
	}
	c.getOK("/api/vue/market/stocks/00679b", &q) // case-insensitive
	checkQuote(t, q.Quote)
	if q.Symbol != "00679B" || q.Type != wire.Etf || q.Market != wire.MarketKindOtc {
		t.Fatalf("00679B %+v", q.Quote)
	}
	c.getOK("/api/vue/market/stocks/TAIEX", &q)
	if q.Type != wire.Index || len(q.Bids)+len(q.Asks) != 0 || q.LimitUp != "0.00" {
		t.Fatalf("TAIEX %+v", q.Quote)
	}

	// Limit-up and limit-down days: the detail shows the limit price and a book that does not pass it.
	for _, tc := range []struct {
		tab   string
		limit func(wire.Quote) string
	}{
		{"gainers", func(q wire.Quote) string { return q.LimitUp }},
		{"losers", func(q wire.Quote) string { return q.LimitDown }},
	} {
		var p wire.QuotePage
		c.getOK("/api/vue/market/stocks?size=5&tab="+tc.tab, &p)
		at := p.Items[0]
		if at.Price != tc.limit(at) {
			t.Fatalf("no %s at its limit today: %+v", tc.tab, at)
		}
		c.getOK("/api/vue/market/stocks/"+at.Symbol, &q)
		checkQuote(t, q.Quote)
		if q.Price != tc.limit(q.Quote) || d(t, q.ChangePercent).Abs().GreaterThan(decimal.NewFromInt(10)) {
			t.Fatalf("%s at its limit: %+v", at.Symbol, q.Quote)
		}
	}

	for _, sym := range []string{"9999", "nope", "TAIEX2", "%E5%8F%B0"} {
		want(t, c.get("/api/vue/market/stocks/"+sym), 404, "not_found")
	}
}

// quoteDetailWire decodes the QuoteDetail schema strictly.
type quoteDetailWire struct {
	wire.Quote
	Session wire.MarketSession `json:"session"`
}

func TestMarketCandles(t *testing.T) {
	t.Parallel()
	h := marketHarness(t)
	c := h.anon()
	for _, iv := range []string{"1m", "3m", "15m", "30m", "1d", "1M", "1y"} {
		t.Run(iv, func(t *testing.T) {
			var all []wire.Candle
			before := ""
			for pages := 0; ; pages++ {
				var p wire.CandlePage
				path := "/api/vue/market/stocks/2330/candles?limit=400&interval=" + url.QueryEscape(iv) + before
				c.getOK(path, &p)
				if len(p.Items) == 0 || len(p.Items) > 400 {
					t.Fatalf("page %d: %d candles", pages, len(p.Items))
				}
				if len(all) > 0 && !p.Items[len(p.Items)-1].Time.Before(all[0].Time) {
					t.Fatalf("page %d does not end before the previous one", pages)
				}
				all = append(slices.Clone(p.Items), all...)
				if !p.HasMore {
					break
				}
				if pages > 20 {
					t.Fatal("endless paging")
				}
				before = "&before=" + url.QueryEscape(p.Items[0].Time.Format(time.RFC3339))
			}
			for i, cd := range all {
				o, hi, lo, cl := d(t, cd.Open), d(t, cd.High), d(t, cd.Low), d(t, cd.Close)
				if lo.GreaterThan(o) || lo.GreaterThan(cl) || hi.LessThan(o) || hi.LessThan(cl) || cd.Volume < 0 || cd.Time.Location() != time.UTC {
					t.Fatalf("candle %+v", cd)
				}
				if i > 0 && !all[i-1].Time.Before(cd.Time) {
					t.Fatalf("candles not oldest first at %d: %s then %s", i, all[i-1].Time, cd.Time)
				}
			}
			// Minutes reach back five trading days, days three years.
			span := all[len(all)-1].Time.Sub(all[0].Time)
			minSpan := map[string]time.Duration{"1m": 4 * 24 * time.Hour, "3m": 4 * 24 * time.Hour, "15m": 4 * 24 * time.Hour, "30m": 4 * 24 * time.Hour,
				"1d": 2 * 365 * 24 * time.Hour, "1M": 2 * 365 * 24 * time.Hour, "1y": 2 * 365 * 24 * time.Hour}[iv]
			if span < minSpan {
				t.Fatalf("%d candles span only %s", len(all), span)
			}
			// A short page says there is more.
			var p wire.CandlePage
			c.getOK("/api/vue/market/stocks/2330/candles?limit=2&interval="+url.QueryEscape(iv), &p)
			if len(p.Items) != 2 || !p.HasMore || p.Items[1] != all[len(all)-1] {
				t.Fatalf("limit 2: %+v", p)
			}
		})
	}
	c.getOK("/api/vue/market/stocks/TAIEX/candles?interval=1d", new(wire.CandlePage))
	for _, bad := range []string{"interval=2m", "interval=1M&limit=0", "interval=1M&limit=501", "interval=1d&before=yesterday", "limit=5"} {
		want(t, c.get("/api/vue/market/stocks/2330/candles?"+bad), 400, "invalid_request")
	}
	want(t, c.get("/api/vue/market/stocks/9999/candles?interval=1d"), 404, "not_found")
}

func TestMarketSearchIndicesHot(t *testing.T) {
	t.Parallel()
	h := marketHarness(t)
	c := h.anon()
	for _, q := range []string{"2330", "台積電", "TSMC", "tsmc", " 2330 "} {
		var res []wire.Quote
		c.getOK("/api/vue/market/search?q="+url.QueryEscape(q), &res)
		if len(res) == 0 || res[0].Symbol != "2330" {
			t.Fatalf("search %q: %+v", q, res)
		}
		checkQuote(t, res[0])
	}
	var res []wire.Quote
	c.getOK("/api/vue/market/search?q="+url.QueryEscape("台"), &res)
	if len(res) != 20 {
		t.Fatalf("broad search gave %d", len(res))
	}
	for _, q := range []string{"", "zzzzqqq"} {
		c.getOK("/api/vue/market/search?q="+url.QueryEscape(q), &res)
		if len(res) != 0 {
			t.Fatalf("search %q: %+v", q, res)
		}
	}
	want(t, c.get("/api/vue/market/search?q="+strings.Repeat("a", 65)), 400, "invalid_request")

	c.getOK("/api/vue/market/indices", &res)
	if len(res) != 2 || res[0].Symbol != "TAIEX" || res[1].Symbol != "TPEX" || res[0].Market != wire.MarketKindListed ||
		res[1].Market != wire.MarketKindOtc || res[0].Type != wire.Index || res[0].Volume <= 0 {
		t.Fatalf("indices %+v", res)
	}
	for _, ix := range res {
		checkQuote(t, ix)
	}

	for _, mk := range []string{"", "listed", "otc"} {
		c.getOK("/api/vue/market/hot?market="+mk, &res)
		if len(res) != 20 {
			t.Fatalf("hot %q: %d", mk, len(res))
		}
		for i, q := range res {
			checkQuote(t, q)
			if mk != "" && string(q.Market) != mk || i > 0 && d(t, q.Turnover).GreaterThan(d(t, res[i-1].Turnover)) {
				t.Fatalf("hot %q at %d: %+v", mk, i, q)
			}
		}
	}
	want(t, c.get("/api/vue/market/hot?market=nyse"), 400, "invalid_request")
}

func TestFavorites(t *testing.T) {
	forEachBackend(t, func(t *testing.T, h *harness) {
		m := h.register("0912345678")
		other := h.register("0987654321")

		favorite := func(c *client, sym string) wire.FavoriteResult {
			t.Helper()
			a := c.post("/api/vue/user/favorites", map[string]string{"symbol": sym})
			want(t, a, 200, "ok")
			var r wire.FavoriteResult
			a.data(t, &r)
			return r
		}
		unfavorite := func(c *client, sym string) wire.FavoriteResult {
			t.Helper()
			a := c.raw("DELETE", "/api/vue/user/favorites/"+sym, "", nil, "Idempotency-Key", newUUID())
			want(t, a, 200, "ok")
			var r wire.FavoriteResult
			a.data(t, &r)
			return r
		}
		list := func(c *client, typ string, pos int64) []string {
			t.Helper()
			b := []byte(`{"type":"` + typ + `"}`)
			a := c.raw("POST", "/api/vue/user/Optionallist", "application/json", b, "Lotbook-Position", strconv.FormatInt(pos, 10))
			want(t, a, 200, "ok")
			var qs []wire.Quote
			a.data(t, &qs)
			out := []string{}
			for _, q := range qs {
				checkQuote(t, q)
				if typ != "all" && string(q.Market) != typ || len(q.Bids)+len(q.Asks) != 0 {
					t.Fatalf("Optionallist %s item %+v", typ, q)
				}
				out = append(out, q.Symbol)
			}
			return out
		}
		same := func(got []string, want ...string) {
			t.Helper()
			if !slices.Equal(got, want) && !(len(got) == 0 && len(want) == 0) {
				t.Fatalf("favourites %v, want %v", got, want)
			}
		}

		same(list(m, "all", 0))
		r1 := favorite(m, "2330")
		favorite(m, "6488")
		r3 := favorite(m, "00679b")
		if r1.Symbol != "2330" || r3.Symbol != "00679B" || r3.Position <= r1.Position {
			t.Fatalf("add answers %+v %+v", r1, r3)
		}
		h.unchanged(func() {
			again := favorite(m, "2330") // already there: no event
			if again.Position < r1.Position {
				t.Fatalf("re-add %+v", again)
			}
		})
		same(list(m, "all", r3.Position), "2330", "6488", "00679B")
		same(list(m, "listed", 0), "2330")
		same(list(m, "otc", 0), "6488", "00679B")
		same(list(other, "all", r3.Position))

		r := unfavorite(m, "2330")
		same(list(m, "all", r.Position), "6488", "00679B")
		r = favorite(m, "2330") // back at the end
		same(list(m, "all", r.Position), "6488", "00679B", "2330")
		h.unchanged(func() { unfavorite(other, "2330") }) // not one of theirs: no change
		same(list(other, "all", r.Position))

		// Idempotent replay and reuse of a key with another body.
		key := newUUID()
		a := m.postKey("/api/vue/user/favorites", key, map[string]string{"symbol": "0050"})
		want(t, a, 200, "ok")
		h.unchanged(func() {
			b := m.postKey("/api/vue/user/favorites", key, map[string]string{"symbol": "0050"})
			if b.header.Get("Idempotent-Replayed") != "true" || string(b.Data) != string(a.Data) {
				t.Fatalf("replay %s", b)
			}
			want(t, m.postKey("/api/vue/user/favorites", key, map[string]string{"symbol": "2317"}), 409, "idempotency_key_reused")
		})

		// Refusals change nothing.
		h.unchanged(func() {
			want(t, m.post("/api/vue/user/favorites", map[string]string{"symbol": "9999"}), 404, "not_found")
			want(t, m.post("/api/vue/user/favorites", map[string]string{"symbol": "TAIEX"}), 404, "not_found")
			want(t, m.post("/api/vue/user/favorites", map[string]any{"symbol": 2330}), 400, "invalid_request")
			want(t, m.post("/api/vue/user/favorites", map[string]string{"symbol": "2330", "name": "x"}), 400, "invalid_request")
			want(t, m.post("/api/vue/user/favorites", map[string]string{}), 400, "invalid_request")
			want(t, m.raw("POST", "/api/vue/user/favorites", "application/json", []byte(`{"symbol":"2330"}`)), 400, "idempotency_key_required")
			want(t, m.raw("DELETE", "/api/vue/user/favorites/2330", "", nil), 400, "idempotency_key_required")
			want(t, m.raw("DELETE", "/api/vue/user/favorites/9999", "", nil, "Idempotency-Key", newUUID()), 404, "not_found")
			want(t, h.anon().post("/api/vue/user/favorites", map[string]string{"symbol": "2330"}), 401, "unauthorized")
			want(t, h.ops.post("/api/vue/user/favorites", map[string]string{"symbol": "2330"}), 403, "forbidden")
			want(t, h.ops.raw("POST", "/api/vue/user/Optionallist", "application/json", []byte(`{"type":"all"}`)), 403, "forbidden")
			want(t, h.anon().raw("POST", "/api/vue/user/Optionallist", "application/json", []byte(`{"type":"all"}`)), 401, "unauthorized")
			for _, body := range []string{`{"type":"nyse"}`, `{}`, `{"type":"all","x":1}`, `[]`, ``} {
				want(t, m.raw("POST", "/api/vue/user/Optionallist", "application/json", []byte(body)), 400, "invalid_request")
			}
		})
		same(list(m, "all", h.head()), "6488", "00679B", "2330", "0050")

		// The audit timeline shows the member's favourite events.
		var tl wire.Timeline
		h.aud.getOK("/api/vue/audit/accounts/"+m.account+"/timeline", &tl)
		n := 0
		for _, e := range tl.Items {
			if strings.HasPrefix(e.Type, "Favorite") {
				n++
			}
		}
		if n != 6 {
			t.Fatalf("timeline shows %d favourite events, want 6", n)
		}
	})
}
