package api

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"

	"github.com/lotbook/lotbook/api/wire"
	"github.com/lotbook/lotbook/commands"
	alertcmd "github.com/lotbook/lotbook/commands/alerts"
	"github.com/lotbook/lotbook/commands/alerts/watch"
)

func (c *client) del(path string) answer {
	c.h.t.Helper()
	return c.raw("DELETE", path, "", nil, "Idempotency-Key", uuid.NewString())
}

func (c *client) watchlists() wire.WatchlistGroups {
	c.h.t.Helper()
	var g wire.WatchlistGroups
	c.at("/api/vue/user/watchlists", c.h.head(), &g)
	return g
}

// order is a group's symbols in order, pinned ones marked with *.
func groupOrder(g wire.WatchlistGroups, id string) string {
	for _, gr := range g.Groups {
		if gr.Id == id {
			var out []string
			for _, s := range gr.Symbols {
				out = append(out, s.Symbol+map[bool]string{true: "*"}[s.Pinned])
			}
			return strings.Join(out, " ")
		}
	}
	return "<none>"
}

// Watchlist groups over HTTP on SQLite and PostgreSQL: old favourites are the default group; a
// member creates, renames and deletes groups within the limits (20 groups, names of 1 to 20
// characters, no two alike), adds a symbol to several groups, moves symbols and pins them
// (pinned ones stay on top); the default group cannot be deleted; another member's group is not
// found; bad input changes nothing. The harness checks the read models against replay after it.
func TestWatchlistGroupsScenario(t *testing.T) {
	forEachBackend(t, func(t *testing.T, h *harness) {
		m := h.register("0955100001")
		other := h.register("0955100002")
		// A favourite added the old way is in the default group.
		want(t, m.post("/api/vue/user/favorites", map[string]string{"symbol": "2330"}), 200, "ok")
		want(t, m.post("/api/vue/user/favorites", map[string]string{"symbol": "2317"}), 200, "ok")
		g := m.watchlists()
		if len(g.Groups) != 1 || !g.Groups[0].IsDefault || g.Groups[0].Id != "default" || groupOrder(g, "default") != "2330 2317" ||
			g.MaxGroups != 20 || g.MaxSymbols != 200 {
			t.Fatalf("watchlists %+v", g)
		}

		create := func(c *client, name string) answer {
			return c.post("/api/vue/user/watchlists", map[string]string{"name": name})
		}
		a := create(m, " AI ")
		want(t, a, 200, "ok")
		var ai wire.WatchlistGroupResult
		a.data(t, &ai)
		h.unchanged(func() {
			want(t, create(m, "ai"), 422, "watchlist_name_exists")
			want(t, create(m, "   "), 400, "watchlist_name_invalid")
			want(t, create(m, strings.Repeat("字", 21)), 400, "watchlist_name_invalid")
			want(t, m.post("/api/vue/user/watchlists", map[string]any{"name": "x", "extra": 1}), 400, "invalid_request")
			want(t, m.del("/api/vue/user/watchlists/default"), 422, "watchlist_default_protected")
			want(t, m.post("/api/vue/user/watchlists/"+ai.GroupId+"/symbols", map[string]string{"symbol": "9999"}), 404, "not_found")
			// Another member's group is not found, whatever the route.
			want(t, other.del("/api/vue/user/watchlists/"+ai.GroupId), 404, "watchlist_group_not_found")
			want(t, other.post("/api/vue/user/watchlists/"+ai.GroupId+"/rename", map[string]string{"name": "mine"}), 404, "watchlist_group_not_found")
			want(t, other.post("/api/vue/user/watchlists/"+ai.GroupId+"/symbols", map[string]string{"symbol": "2330"}), 404, "watchlist_group_not_found")
		})

		add := func(group, sym string) {
			want(t, m.post("/api/vue/user/watchlists/"+group+"/symbols", map[string]string{"symbol": sym}), 200, "ok")
		}
		// One symbol in several groups.
		for _, s := range []string{"2330", "2317", "0050"} {
			add(ai.GroupId, s)
		}
		add("default", "0050")
		add(ai.GroupId, "2330") // again: no change
		if g := m.watchlists(); groupOrder(g, ai.GroupId) != "2330 2317 0050" || groupOrder(g, "default") != "2330 2317 0050" {
			t.Fatalf("after adding %+v", g)
		}
		move := func(group, sym string, to int) {
			want(t, m.post("/api/vue/user/watchlists/"+group+"/symbols/"+sym+"/move", map[string]int{"to": to}), 200, "ok")
		}
		pin := func(group, sym string, on bool) {
			want(t, m.post("/api/vue/user/watchlists/"+group+"/symbols/"+sym+"/pin", map[string]bool{"pinned": on}), 200, "ok")
		}
		move(ai.GroupId, "0050", 0)
		if o := groupOrder(m.watchlists(), ai.GroupId); o != "0050 2330 2317" {
			t.Fatalf("after moving up: %s", o)
		}
		pin(ai.GroupId, "2317", true)
		move(ai.GroupId, "2330", 0) // cannot pass the pinned one
		if o := groupOrder(m.watchlists(), ai.GroupId); o != "2317* 2330 0050" {
			t.Fatalf("after pinning: %s", o)
		}
		h.unchanged(func() {
			want(t, m.post("/api/vue/user/watchlists/"+ai.GroupId+"/symbols/2454/move", map[string]int{"to": 0}), 404, "watchlist_symbol_not_in_group")
			want(t, m.post("/api/vue/user/watchlists/"+ai.GroupId+"/symbols/2330/move", map[string]int{"to": -1}), 400, "invalid_request")
			move(ai.GroupId, "2330", 1) // already there
		})
		pin(ai.GroupId, "2317", false)
		// The default group keeps its own order; the old favourites call and removal still work.
		move("default", "2330", 2)
		want(t, m.raw("DELETE", "/api/vue/user/favorites/2317", "", nil, "Idempotency-Key", uuid.NewString()), 200, "ok")
		want(t, m.post("/api/vue/user/watchlists/"+ai.GroupId+"/rename", map[string]string{"name": "半導體"}), 200, "ok")
		want(t, m.post("/api/vue/user/watchlists/default/rename", map[string]string{"name": "我的自選"}), 200, "ok")
		g = m.watchlists()
		if groupOrder(g, "default") != "0050 2330" || groupOrder(g, ai.GroupId) != "2317 2330 0050" || g.Groups[1].Name != "半導體" || g.Groups[0].Name != "我的自選" {
			t.Fatalf("after renaming %+v", g)
		}
		// The favourites call of the spec lists the default group's symbols.
		var favs []wire.Quote
		h.catchUp()
		m.post("/api/vue/user/Optionallist", map[string]string{"type": "all"}).data(t, &favs)
		if len(favs) != 2 || favs[0].Symbol != "2330" || favs[1].Symbol != "0050" {
			t.Fatalf("Optionallist %+v", favs)
		}

		// 20 groups at most, the default one included.
		for i := len(g.Groups); i < 20; i++ {
			want(t, create(m, fmt.Sprintf("G%d", i)), 200, "ok")
		}
		h.unchanged(func() { want(t, create(m, "one too many"), 422, "watchlist_group_limit") })
		want(t, m.del("/api/vue/user/watchlists/"+ai.GroupId), 200, "ok")
		if g := m.watchlists(); len(g.Groups) != 19 || groupOrder(g, ai.GroupId) != "<none>" {
			t.Fatalf("after deleting %d groups", len(g.Groups))
		}
		want(t, create(m, "again"), 200, "ok")
		if g := other.watchlists(); len(g.Groups) != 1 || len(g.Groups[0].Symbols) != 0 {
			t.Fatalf("the other member sees %+v", g)
		}
	})
}

func (c *client) alerts() wire.PriceAlertList {
	c.h.t.Helper()
	var l wire.PriceAlertList
	c.at("/api/vue/alerts", c.h.head(), &l)
	return l
}

func (c *client) notifications() wire.AlertNotifications {
	c.h.t.Helper()
	var n wire.AlertNotifications
	c.at("/api/vue/alerts/notifications", c.h.head(), &n)
	return n
}

// Price alerts over HTTP on SQLite and PostgreSQL, against the market's known deterministic
// prices (the test market stands still): alerts the quote has not crossed stay active as the
// clock moves; one it crossed fires once, becomes a notification (unread until read) and shows
// triggered; firing it again (a restart, a second instance) changes nothing; another member's
// alert is not found; bad input and the 50-alert limit are refused without an event.
func TestPriceAlertsScenario(t *testing.T) {
	forEachBackend(t, func(t *testing.T, h *harness) {
		m := h.register("0955200001")
		other := h.register("0955200002")
		var q map[string]any
		m.getOK("/api/vue/market/stocks/2330", &q)
		price := decimal.RequireFromString(q["price"].(string))
		set := func(c *client, kind, value string) answer {
			return c.post("/api/vue/alerts", map[string]string{"symbol": "2330", "kind": kind, "value": value})
		}
		setOK := func(kind, value string) string {
			t.Helper()
			a := set(m, kind, value)
			want(t, a, 200, "alert_set")
			var r wire.PriceAlertResult
			a.data(t, &r)
			return *r.AlertId
		}
		h.unchanged(func() {
			want(t, set(m, "sideways", "1"), 400, "alert_kind_invalid")
			want(t, set(m, "price_above", "0"), 400, "alert_value_invalid")
			want(t, set(m, "price_above", "12.345"), 400, "alert_value_invalid")
			want(t, set(m, "rise_pct", "100.5"), 400, "alert_value_invalid")
			want(t, set(m, "price_above", "1e3x"), 400, "alert_value_invalid")
			want(t, m.post("/api/vue/alerts", map[string]string{"symbol": "9999", "kind": "price_above", "value": "10"}), 404, "not_found")
			want(t, m.post("/api/vue/alerts", map[string]string{"symbol": "TAIEX", "kind": "price_above", "value": "10"}), 404, "not_found")
		})
		above := setOK("price_above", price.Add(decimal.NewFromInt(100)).String())
		rise := setOK("rise_pct", "50")
		crossed := setOK("price_below", price.StringFixed(2))
		from := h.head()

		// The clock moves: the crossed alert fires once, the others wait.
		deadline := time.Now().Add(15 * time.Second)
		var n wire.AlertNotifications
		for {
			h.clock.Advance(time.Second)
			if n = m.notifications(); len(n.Items) > 0 || time.Now().After(deadline) {
				break
			}
			time.Sleep(50 * time.Millisecond)
		}
		if len(n.Items) != 1 || n.Unread != 1 || n.Items[0].Id != crossed || n.Items[0].Status != wire.PriceAlertStatusTriggered ||
			n.Items[0].Price == nil || *n.Items[0].Price != price.StringFixed(2) || n.Items[0].Name == "" {
			t.Fatalf("notifications %+v", n)
		}
		for range 3 {
			h.clock.Advance(time.Second)
			time.Sleep(300 * time.Millisecond)
		}
		if got := h.countEvents(t, from, "AlertFired.v1"); got != 1 {
			t.Fatalf("%d AlertFired events, want 1", got)
		}
		// Sent again with its id (a restart from an older checkpoint) or another: nothing new.
		fire := alertcmd.New(h.st.Commands)
		for _, id := range []string{watch.FireCommandID(crossed), "another-instance"} {
			if _, err := fire.FireAlert(context.Background(), commands.Meta{CommandID: id, Actor: "system"},
				alertcmd.Fire{MemberID: memberIDOf(t, h, m), AlertID: crossed, Price: price, PrevClose: price, QuoteTime: h.clock.Now()}); err != nil {
				t.Fatal(err)
			}
		}
		if got := h.countEvents(t, from, "AlertFired.v1"); got != 1 {
			t.Fatalf("%d AlertFired events after firing again, want 1", got)
		}
		l := m.alerts()
		status := map[string]wire.PriceAlertStatus{}
		for _, a := range l.Items {
			status[a.Id] = a.Status
		}
		if l.Active != 2 || l.MaxActive != 50 || status[above] != wire.PriceAlertStatusActive || status[rise] != wire.PriceAlertStatusActive ||
			status[crossed] != wire.PriceAlertStatusTriggered {
			t.Fatalf("alerts %+v", l)
		}

		// Read, foreign ids, cancelling.
		want(t, m.post("/api/vue/alerts/notifications/read", map[string]int64{"through": *n.Items[0].FiredPosition}), 200, "ok")
		if n := m.notifications(); n.Unread != 0 || len(n.Items) != 1 {
			t.Fatalf("after reading %+v", n)
		}
		h.unchanged(func() {
			want(t, m.post("/api/vue/alerts/notifications/read", map[string]int64{"through": 1 << 50}), 400, "invalid_request")
			want(t, other.del("/api/vue/alerts/"+above), 404, "alert_not_found")
			want(t, m.del("/api/vue/alerts/"+crossed), 422, "alert_not_active")
			want(t, m.del("/api/vue/alerts/AL-nothing"), 404, "alert_not_found")
		})
		if len(other.alerts().Items) != 0 || len(other.notifications().Items) != 0 {
			t.Fatal("the other member sees alerts")
		}
		want(t, m.del("/api/vue/alerts/"+above), 200, "alert_cancelled")
		if l := m.alerts(); l.Active != 1 || len(l.Items) != 2 {
			t.Fatalf("after cancelling %+v", l)
		}

		// 50 active alerts at most.
		for i := 1; i < alertcmd.MaxActive; i++ {
			setOK("fall_pct", "90")
		}
		h.unchanged(func() { want(t, set(m, "fall_pct", "90"), 422, "alert_limit_reached") })
	})
}

// memberIDOf is the member id of a client's session.
func memberIDOf(t *testing.T, h *harness, c *client) string {
	t.Helper()
	h.catchUp()
	mem, err := h.st.Read.MemberByAccount(context.Background(), c.account)
	if err != nil {
		t.Fatal(err)
	}
	return mem.MemberID
}

// The holdings (庫存) summary against a scripted market: two lots of 2603 bought at 187 today
// count today's move from the entry price; the next day from the previous close; market value,
// cost and the total profit equal the positions' own.
func TestHoldingsSummaryScenario(t *testing.T) {
	forEachBackend(t, func(t *testing.T, h *harness) {
		th := newTradeHarness(t, h, "1000000")
		m := th.m
		var s wire.HoldingsSummary
		m.at("/api/vue/trade/holdingsSummary", h.head(), &s)
		if s.Positions != 0 || s.MarketValue != "0.00" || s.TodayPercent != "0.00" {
			t.Fatalf("empty summary %+v", s)
		}
		th.mkt.book("2603", "186.5", "186.5", lvls("186", 5000), lvls("187", 5000))
		o := m.placed(map[string]any{"symbol": "2603", "direction": "long", "type": "limit", "lots": 2, "price": "187"})
		th.match("2603")
		th.mkt.book("2603", "186.5", "190", lvls("189.5", 5000), lvls("190", 5000))
		m.at("/api/vue/trade/holdingsSummary", h.head(), &s)
		d := m.positionNamed(o.OrderNo)
		// Today: (190 − 187) × 2,000 = 6,000 on 374,000 at entry = 1.60 %.
		if s.Positions != 1 || s.MarketValue != "380000.00" || s.MarketValue != d.Position.MarketValue || s.TodayProfit != "6000.00" ||
			s.TodayPercent != "1.60" || s.TotalProfit != d.Position.UnrealisedProfit {
			t.Fatalf("summary %+v, position %+v", s, d.Position)
		}
		cost, total := decimal.RequireFromString(s.Cost), decimal.RequireFromString(s.TotalProfit)
		if want := total.Mul(decimal.NewFromInt(100)).DivRound(cost, 2).StringFixed(2); s.TotalPercent != want || !cost.GreaterThan(decimal.NewFromInt(374000)) {
			t.Fatalf("total percent %s, want %s (cost %s)", s.TotalPercent, want, cost)
		}
		// The next day: from the previous close, 190 → 186: −8,000 on 380,000 = −2.11 %.
		h.clock.Advance(24 * time.Hour)
		th.mkt.book("2603", "190", "186", lvls("185.5", 5000), lvls("186", 5000))
		m.at("/api/vue/trade/holdingsSummary", h.head(), &s)
		if s.TodayProfit != "-8000.00" || s.TodayPercent != "-2.11" || s.MarketValue != "372000.00" {
			t.Fatalf("next day's summary %+v", s)
		}
	})
}
