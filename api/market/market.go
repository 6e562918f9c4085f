// Package market is the market capability's HTTP side: public quotes, lists, candles and search
// straight from the market feed, and the member's favourites (events on the member stream, listed
// from the favorites read model).
package market

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/lotbook/lotbook/api/httpx"
	"github.com/lotbook/lotbook/api/wire"
	"github.com/lotbook/lotbook/commands"
	favoritecmd "github.com/lotbook/lotbook/commands/favorites"
	mkt "github.com/lotbook/lotbook/market"
	"github.com/lotbook/lotbook/projections"
	"github.com/lotbook/lotbook/projections/favorites"
)

// Candle pages: limit 1..maxCandlePage (default defaultCandlePage). One more is asked of the
// market to learn whether older candles exist.
const (
	defaultCandlePage = 200
	maxCandlePage     = 500
	maxSearchQuery    = 64
	searchResults     = 20
	hotResults        = 20
	defaultTapePage   = 50
)

// Commands are the write side's operations this module sends (commands/favorites).
type Commands interface {
	AddFavorite(ctx context.Context, meta commands.Meta, in favoritecmd.Favorite) (commands.Result, error)
	RemoveFavorite(ctx context.Context, meta commands.Meta, in favoritecmd.Favorite) (commands.Result, error)
	WatchlistCommands // the watchlist groups' (watchlists.go)
}

// Module serves the market and favourites routes.
type Module struct {
	cmd  Commands
	read *projections.ReadDB
	feed *mkt.Service
	hot  *hotLists
}

// New is the market module over the favourites' commands, the read models (the
// favourites list) and the market feed.
func New(cmd Commands, read *projections.ReadDB, feed *mkt.Service) *Module {
	return &Module{cmd: cmd, read: read, feed: feed, hot: newHotLists()}
}

// Routes are the market's operations of openapi.yaml.
func (m *Module) Routes() []httpx.Route {
	return append(m.watchlistRoutes(),
		httpx.Op(httpx.Public, "GET", "/api/vue/market/stocks", httpx.IdemNone, m.stocks),
		httpx.Op(httpx.Public, "GET", "/api/vue/market/stocks/{symbol}", httpx.IdemNone, m.quote),
		httpx.Op(httpx.Public, "GET", "/api/vue/market/stocks/{symbol}/candles", httpx.IdemNone, m.candles),
		httpx.Op(httpx.Public, "GET", "/api/vue/market/stocks/{symbol}/trades", httpx.IdemNone, m.trades),
		httpx.Op(httpx.Public, "GET", "/api/vue/market/search", httpx.IdemNone, m.search),
		httpx.Op(httpx.Public, "GET", "/api/vue/market/indices", httpx.IdemNone, m.indices),
		httpx.Op(httpx.Public, "GET", "/api/vue/market/hot", httpx.IdemNone, m.hotList),
		httpx.Op(httpx.Member, "POST", "/api/vue/user/Optionallist", httpx.IdemNone, m.optionalList),
		httpx.Op(httpx.Member, "POST", "/api/vue/user/favorites", httpx.IdemRequired, m.addFavorite),
		httpx.Op(httpx.Member, "DELETE", "/api/vue/user/favorites/{symbol}", httpx.IdemRequired, m.removeFavorite),
	)
}

// marketError maps the market's refusals: an unknown symbol is 404 not_found, a page past the end
// 400 page_out_of_range, any other bad parameter 400 invalid_request.
func marketError(err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, mkt.ErrUnknownSymbol):
		return httpx.Refuse(http.StatusNotFound, wire.MessageKeyNotFound, err)
	case errors.Is(err, mkt.ErrBadPage):
		return httpx.Refuse(http.StatusBadRequest, wire.MessageKeyPageOutOfRange, err)
	case errors.Is(err, mkt.ErrBadInterval), errors.Is(err, mkt.ErrBadTab), errors.Is(err, mkt.ErrBadMarket),
		errors.Is(err, mkt.ErrBadType), errors.Is(err, mkt.ErrBadLimit):
		return httpx.InvalidRequest(err)
	}
	return err
}

// Quote is a quote as the contract (and the WebSocket's quote frames) show it.
func Quote(q mkt.Quote) wire.Quote {
	return wire.Quote{
		Symbol: q.Symbol, Name: q.Name, NameEn: q.NameEN,
		Market: wire.MarketKind(q.Market), Type: wire.InstrumentType(q.Type),
		Price: httpx.Money(q.Price), Change: httpx.Money(q.Change), ChangePercent: q.ChangePercent.StringFixed(2),
		PrevClose: httpx.Money(q.PrevClose), Open: httpx.Money(q.Open), High: httpx.Money(q.High), Low: httpx.Money(q.Low),
		Volume: q.Volume, Turnover: httpx.Money(q.Turnover),
		LimitUp: httpx.Money(q.LimitUp), LimitDown: httpx.Money(q.LimitDown),
		Bids: levels(q.Bids), Asks: levels(q.Asks),
		Time: q.Time.UTC(), TradingStatus: wire.TradingStatus(q.Status),
	}
}

func levels(ls []mkt.Level) []wire.BookLevel {
	out := make([]wire.BookLevel, len(ls))
	for i, l := range ls {
		out[i] = wire.BookLevel{Price: httpx.Money(l.Price), Size: l.Size}
	}
	return out
}

func quotes(qs []mkt.Quote) []wire.Quote {
	out := make([]wire.Quote, len(qs))
	for i, q := range qs {
		out[i] = Quote(q)
	}
	return out
}

// Candle is a candle as the contract (and the WebSocket's candle frames) show it.
func Candle(c mkt.Candle) wire.Candle {
	return wire.Candle{Time: c.Time.UTC(), Open: httpx.Money(c.Open), High: httpx.Money(c.High), Low: httpx.Money(c.Low),
		Close: httpx.Money(c.Close), Volume: c.Volume, Turnover: httpx.Money(c.Turnover)}
}

// quoteDetail is the QuoteDetail schema: a quote with the session (same JSON as the generated
// struct, without copying every field).
type quoteDetail struct {
	wire.Quote
	Session wire.MarketSession `json:"session"`
}

func (m *Module) stocks(c *httpx.Call) (httpx.Reply, error) {
	q := c.R.URL.Query()
	page, size, err := httpx.Paging(q)
	if err != nil {
		return httpx.Reply{}, err
	}
	p, err := m.feed.Stocks(mkt.ListQuery{Tab: q.Get("tab"), Market: q.Get("market"), Type: q.Get("type"), Page: page, Size: size})
	if err != nil {
		return httpx.Reply{}, marketError(err)
	}
	return httpx.OK(wire.QuotePage{Items: quotes(p.Items), Page: p.Page, HasMore: p.HasMore, Total: p.Total})
}

func (m *Module) quote(c *httpx.Call) (httpx.Reply, error) {
	q, err := m.feed.Quote(c.Var("symbol"))
	if err != nil {
		return httpx.Reply{}, marketError(err)
	}
	ss := m.feed.Session()
	return httpx.OK(quoteDetail{Quote: Quote(q), Session: wire.MarketSession{
		Phase: wire.MarketSessionPhase(ss.Phase), Open: ss.Phase != "closed", Demo: ss.Demo,
		AfterHoursAuctionEvery: int(ss.AfterHoursEvery / time.Second),
	}})
}

func (m *Module) candles(c *httpx.Call) (httpx.Reply, error) {
	q := c.R.URL.Query()
	interval := q.Get("interval")
	if interval == "" {
		return httpx.Reply{}, httpx.InvalidRequest(errors.New("interval is required"))
	}
	var before time.Time
	if v := q.Get("before"); v != "" {
		t, err := time.Parse(time.RFC3339, v)
		if err != nil {
			return httpx.Reply{}, httpx.InvalidRequest(fmt.Errorf("before %q", v))
		}
		before = t
	}
	limit := defaultCandlePage
	if v := q.Get("limit"); v != "" {
		n, err := httpx.QueryCount(v)
		if err != nil || n < 1 || n > maxCandlePage {
			return httpx.Reply{}, httpx.InvalidRequest(fmt.Errorf("limit %q", v))
		}
		limit = n
	}
	cs, err := m.feed.Candles(c.Var("symbol"), interval, before, limit+1)
	if err != nil {
		return httpx.Reply{}, marketError(err)
	}
	more := len(cs) > limit
	if more {
		cs = cs[len(cs)-limit:]
	}
	items := make([]wire.Candle, len(cs))
	for i, cd := range cs {
		items[i] = Candle(cd)
	}
	return httpx.OK(wire.CandlePage{Items: items, HasMore: more})
}

// trades is the day's time and sales with the 內外盤 totals (default defaultTapePage rows).
func (m *Module) trades(c *httpx.Call) (httpx.Reply, error) {
	limit := defaultTapePage
	if v := c.R.URL.Query().Get("limit"); v != "" {
		n, err := httpx.QueryCount(v)
		if err != nil || n < 1 || n > mkt.MaxTape {
			return httpx.Reply{}, httpx.InvalidRequest(fmt.Errorf("limit %q", v))
		}
		limit = n
	}
	tp, err := m.feed.Tape(c.Var("symbol"), limit)
	if err != nil {
		return httpx.Reply{}, marketError(err)
	}
	items := make([]wire.TradeTick, len(tp.Trades))
	for i, tr := range tp.Trades {
		items[i] = wire.TradeTick{Time: tr.Time.UTC(), Price: httpx.Money(tr.Price), Size: tr.Shares,
			Tick: wire.TradeTickTick(tr.Tick), Side: wire.TradeTickSide(tr.Side)}
	}
	return httpx.OK(wire.TradeTape{Items: items, Outer: tp.Outer, Inner: tp.Inner, Neutral: tp.Neutral,
		Volume: tp.Volume, Time: tp.Time.UTC()})
}

func (m *Module) search(c *httpx.Call) (httpx.Reply, error) {
	q := strings.TrimSpace(c.R.URL.Query().Get("q"))
	if len([]rune(q)) > maxSearchQuery {
		return httpx.Reply{}, httpx.InvalidRequest(fmt.Errorf("q of %d characters", len([]rune(q))))
	}
	if q == "" {
		return httpx.OK([]wire.Quote{})
	}
	return httpx.OK(quotes(m.feed.Search(q, searchResults)))
}

func (m *Module) indices(c *httpx.Call) (httpx.Reply, error) {
	return httpx.OK(quotes(m.feed.Indices()))
}

func (m *Module) hotList(c *httpx.Call) (httpx.Reply, error) {
	qs, err := m.hot.top(m.feed, c.R.URL.Query().Get("market"))
	if err != nil {
		return httpx.Reply{}, marketError(err)
	}
	return httpx.OK(quotes(qs))
}

// hotLists caches the hot list per market for a second: it is a sort of every instrument of the
// market by turnover, and every home screen asks for it.
type hotLists struct {
	mu    sync.Mutex
	at    map[string]time.Time
	lists map[string][]mkt.Quote
}

func newHotLists() *hotLists {
	return &hotLists{at: map[string]time.Time{}, lists: map[string][]mkt.Quote{}}
}

func (h *hotLists) top(feed *mkt.Service, m string) ([]mkt.Quote, error) {
	m = mkt.Filter(m) // one list for "" and its synonym
	h.mu.Lock()
	defer h.mu.Unlock()
	if at, found := h.at[m]; found && time.Since(at) < time.Second {
		return h.lists[m], nil
	}
	var all []mkt.Quote
	for page := 1; ; page++ {
		p, err := feed.Stocks(mkt.ListQuery{Tab: "volume", Market: m, Page: page, Size: 100})
		if err != nil {
			return nil, err
		}
		all = append(all, p.Items...)
		if !p.HasMore {
			break
		}
	}
	slices.SortStableFunc(all, func(a, b mkt.Quote) int {
		return cmp.Or(b.Turnover.Cmp(a.Turnover), strings.Compare(a.Symbol, b.Symbol))
	})
	all = slices.Clip(all[:min(len(all), hotResults)])
	h.at[m], h.lists[m] = time.Now(), all
	return all, nil
}

// optionalList is the spec's favourites call: a POST that only reads.
func (m *Module) optionalList(c *httpx.Call) (httpx.Reply, error) {
	body, err := httpx.ReadBody(c.W, c.R)
	if err != nil {
		return httpx.Reply{}, err
	}
	c.Body = body
	var req wire.OptionalListRequest
	if err := c.Decode("OptionalListRequest", &req); err != nil {
		return httpx.Reply{}, err
	}
	if !req.Type.Valid() {
		return httpx.Reply{}, httpx.InvalidRequest(fmt.Errorf("type %q", req.Type))
	}
	only := mkt.Filter(string(req.Type)) // one market, or "" for all of them (all, twd)
	if req.Type == wire.OptionalListRequestTypeAll {
		only = ""
	}
	syms, err := favorites.List(c.Ctx(), m.read.Reader, c.Sess.MemberID)
	if err != nil {
		return httpx.Reply{}, fmt.Errorf("favorites of %s: %w", c.Sess.MemberID, err)
	}
	out := make([]wire.Quote, 0, len(syms))
	for _, sym := range syms {
		q, err := m.feed.Quote(sym)
		if err != nil {
			continue // the instrument list no longer has it
		}
		if only != "" && q.Market != only {
			continue
		}
		q.Bids, q.Asks = nil, nil // lists carry no best five
		out = append(out, Quote(q))
	}
	return httpx.OK(out)
}

// favoriteSymbol is the canonical code of a stock or ETF, or 404 not_found.
func (m *Module) favoriteSymbol(symbol string) (string, error) {
	in, err := m.feed.Instrument(symbol)
	if err != nil {
		return "", marketError(err)
	}
	return in.Symbol, nil
}

func (m *Module) addFavorite(c *httpx.Call) (httpx.Reply, error) {
	var req wire.FavoriteRequest
	if err := c.Decode("FavoriteRequest", &req); err != nil {
		return httpx.Reply{}, err
	}
	sym, err := m.favoriteSymbol(req.Symbol)
	if err != nil {
		return httpx.Reply{}, err
	}
	res, err := m.cmd.AddFavorite(c.Ctx(), c.Meta(), favoritecmd.Favorite{MemberID: c.Sess.MemberID, Symbol: sym})
	if err != nil {
		return httpx.Reply{}, err
	}
	return httpx.OK(wire.FavoriteResult{Symbol: sym, Position: res.Position})
}

func (m *Module) removeFavorite(c *httpx.Call) (httpx.Reply, error) {
	sym, err := m.favoriteSymbol(c.Var("symbol"))
	if err != nil {
		return httpx.Reply{}, err
	}
	res, err := m.cmd.RemoveFavorite(c.Ctx(), c.Meta(), favoritecmd.Favorite{MemberID: c.Sess.MemberID, Symbol: sym})
	if err != nil {
		return httpx.Reply{}, err
	}
	return httpx.OK(wire.FavoriteResult{Symbol: sym, Position: res.Position})
}
