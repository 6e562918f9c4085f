package api

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html"
	"html/template"
	"log/slog"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/shopspring/decimal"

	"github.com/lotbook/lotbook/market"
)

// The market list's first page as the app asks for it on a cold start (the firstRead of the
// market tab in web/src/features/market/routes.ts): the same quotes in the same order.
var firstViewQuery = market.ListQuery{Tab: "all", Market: "listed", Type: "stock", Page: 1, Size: 20}

// firstViewLangs are the app's languages, whose texts the page carries.
var firstViewLangs = []string{"tw", "en"}

// marketLabels are the market screen's texts in one language, written into index.html's
// placeholder at build time from the app's own messages (web/scripts/firstPaint.ts).
type marketLabels struct {
	Title  string                       `json:"title"`
	Listed string                       `json:"listed"`
	OTC    string                       `json:"otc"`
	Short  struct{ Listed, OTC string } `json:"short"`
	Tabs   struct {
		All, Gainers, Losers, Volume string
	} `json:"tabs"`
	Col struct{ Name, Price, Change string } `json:"col"`
}

// firstViewRow is one quote as the app's list row shows it (QuoteRow.tsx, domain/market/format.ts),
// with its name in both languages.
type firstViewRow struct {
	Symbol, Name, NameEN, Market, Price, Percent, Trend string
}

// firstViewTmpl is the market list painted before any script: the screen's bar, tabs and column
// heads, then the rows. Inert (a template) until index.html's inline script shows it. Every text
// is there in both languages (.tw, .en), the page's language showing one: the rows are not sent
// twice.
var firstViewTmpl = template.Must(template.New("market").Parse(`{{define "t"}}<i class="tw">{{.TW}}</i><i class="en">{{.EN}}</i>{{end}}` +
	`<template id="lb-market" data-at="{{.At}}"><div class="lbm" aria-hidden="true"><div class="lbm-top"><div class="lbm-bar"><span class="lbm-title">{{template "t" .Title}}</span>` +
	`<span class="lbm-sw"><b>{{template "t" .Listed}}</b><b>{{template "t" .OTC}}</b></span></div>` +
	`<div class="lbm-tabs">{{range .Tabs}}<b>{{template "t" .}}</b>{{end}}</div></div>` +
	`<div class="lbm-list"><div class="lbm-head"><span class="lbm-name">{{template "t" .ColName}}</span><span class="lbm-price">{{template "t" .ColPrice}}</span><span class="lbm-pct">{{template "t" .ColChange}}</span></div>` +
	`{{$badge := .Badge}}{{range .Rows}}<div class="lbm-row" data-symbol="{{.Symbol}}"><span class="lbm-name"><b><i class="tw">{{.Name}}</i><i class="en">{{.NameEN}}</i></b>` +
	`<span class="lbm-code num"><span class="lbm-mk lbm-mk-{{.Market}}">{{template "t" index $badge .Market}}</span><span>{{.Symbol}}</span></span></span>` +
	`<span class="lbm-price num {{.Trend}}">{{.Price}}</span><span class="lbm-pct num {{.Trend}}">{{.Percent}}</span></div>{{end}}` +
	`</div></div></template>`))

// both is one text in the app's two languages.
type both struct{ TW, EN string }

// placeholderRE finds the build's placeholder in index.html and its labels attribute.
var placeholderRE = regexp.MustCompile(`<template id="lb-market-labels" data-labels="([^"]*)"></template>`)

// firstView is index.html with the market list's first quotes painted in (issue 14 item 6, cold
// start): the app routes by the address's hash, which the server never sees, so every load of
// the page carries the list as inert templates and the page's inline script shows it when the
// address is the market tab. Rendered at most once per second of the clock (quotes change by the
// second) and gzipped once per render. Visitors of the welcome page pay for it in bytes (about
// 1.5 KB compressed, the build's index.html is sent gzipped instead of as brotli).
type firstView struct {
	before, after []byte
	labels        map[string]marketLabels
	feed          *market.Service
	now           func() time.Time
	log           *slog.Logger

	mu       sync.Mutex
	second   int64
	plain, z []byte
}

// newFirstView splits page at the build's placeholder; nil when the page has none (a build
// without it, or tests' pages) or no feed: the page is then served as built.
func newFirstView(page []byte, feed *market.Service, now func() time.Time, log *slog.Logger) (*firstView, error) {
	loc := placeholderRE.FindSubmatchIndex(page)
	if loc == nil || feed == nil {
		return nil, nil
	}
	var labels map[string]marketLabels
	if err := json.Unmarshal([]byte(html.UnescapeString(string(page[loc[2]:loc[3]]))), &labels); err != nil {
		return nil, fmt.Errorf("first view: index.html's market labels: %w", err)
	}
	for _, l := range firstViewLangs {
		if _, ok := labels[l]; !ok {
			return nil, fmt.Errorf("first view: index.html has no market labels for %q", l)
		}
	}
	return &firstView{before: page[:loc[0]], after: page[loc[1]:], labels: labels, feed: feed, now: now, log: log}, nil
}

// page is index.html with the current second's quotes, plain and gzipped.
func (f *firstView) page() (plain, z []byte, err error) {
	sec := f.now().Unix()
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.plain != nil && f.second == sec {
		return f.plain, f.z, nil
	}
	p, err := f.feed.Stocks(firstViewQuery)
	if err != nil {
		return nil, nil, fmt.Errorf("first view: market list: %w", err)
	}
	var b bytes.Buffer
	b.Write(f.before)
	// Stamped with the wall clock, which the visitor's clock is compared with (f.now may be a test
	// market's clock).
	if err := renderFirstView(&b, f.labels, p.Items, time.Now()); err != nil {
		return nil, nil, err
	}
	b.Write(f.after)
	// The best level: a render serves every visitor of its second, and the page is the first
	// route's largest text (it replaces the build's brotli twin, 2 KB smaller than gzip's fastest).
	f.second, f.plain, f.z = sec, b.Bytes(), gzipBest(b.Bytes())
	return f.plain, f.z, nil
}

// renderFirstView writes the market list's template with the quotes.
func renderFirstView(b *bytes.Buffer, labels map[string]marketLabels, quotes []market.Quote, at time.Time) error {
	tw, en := labels["tw"], labels["en"]
	rows := make([]firstViewRow, len(quotes))
	for i, q := range quotes {
		rows[i] = viewRow(q)
	}
	err := firstViewTmpl.Execute(b, map[string]any{
		"Title": both{tw.Title, en.Title}, "Listed": both{tw.Listed, en.Listed}, "OTC": both{tw.OTC, en.OTC},
		"Tabs":    []both{{tw.Tabs.All, en.Tabs.All}, {tw.Tabs.Gainers, en.Tabs.Gainers}, {tw.Tabs.Losers, en.Tabs.Losers}, {tw.Tabs.Volume, en.Tabs.Volume}},
		"ColName": both{tw.Col.Name, en.Col.Name}, "ColPrice": both{tw.Col.Price, en.Col.Price}, "ColChange": both{tw.Col.Change, en.Col.Change},
		"Badge": map[string]both{"listed": {tw.Short.Listed, en.Short.Listed}, "otc": {tw.Short.OTC, en.Short.OTC}},
		"Rows":  rows,
		"At":    at.UnixMilli(), // index.html shows the rows only while they are this fresh
	})
	if err != nil {
		return fmt.Errorf("first view: render: %w", err)
	}
	return nil
}

// serve sends the page, gzipped when the client takes it; false when it could not be rendered
// (logged), for the caller to send the page as built.
func (f *firstView) serve(w http.ResponseWriter, r *http.Request) bool {
	plain, z, err := f.page()
	if err != nil {
		f.log.ErrorContext(r.Context(), "index.html without the market list", "err", err)
		return false
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	writeGzipped(w, r, plain, z)
	return true
}

// viewRow is q as the app's list row shows it: the names (the English one, when there is none,
// the Chinese as the app's displayName), the price and change percent with their signs, and the
// trend that colours them (red up, green down, against the previous close).
func viewRow(q market.Quote) firstViewRow {
	nameEN := q.NameEN
	if nameEN == "" {
		nameEN = q.Name
	}
	price := "--"
	if !q.Price.IsZero() {
		price = money(q.Price)
	}
	pct := money(q.ChangePercent) + "%"
	if q.ChangePercent.Sign() > 0 {
		pct = "+" + pct
	}
	trend := ""
	switch q.Price.Cmp(q.PrevClose) {
	case 1:
		trend = "up"
	case -1:
		trend = "down"
	}
	return firstViewRow{Symbol: q.Symbol, Name: q.Name, NameEN: nameEN, Market: q.Market, Price: price, Percent: pct, Trend: trend}
}

// money is d with two decimals and thousands separators, as the app's money() writes it.
func money(d decimal.Decimal) string {
	s := d.Abs().StringFixed(2)
	whole, frac, _ := strings.Cut(s, ".")
	var g strings.Builder
	for i, c := range whole {
		if i > 0 && (len(whole)-i)%3 == 0 {
			g.WriteByte(',')
		}
		g.WriteRune(c)
	}
	sign := ""
	if d.Round(2).Sign() < 0 {
		sign = "-"
	}
	return sign + g.String() + "." + frac
}
