package api

import (
	"net/url"
	"testing"
	"time"

	"github.com/lotbook/lotbook/api/wire"
)

// A visitor (no session) reads everything a stock screen shows: lists, search, indices, the hot
// list, the quote, candles at every interval the screen offers and the day's time and sales, whose
// totals are the quote's volume and the day's one-minute candles' volume. Account actions refuse.
func TestStockScreenVisitor(t *testing.T) {
	t.Parallel()
	h := marketHarness(t)
	c := h.anon()
	c.getOK("/api/vue/market/stocks?tab=all&market=listed&page=1", new(wire.QuotePage))
	c.getOK("/api/vue/market/search?q=2330", new([]wire.Quote))
	c.getOK("/api/vue/market/indices", new([]wire.Quote))
	c.getOK("/api/vue/market/hot?market=listed", new([]wire.Quote))
	var q quoteDetailWire
	c.getOK("/api/vue/market/stocks/2330", &q)

	for _, iv := range []string{"1m", "5m", "15m", "30m", "60m", "1d", "1w", "1M"} {
		var p wire.CandlePage
		c.getOK("/api/vue/market/stocks/2330/candles?limit=50&interval="+url.QueryEscape(iv), &p)
		if len(p.Items) < 2 {
			t.Fatalf("%s: %d candles", iv, len(p.Items))
		}
		step := p.Items[len(p.Items)-1].Time.Sub(p.Items[len(p.Items)-2].Time)
		switch iv {
		case "5m":
			if step%(5*time.Minute) != 0 {
				t.Fatalf("5m candles %s apart", step)
			}
		case "60m":
			if step%time.Hour != 0 {
				t.Fatalf("60m candles %s apart", step)
			}
		case "1w":
			for _, cd := range p.Items {
				if cd.Time.In(taipeiZone(t)).Weekday() != time.Monday {
					t.Fatalf("week candle at %s", cd.Time)
				}
			}
		}
	}

	var tape wire.TradeTape
	c.getOK("/api/vue/market/stocks/2330/trades?limit=200", &tape)
	if tape.Volume != q.Volume || tape.Outer+tape.Inner+tape.Neutral != tape.Volume || tape.Volume == 0 {
		t.Fatalf("tape %d = %d + %d + %d, quote %d", tape.Volume, tape.Outer, tape.Inner, tape.Neutral, q.Volume)
	}
	if len(tape.Items) == 0 || len(tape.Items) > 200 || tape.Items[0].Price != q.Price {
		t.Fatalf("tape rows %d, newest %+v, quote %s", len(tape.Items), tape.Items[0], q.Price)
	}
	// The day's one-minute candles hold the same shares.
	day := q.Time.In(taipeiZone(t)).Format("2006-01-02")
	var mins int64
	before := ""
	for pages := 0; pages < 20; pages++ {
		var p wire.CandlePage
		c.getOK("/api/vue/market/stocks/2330/candles?limit=500&interval=1m"+before, &p)
		done := false
		for i := len(p.Items) - 1; i >= 0; i-- {
			if p.Items[i].Time.In(taipeiZone(t)).Format("2006-01-02") != day {
				done = true
				break
			}
			mins += p.Items[i].Volume
		}
		if done || !p.HasMore {
			break
		}
		before = "&before=" + url.QueryEscape(p.Items[0].Time.Format(time.RFC3339))
	}
	if mins != tape.Volume {
		t.Fatalf("the day's 1m candles hold %d shares, the tape %d", mins, tape.Volume)
	}
	var short wire.TradeTape
	c.getOK("/api/vue/market/stocks/2330/trades", &short)
	if len(short.Items) != min(50, len(tape.Items)) || short.Volume != tape.Volume || short.Items[0] != tape.Items[0] {
		t.Fatalf("default page: %d rows", len(short.Items))
	}
	for _, bad := range []string{"limit=0", "limit=201", "limit=x"} {
		want(t, c.get("/api/vue/market/stocks/2330/trades?"+bad), 400, "invalid_request")
	}
	want(t, c.get("/api/vue/market/stocks/TAIEX/trades"), 404, "not_found")
	want(t, c.get("/api/vue/market/stocks/9999/trades"), 404, "not_found")

	// Account actions need a session.
	want(t, c.post("/api/vue/user/Optionallist", map[string]any{"type": "all"}), 401, "unauthorized")
	want(t, c.postKey("/api/vue/user/favorites", "visitor-fav-1", map[string]any{"symbol": "2330"}), 401, "unauthorized")
	want(t, c.get("/api/vue/user/info"), 401, "unauthorized")
}

func taipeiZone(t *testing.T) *time.Location {
	t.Helper()
	loc, err := time.LoadLocation("Asia/Taipei")
	if err != nil {
		return time.FixedZone("Asia/Taipei", 8*60*60)
	}
	return loc
}
