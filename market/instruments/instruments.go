// Package instruments is the list of every stock and ETF that trades on TWSE (listed) and TPEx
// (over the counter), embedded from the twstock data files (MIT licence, see data/LICENSE): code,
// Chinese and English names, market, industry, type, listing date, and for the simulator a
// reference price and shares outstanding. Lookup by code, search by code or name in either language.
package instruments

import (
	"bytes"
	"embed"
	"encoding/csv"
	"fmt"
	"hash/fnv"
	"io"
	"math"
	"sort"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/lotbook/lotbook/market/price"
	"github.com/lotbook/lotbook/market/rules"
)

//go:embed data/twse_equities.csv data/tpex_equities.csv
var files embed.FS

// Market is where an instrument trades.
type Market string

const (
	Listed Market = "listed" // TWSE 上市
	OTC    Market = "otc"    // TPEx 上櫃
)

// Type is stock or ETF.
type Type string

const (
	StockType Type = "stock"
	ETFType   Type = "etf"
)

// Instrument is one tradable code.
type Instrument struct {
	Code       string
	Name       string // Chinese short name as the exchange lists it
	NameEN     string // real English name for the best known, else the Chinese name
	Alias      string // a short English name people search by (TSMC), may be empty
	Market     Market
	Type       Type
	Innovation bool   // Taiwan Innovation Board (臺灣創新板)
	Industry   string // exchange industry group in Chinese; "ETF" for ETFs
	IndustryEN string
	Listed     time.Time // listing date, 00:00 Asia/Taipei
	// RefPrice is the reference price of the simulator's first day: a realistic level for the
	// best known, else drawn from a fixed distribution by code (the same on every run).
	RefPrice price.Price
	// Shares is shares (or ETF units) outstanding, an estimate used for cap weighting.
	Shares int64
	// Known reports that the name, price level and shares come from the hand-written table.
	Known bool
}

// Kind selects the tick table.
func (i *Instrument) Kind() rules.Kind {
	if i.Type == ETFType {
		return rules.ETF
	}
	return rules.Stock
}

// Catalog is the immutable instrument list.
type Catalog struct {
	all    []*Instrument
	byCode map[string]*Instrument
}

var (
	defaultOnce sync.Once
	defaultCat  *Catalog
	defaultErr  error
)

// Default is the embedded list, parsed once.
func Default() (*Catalog, error) {
	defaultOnce.Do(func() { defaultCat, defaultErr = load() })
	return defaultCat, defaultErr
}

// MustDefault is Default for wiring code and tests; the embedded data is checked by tests.
func MustDefault() *Catalog {
	c, err := Default()
	if err != nil {
		panic(err)
	}
	return c
}

func load() (*Catalog, error) {
	tpe, err := time.LoadLocation("Asia/Taipei")
	if err != nil {
		tpe = time.FixedZone("Asia/Taipei", 8*60*60)
	}
	c := &Catalog{byCode: map[string]*Instrument{}}
	for _, name := range []string{"data/twse_equities.csv", "data/tpex_equities.csv"} {
		raw, err := files.ReadFile(name)
		if err != nil {
			return nil, fmt.Errorf("instruments: read %s: %w", name, err)
		}
		if err := c.parse(raw, tpe); err != nil {
			return nil, fmt.Errorf("instruments: %s: %w", name, err)
		}
	}
	for _, k := range known {
		in := c.byCode[k.code]
		if in == nil {
			return nil, fmt.Errorf("instruments: known code %s is not in the data", k.code)
		}
		in.NameEN, in.Alias, in.Known = k.en, k.alias, true
		if k.ref != "" {
			p, err := price.Parse(k.ref)
			if err != nil {
				return nil, fmt.Errorf("instruments: %s: %w", k.code, err)
			}
			in.RefPrice = rules.RoundNearest(p, in.Kind())
		}
		if k.shares > 0 {
			in.Shares = k.shares
		}
	}
	sort.Slice(c.all, func(a, b int) bool { return c.all[a].Code < c.all[b].Code })
	return c, nil
}

func (c *Catalog) parse(raw []byte, tpe *time.Location) error {
	r := csv.NewReader(bytes.NewReader(raw))
	header, err := r.Read()
	if err != nil {
		return fmt.Errorf("header: %w", err)
	}
	if strings.Join(header, ",") != "type,code,name,ISIN,start,market,group,CFI" {
		return fmt.Errorf("unexpected header %v", header)
	}
	for {
		rec, err := r.Read()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return fmt.Errorf("read: %w", err)
		}
		kind, code, name, start, market, group := rec[0], rec[1], rec[2], rec[4], rec[5], rec[6]
		in := &Instrument{Code: code, Name: name, NameEN: name}
		switch kind {
		case "股票":
			in.Type = StockType
		case "創新板":
			in.Type, in.Innovation = StockType, true
		case "ETF":
			// K and C counters trade in foreign currency; lotbook trades NT$ only.
			if strings.HasSuffix(code, "K") || strings.HasSuffix(code, "C") {
				continue
			}
			in.Type = ETFType
		default:
			continue
		}
		switch {
		case strings.HasPrefix(market, "上市"):
			in.Market = Listed
		case market == "上櫃":
			in.Market = OTC
		default:
			return fmt.Errorf("%s: unknown market %q", code, market)
		}
		in.Industry = group
		if in.Type == ETFType || group == "" {
			in.Industry = "ETF"
			if in.Type == StockType {
				in.Industry = "其他業"
			}
		}
		in.IndustryEN = industryEN[in.Industry]
		if in.IndustryEN == "" {
			in.IndustryEN = in.Industry
		}
		if in.Listed, err = time.ParseInLocation("2006/01/02", start, tpe); err != nil {
			return fmt.Errorf("%s: listing date: %w", code, err)
		}
		if _, dup := c.byCode[code]; dup {
			return fmt.Errorf("%s listed twice", code)
		}
		in.RefPrice, in.Shares = estimate(in)
		c.byCode[code] = in
		c.all = append(c.all, in)
	}
}

// unit is a uniform number in (0,1) fixed by the code and a purpose, the same on every run.
func unit(code, purpose string) float64 {
	h := fnv.New64a()
	h.Write([]byte(purpose))
	h.Write([]byte{0})
	h.Write([]byte(code))
	return (float64(h.Sum64()>>11) + 0.5) / (1 << 53)
}

// normal turns two uniforms into a standard normal number (Box–Muller).
func normal(code, purpose string) float64 {
	u1, u2 := unit(code, purpose+"/1"), unit(code, purpose+"/2")
	return math.Sqrt(-2*math.Log(u1)) * math.Cos(2*math.Pi*u2)
}

// estimate draws a plausible price level and share count for an instrument not in the table:
// log-normal around the market's typical levels (small and mid caps near NT$40 with a wide spread;
// bond ETFs near NT$35, inverse ETFs lower).
func estimate(in *Instrument) (price.Price, int64) {
	median, spread := 40.0, 0.85
	sharesMedian, sharesSpread := 2.5e8, 1.0
	if in.Market == OTC {
		sharesMedian = 1.0e8
	}
	if in.Type == ETFType {
		sharesMedian, sharesSpread = 3e8, 1.2
		switch {
		case strings.HasSuffix(in.Code, "B"):
			median, spread = 35, 0.25
		case strings.HasSuffix(in.Code, "R"):
			median, spread = 12, 0.5
		case strings.HasSuffix(in.Code, "L"):
			median, spread = 30, 0.7
		default:
			median, spread = 20, 0.45
		}
	}
	px := median * math.Exp(spread*normal(in.Code, "price"))
	px = math.Min(math.Max(px, 3), 3000)
	shares := sharesMedian * math.Exp(sharesSpread*normal(in.Code, "shares"))
	shares = math.Min(math.Max(shares, 1e7), 2e10)
	return rules.RoundNearest(price.Price(math.Round(px*100)), in.Kind()), int64(shares/1000) * 1000
}

// All is every instrument, sorted by code. The slice is shared: do not modify it.
func (c *Catalog) All() []*Instrument { return c.all }

// Len is the number of instruments.
func (c *Catalog) Len() int { return len(c.all) }

// Lookup finds an instrument by its exact code (case-insensitive for the letter suffixes).
func (c *Catalog) Lookup(code string) (*Instrument, bool) {
	in, ok := c.byCode[strings.ToUpper(strings.TrimSpace(code))]
	return in, ok
}

// Search finds instruments whose code, Chinese name, English name or alias matches q: exact code
// first, then code prefixes, then name prefixes, then substrings; within a rank larger companies
// first. Matching ignores case and surrounding spaces; an empty query finds nothing.
func (c *Catalog) Search(q string, limit int) []*Instrument {
	q = strings.ToLower(strings.TrimSpace(q))
	if q == "" || limit <= 0 {
		return nil
	}
	type hit struct {
		in   *Instrument
		rank int
	}
	var hits []hit
	for _, in := range c.all {
		if r := matchRank(in, q); r >= 0 {
			hits = append(hits, hit{in, r})
		}
	}
	sort.SliceStable(hits, func(a, b int) bool {
		if hits[a].rank != hits[b].rank {
			return hits[a].rank < hits[b].rank
		}
		ca := float64(hits[a].in.Shares) * float64(hits[a].in.RefPrice)
		cb := float64(hits[b].in.Shares) * float64(hits[b].in.RefPrice)
		if ca != cb {
			return ca > cb
		}
		return hits[a].in.Code < hits[b].in.Code
	})
	if len(hits) > limit {
		hits = hits[:limit]
	}
	out := make([]*Instrument, len(hits))
	for i, h := range hits {
		out[i] = h.in
	}
	return out
}

// matchRank is 0 for the exact code, 1 for a code prefix, 2 for an exact alias or a name prefix
// (either language, or any word of the English name), 3 for a substring, -1 for no match.
func matchRank(in *Instrument, q string) int {
	code := strings.ToLower(in.Code)
	zh, en, alias := strings.ToLower(in.Name), strings.ToLower(in.NameEN), strings.ToLower(in.Alias)
	switch {
	case code == q:
		return 0
	case strings.HasPrefix(code, q):
		return 1
	case alias != "" && (alias == q || strings.HasPrefix(alias, q)),
		strings.HasPrefix(zh, q), strings.HasPrefix(en, q), wordPrefix(en, q):
		return 2
	case utf8.RuneCountInString(q) >= 2 && strings.Contains(code, q),
		strings.Contains(zh, q), strings.Contains(en, q), alias != "" && strings.Contains(alias, q):
		return 3
	}
	return -1
}

func wordPrefix(s, q string) bool {
	for _, w := range strings.FieldsFunc(s, func(r rune) bool { return r == ' ' || r == '-' || r == '.' }) {
		if strings.HasPrefix(w, q) {
			return true
		}
	}
	return false
}
