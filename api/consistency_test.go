package api

import (
	"context"
	"encoding/json"
	"fmt"
	ptrading "github.com/lotbook/lotbook/projections/trading"
	"net/http"
	"sort"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/lotbook/lotbook/api/httpx"
	"github.com/lotbook/lotbook/api/wire"
	"github.com/lotbook/lotbook/commands/trading/engine"
	"github.com/lotbook/lotbook/events"
	"github.com/lotbook/lotbook/projections/trading/valuation"
)

// Consistency of what a member reads: one answer reflects one log position, and a session reads
// its own writes without sending Lotbook-Position.

// infoRead is one /user/info answer: its assets and the log position it says it reflects.
type infoRead struct {
	member int
	pos    int64
	assets wire.Assets
}

// infoNoHeader reads /user/info as a script would: no Lotbook-Position. It reports errors instead
// of failing the test, so that it may run outside the test's goroutine.
func (c *client) infoNoHeader() (int64, wire.Assets, error) {
	req, err := http.NewRequest("GET", c.h.srv.URL+"/api/vue/user/info", nil)
	if err != nil {
		return 0, wire.Assets{}, err
	}
	req.Header.Set("token", c.token)
	req.Header.Set("account", c.account)
	resp, err := c.h.srv.Client().Do(req)
	if err != nil {
		return 0, wire.Assets{}, err
	}
	defer resp.Body.Close()
	var env struct {
		Status int           `json:"status"`
		Data   wire.UserInfo `json:"data"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&env); err != nil || resp.StatusCode != 200 || env.Status != 1 {
		return 0, wire.Assets{}, fmt.Errorf("user info: %d %v", resp.StatusCode, err)
	}
	pos, err := strconv.ParseInt(resp.Header.Get("Lotbook-Position"), 10, 64)
	if err != nil {
		return 0, wire.Assets{}, fmt.Errorf("user info position: %w", err)
	}
	return pos, env.Data.Assets, nil
}

// assetsReplay folds the log into what /user/info shows a member, at every position where it
// changes: cash from the postings, positions from the fills, valued at last.
type assetsReplay struct {
	memberID  string
	last      decimal.Decimal
	today     string
	available decimal.Decimal
	frozen    decimal.Decimal
	positions map[string]*ptrading.Position
	states    []replayState // one per position where the figures changed, ascending
}

type replayState struct {
	pos    int64
	assets wire.Assets
}

func newAssetsReplay(memberID string, last decimal.Decimal, today string) *assetsReplay {
	r := &assetsReplay{memberID: memberID, last: last, today: today, positions: map[string]*ptrading.Position{}}
	r.states = []replayState{{pos: 0, assets: r.assets()}}
	return r
}

func (r *assetsReplay) apply(t testing.TB, ev events.RecordedEvent) {
	t.Helper()
	p, err := events.DecodeRecorded(ev)
	if err != nil {
		t.Fatalf("decode event %d: %v", ev.Position, err)
	}
	if mm, ok := p.(events.MovesMoney); ok {
		for _, ps := range mm.MoneyPostings() {
			switch {
			case ps.Currency != "TWD":
			case ps.Account == events.MemberAvailable(r.memberID):
				r.available = r.available.Add(ps.Amount)
			case ps.Account == events.MemberFrozen(r.memberID):
				r.frozen = r.frozen.Add(ps.Amount)
			}
		}
	}
	if ev.Stream == events.AccountStream(r.memberID) {
		switch e := p.(type) {
		case events.OrderPlaced:
			if e.Intent != events.IntentOpen || e.Direction != events.DirectionLong {
				t.Fatalf("the replay knows long opening orders only: %+v", e)
			}
			r.positions[e.PositionID] = &ptrading.Position{Kind: e.Kind, Direction: e.Direction, OpenDay: e.TradingDay}
		case events.OrderFilled:
			pos := r.positions[e.PositionID]
			pos.Shares += e.Shares
			pos.Basis = pos.Basis.Add(e.Basis)
			pos.Loan = pos.Loan.Add(e.Loan)
		}
	}
	if a := r.assets(); a != r.states[len(r.states)-1].assets {
		r.states = append(r.states, replayState{pos: ev.Position, assets: a})
	}
}

// assets are the figures as userInfo computes them from the read models.
func (r *assetsReplay) assets() wire.Assets {
	var equity, profit decimal.Decimal
	for _, p := range r.positions {
		v := valuation.Value(*p, r.last, r.today)
		equity, profit = equity.Add(v.Equity), profit.Add(v.Unrealised)
	}
	return wire.Assets{Available: httpx.Money(r.available), Frozen: httpx.Money(r.frozen), Total: httpx.Money(r.available.Add(r.frozen).Add(equity)),
		Profit: httpx.Money(profit), Usd: "0.00"}
}

// at is the state at log position pos.
func (r *assetsReplay) at(pos int64) wire.Assets {
	i := sort.Search(len(r.states), func(i int) bool { return r.states[i].pos > pos })
	return r.states[i-1].assets
}

// matchesSome reports whether a is the state at any position of the log.
func (r *assetsReplay) matchesSome(a wire.Assets) bool {
	for _, s := range r.states {
		if s.assets == a {
			return true
		}
	}
	return false
}

// TestUserInfoIsOneMoment: members place buy orders that the market then fills while readers
// poll /user/info without any header. Every answer must equal the replay of the log at the
// position it carries: an order being filled is counted once (frozen cash, then a position),
// never twice and never missing from total assets.
func TestUserInfoIsOneMoment(t *testing.T) {
	forEachBackend(t, func(t *testing.T, h *harness) {
		th := newTradeHarness(t, h, "")
		const members, rounds = 3, 5
		last := dec("186.5")
		resting := func() { th.mkt.book("2603", "186.5", "186.5", lvls("186", 1000000), lvls("187", 1000000)) }
		crossed := func() { th.mkt.book("2603", "186.5", "186.5", lvls("185.5", 1000000), lvls("186", 1000000)) }
		resting()
		ms := make([]*client, members)
		ids := make([]string, members)
		for i := range ms {
			ms[i] = h.register("09" + strconv.Itoa(30000000+int(imageSizes.Add(1))))
			ms[i].fund("1000000")
			ids[i] = memberIDOf(t, h, ms[i])
		}

		var (
			mu    sync.Mutex
			reads []infoRead
			wg    sync.WaitGroup
		)
		done := make(chan struct{})
		errs := make(chan error, 2*members)
		for i, m := range ms {
			for range 2 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for {
						select {
						case <-done:
							return
						default:
						}
						pos, a, err := m.infoNoHeader()
						if err != nil {
							errs <- err
							return
						}
						mu.Lock()
						reads = append(reads, infoRead{member: i, pos: pos, assets: a})
						mu.Unlock()
					}
				}()
			}
		}
		for range rounds {
			for _, m := range ms {
				m.placed(map[string]any{"symbol": "2603", "direction": "long", "type": "limit", "lots": 1, "price": "186"})
			}
			crossed()
			th.match("2603")
			resting()
		}
		h.catchUp()
		time.Sleep(50 * time.Millisecond) // a few reads of the final state too
		close(done)
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Fatal(err)
		}

		replays := make([]*assetsReplay, members)
		for i, id := range ids {
			replays[i] = newAssetsReplay(id, last, engine.TradingDay(h.clock.Now()))
		}
		for at := int64(0); ; {
			page, err := h.st.Store.ReadAll(context.Background(), at, 1000)
			if err != nil {
				t.Fatal(err)
			}
			if len(page) == 0 {
				break
			}
			for _, ev := range page {
				for _, r := range replays {
					r.apply(t, ev)
				}
			}
			at = page[len(page)-1].Position
		}
		if n := len(replays[0].states); n < 2*rounds {
			t.Fatalf("the replay saw %d states of member 0, want at least %d", n, 2*rounds)
		}
		for _, rd := range reads {
			r := replays[rd.member]
			if !r.matchesSome(rd.assets) {
				t.Fatalf("member %d read %+v (position %d): no position of the log gives these figures: an order counted twice or missing",
					rd.member, rd.assets, rd.pos)
			}
			if want := r.at(rd.pos); rd.assets != want {
				t.Fatalf("member %d read %+v at position %d, the log at that position gives %+v", rd.member, rd.assets, rd.pos, want)
			}
		}
		t.Logf("%d reads, each equal to the replay at the position it carries", len(reads))
	})
}

// TestReadsOwnWritesWithoutHeader: with the projections lagging, a session's read right after its
// own write sees the write although the client sends no Lotbook-Position (a script, a third-party
// client): the server remembers the session's last write position.
func TestReadsOwnWritesWithoutHeader(t *testing.T) {
	forEachBackend(t, func(t *testing.T, h *harness) {
		th := newTradeHarness(t, h, "1000000")
		m := th.m
		th.mkt.book("2603", "186.5", "186.5", lvls("186", 5000), lvls("187", 5000))
		h.st.Runner.SetLag(300 * time.Millisecond)
		defer h.st.Runner.SetLag(0)

		// A resting buy of one lot at 186 freezes 186,000 and commission 265.
		o := m.placed(map[string]any{"symbol": "2603", "direction": "long", "type": "limit", "lots": 1, "price": "186"})
		a := m.get("/api/vue/user/info")
		want(t, a, 200, "ok")
		var u wire.UserInfo
		a.data(t, &u)
		if u.Assets.Available != "813735.00" || u.Assets.Frozen != "186265.00" {
			t.Fatalf("right after the order, without a header: %+v", u.Assets)
		}
		if got, _ := strconv.ParseInt(a.header.Get("Lotbook-Position"), 10, 64); got < o.Position {
			t.Fatalf("answer reflects %d, before the order's %d", got, o.Position)
		}
		var orders wire.TradeOrderPage
		m.getOK("/api/vue/trade/orders?status=all", &orders)
		if len(orders.Items) != 1 || orders.Items[0].OrderNo != o.OrderNo {
			t.Fatalf("orders right after placing one: %+v", orders.Items)
		}

		// Another read model (favourites) and a POST that reads.
		fav := m.post("/api/vue/user/favorites", map[string]string{"symbol": "2330"})
		want(t, fav, 200, "ok")
		var added wire.FavoriteResult
		fav.data(t, &added)
		var favs []wire.Quote
		fa := m.raw("POST", "/api/vue/user/Optionallist", "application/json", []byte(`{"type":"all"}`))
		want(t, fa, 200, "ok")
		fa.data(t, &favs)
		if len(favs) != 1 || favs[0].Symbol != "2330" {
			t.Fatalf("favourites right after adding one: %+v", favs)
		}
		// User info read after that write reflects it too, although nothing in it changed: the
		// account's read models passed the favourite's position without writing.
		a = m.get("/api/vue/user/info")
		want(t, a, 200, "ok")
		if got, _ := strconv.ParseInt(a.header.Get("Lotbook-Position"), 10, 64); got < added.Position {
			t.Fatalf("user info reflects %d, before the favourite's %d", got, added.Position)
		}
	})
}
