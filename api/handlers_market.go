package api

import (
	"cmp"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/gorilla/mux"
	"github.com/shopspring/decimal"

	"github.com/lotbook/lotbook/api/httpx"
	"github.com/lotbook/lotbook/api/wire"
	"github.com/lotbook/lotbook/market"
)

// Market routes: public quotes, lists, candles and search straight from the market feed, and the
// member's favourites (events on the member stream, listed from the favorites read model).

// Candle pages: limit 1..maxCandlePage (default defaultCandlePage). One more is asked of the
// market to learn whether older candles exist.
const (
	defaultCandlePage = 200
	maxCandlePage     = 500
	maxSearchQuery    = 64
	searchResults     = 20
	hotResults        = 20
)

// marketError maps the market's refusals: an unknown symbol is 404 not_found, a page past the end
// 400 page_out_of_range, any other bad parameter 400 invalid_request.
func marketError(err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, market.ErrUnknownSymbol):
		return httpx.Refuse(http.StatusNotFound, wire.MessageKeyNotFound, err)
	case errors.Is(err, market.ErrBadPage):
		return httpx.Refuse(http.StatusBadRequest, wire.MessageKeyPageOutOfRange, err)
	case errors.Is(err, market.ErrBadInterval), errors.Is(err, market.ErrBadTab), errors.Is(err, market.ErrBadMarket),
		errors.Is(err, market.ErrBadType), errors.Is(err, market.ErrBadLimit):
		return httpx.InvalidRequest(err)
	}
	return err
}

// price renders a price or amount with two decimals, as the exchange quotes them.
func price(d decimal.Decimal) string { return d.StringFixed(2) }

func quoteOut(q market.Quote) wire.Quote {
	return wire.Quote{
		Symbol: q.Symbol, Name: q.Name, NameEn: q.NameEN,
		Market: wire.MarketKind(q.Market), Type: wire.InstrumentType(q.Type),
		Price: price(q.Price), Change: price(q.Change), ChangePercent: q.ChangePercent.StringFixed(2),
		PrevClose: price(q.PrevClose), Open: price(q.Open), High: price(q.High), Low: price(q.Low),
		Volume: q.Volume, Turnover: price(q.Turnover),
		LimitUp: price(q.LimitUp), LimitDown: price(q.LimitDown),
		Bids: levelsOut(q.Bids), Asks: levelsOut(q.Asks),
		Time: q.Time.UTC(),
	}
}

func levelsOut(ls []market.Level) []wire.BookLevel {
	out := make([]wire.BookLevel, len(ls))
	for i, l := range ls {
		out[i] = wire.BookLevel{Price: price(l.Price), Size: l.Size}
	}
	return out
}

func quotesOut(qs []market.Quote) []wire.Quote {
	out := make([]wire.Quote, len(qs))
	for i, q := range qs {
		out[i] = quoteOut(q)
	}
	return out
}

func candleOut(c market.Candle) wire.Candle {
	return wire.Candle{Time: c.Time.UTC(), Open: price(c.Open), High: price(c.High), Low: price(c.Low),
		Close: price(c.Close), Volume: c.Volume, Turnover: price(c.Turnover)}
}

// quoteDetail is the QuoteDetail schema: a quote with the session (same JSON as the generated
// struct, without copying every field).
type quoteDetail struct {
	wire.Quote
	Session wire.MarketSession `json:"session"`
}

func (s *server) marketStocks(c *httpx.Call) (httpx.Reply, error) {
	q := c.R.URL.Query()
	page, size, err := httpx.Paging(q)
	if err != nil {
		return httpx.Reply{}, err
	}
	p, err := s.mkt.Stocks(market.ListQuery{Tab: q.Get("tab"), Market: q.Get("market"), Type: q.Get("type"), Page: page, Size: size})
	if err != nil {
		return httpx.Reply{}, marketError(err)
	}
	return httpx.OK(wire.QuotePage{Items: quotesOut(p.Items), Page: p.Page, HasMore: p.HasMore, Total: p.Total})
}

func (s *server) marketQuote(c *httpx.Call) (httpx.Reply, error) {
	q, err := s.mkt.Quote(mux.Vars(c.R)["symbol"])
	if err != nil {
		return httpx.Reply{}, marketError(err)
	}
	ss := s.mkt.Session()
	return httpx.OK(quoteDetail{Quote: quoteOut(q), Session: wire.MarketSession{
		Phase: wire.MarketSessionPhase(ss.Phase), Open: ss.Phase != "closed", Demo: ss.Demo,
	}})
}

func (s *server) marketCandles(c *httpx.Call) (httpx.Reply, error) {
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
	cs, err := s.mkt.Candles(mux.Vars(c.R)["symbol"], interval, before, limit+1)
	if err != nil {
		return httpx.Reply{}, marketError(err)
	}
	more := len(cs) > limit
	if more {
		cs = cs[len(cs)-limit:]
	}
	items := make([]wire.Candle, len(cs))
	for i, cd := range cs {
		items[i] = candleOut(cd)
	}
	return httpx.OK(wire.CandlePage{Items: items, HasMore: more})
}

func (s *server) marketSearch(c *httpx.Call) (httpx.Reply, error) {
	q := strings.TrimSpace(c.R.URL.Query().Get("q"))
	if len([]rune(q)) > maxSearchQuery {
		return httpx.Reply{}, httpx.InvalidRequest(fmt.Errorf("q of %d characters", len([]rune(q))))
	}
	if q == "" {
		return httpx.OK([]wire.Quote{})
	}
	return httpx.OK(quotesOut(s.mkt.Search(q, searchResults)))
}

func (s *server) marketIndices(c *httpx.Call) (httpx.Reply, error) {
	return httpx.OK(quotesOut(s.mkt.Indices()))
}

func (s *server) marketHot(c *httpx.Call) (httpx.Reply, error) {
	m := c.R.URL.Query().Get("market")
	qs, err := s.hot.top(s.mkt, m)
	if err != nil {
		return httpx.Reply{}, marketError(err)
	}
	return httpx.OK(quotesOut(qs))
}

// hotLists caches the hot list per market for a second: it is a sort of every instrument of the
// market by turnover, and every home screen asks for it.
type hotLists struct {
	mu    sync.Mutex
	at    map[string]time.Time
	lists map[string][]market.Quote
}

func newHotLists() *hotLists {
	return &hotLists{at: map[string]time.Time{}, lists: map[string][]market.Quote{}}
}

func (h *hotLists) top(mkt *market.Service, m string) ([]market.Quote, error) {
	m = market.Filter(m) // one list for "" and its synonym
	h.mu.Lock()
	defer h.mu.Unlock()
	if at, found := h.at[m]; found && time.Since(at) < time.Second {
		return h.lists[m], nil
	}
	var all []market.Quote
	for page := 1; ; page++ {
		p, err := mkt.Stocks(market.ListQuery{Tab: "volume", Market: m, Page: page, Size: 100})
		if err != nil {
			return nil, err
		}
		all = append(all, p.Items...)
		if !p.HasMore {
			break
		}
	}
	slices.SortStableFunc(all, func(a, b market.Quote) int {
		return cmp.Or(b.Turnover.Cmp(a.Turnover), strings.Compare(a.Symbol, b.Symbol))
	})
	all = slices.Clip(all[:min(len(all), hotResults)])
	h.at[m], h.lists[m] = time.Now(), all
	return all, nil
}

// optionalList is the spec's favourites call: a POST that only reads.
func (s *server) optionalList(c *httpx.Call) (httpx.Reply, error) {
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
	only := market.Filter(string(req.Type)) // one market, or "" for all of them (all, twd)
	if req.Type == wire.OptionalListRequestTypeAll {
		only = ""
	}
	syms, err := s.read.Favorites(c.Ctx(), c.Sess.MemberID)
	if err != nil {
		return httpx.Reply{}, fmt.Errorf("favorites of %s: %w", c.Sess.MemberID, err)
	}
	out := make([]wire.Quote, 0, len(syms))
	for _, sym := range syms {
		q, err := s.mkt.Quote(sym)
		if err != nil {
			continue // the instrument list no longer has it
		}
		if only != "" && q.Market != only {
			continue
		}
		q.Bids, q.Asks = nil, nil // lists carry no best five
		out = append(out, quoteOut(q))
	}
	return httpx.OK(out)
}

// favoriteSymbol is the canonical code of a stock or ETF, or 404 not_found.
func (s *server) favoriteSymbol(symbol string) (string, error) {
	in, err := s.mkt.Instrument(symbol)
	if err != nil {
		return "", marketError(err)
	}
	return in.Symbol, nil
}

func (s *server) addFavorite(c *httpx.Call) (httpx.Reply, error) {
	var req wire.FavoriteRequest
	if err := c.Decode("FavoriteRequest", &req); err != nil {
		return httpx.Reply{}, err
	}
	sym, err := s.favoriteSymbol(req.Symbol)
	if err != nil {
		return httpx.Reply{}, err
	}
	res, err := s.cmd.AddFavorite(c.Ctx(), c.Meta(), c.Sess.MemberID, sym)
	if err != nil {
		return httpx.Reply{}, err
	}
	return httpx.OK(wire.FavoriteResult{Symbol: sym, Position: res.Position})
}

func (s *server) removeFavorite(c *httpx.Call) (httpx.Reply, error) {
	sym, err := s.favoriteSymbol(mux.Vars(c.R)["symbol"])
	if err != nil {
		return httpx.Reply{}, err
	}
	res, err := s.cmd.RemoveFavorite(c.Ctx(), c.Meta(), c.Sess.MemberID, sym)
	if err != nil {
		return httpx.Reply{}, err
	}
	return httpx.OK(wire.FavoriteResult{Symbol: sym, Position: res.Position})
}
