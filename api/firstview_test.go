package api

import (
	"bytes"
	"compress/gzip"
	"html"
	"io"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/lotbook/lotbook/api/wire"
	"github.com/lotbook/lotbook/market"
)

// firstViewPage is an index.html as the build writes it: the market placeholder with the labels
// of both languages (web/scripts/firstPaint.ts).
const firstViewPage = `<!doctype html><title>lotbook</title><template id="lb-market-labels" data-labels="` +
	`{&quot;tw&quot;:{&quot;title&quot;:&quot;行情&quot;,&quot;listed&quot;:&quot;上市&quot;,&quot;otc&quot;:&quot;上櫃&quot;,` +
	`&quot;short&quot;:{&quot;listed&quot;:&quot;市&quot;,&quot;otc&quot;:&quot;櫃&quot;},` +
	`&quot;tabs&quot;:{&quot;all&quot;:&quot;全部&quot;,&quot;gainers&quot;:&quot;漲幅榜&quot;,&quot;losers&quot;:&quot;跌幅榜&quot;,&quot;volume&quot;:&quot;成交量&quot;},` +
	`&quot;col&quot;:{&quot;name&quot;:&quot;名稱代號&quot;,&quot;price&quot;:&quot;成交價&quot;,&quot;change&quot;:&quot;漲跌幅&quot;}},` +
	`&quot;en&quot;:{&quot;title&quot;:&quot;Market &lt;b&gt;&quot;,&quot;listed&quot;:&quot;Listed&quot;,&quot;otc&quot;:&quot;OTC&quot;,` +
	`&quot;short&quot;:{&quot;listed&quot;:&quot;TWSE&quot;,&quot;otc&quot;:&quot;TPEx&quot;},` +
	`&quot;tabs&quot;:{&quot;all&quot;:&quot;All&quot;,&quot;gainers&quot;:&quot;Gainers&quot;,&quot;losers&quot;:&quot;Losers&quot;,&quot;volume&quot;:&quot;Volume&quot;},` +
	`&quot;col&quot;:{&quot;name&quot;:&quot;Name / code&quot;,&quot;price&quot;:&quot;Price&quot;,&quot;change&quot;:&quot;Change&quot;}}}"></template><script>boot()</script>`

// TestFirstViewMatchesTheAPI: index.html carries the market list's first page, names and labels in
// both languages, with the symbols, prices and change percents the API answers for that page, in its order; the
// page is gzipped, and its inline script (and so the CSP's hash of it) is untouched.
func TestFirstViewMatchesTheAPI(t *testing.T) {
	web := fstest.MapFS{"index.html": {Data: []byte(firstViewPage)}}
	h := newHarness(t, testDB{kind: "sqlite"}, RateLimits{}, func(c *Config) { c.Web = web })
	resp, body := h.anon().send("GET", "/", nil, "Accept-Encoding", "gzip")
	if resp.StatusCode != 200 || resp.Header.Get("Content-Encoding") != "gzip" {
		t.Fatalf("GET /: %d, coding %q", resp.StatusCode, resp.Header.Get("Content-Encoding"))
	}
	zr, err := gzip.NewReader(bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	page, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(string(page), "<script>boot()</script>") || strings.Contains(string(page), `id="lb-market-labels"`) {
		t.Fatalf("the placeholder is not replaced in place: %s", page)
	}
	if !strings.Contains(resp.Header.Get("Content-Security-Policy"), "'sha256-") {
		t.Errorf("the page's CSP allows no inline script: %q", resp.Header.Get("Content-Security-Policy"))
	}

	var list wire.QuotePage
	h.anon().get("/api/vue/market/stocks?tab=all&market=listed&type=stock&page=1&size=20").data(t, &list)
	if len(list.Items) != 20 {
		t.Fatalf("the API's first page has %d quotes", len(list.Items))
	}
	row := regexp.MustCompile(`data-symbol="([^"]+)"><span class="lbm-name"><b><i class="tw">([^<]*)</i><i class="en">([^<]*)</i></b>.*?` +
		`<span class="lbm-price num ([a-z]*)">([^<]+)</span><span class="lbm-pct num ([a-z]*)">([^<]+)</span>`)
	start := strings.Index(string(page), `<template id="lb-market" data-at="`)
	if at, _ := strconv.ParseInt(regexp.MustCompile(`data-at="(\d+)"`).FindStringSubmatch(string(page) + `data-at="0"`)[1], 10, 64); time.Since(time.UnixMilli(at)).Abs() > time.Minute {
		t.Errorf("the page is stamped %d, not now (wall clock, which the visitor's clock is compared with)", at)
	}
	if start < 0 {
		t.Fatalf("no market template in %s", page)
	}
	tmpl := string(page[start:])
	tmpl = tmpl[:strings.Index(tmpl, "</template>")]
	rows := row.FindAllStringSubmatch(tmpl, -1)
	if len(rows) != len(list.Items) {
		t.Fatalf("%d rows, the API has %d quotes", len(rows), len(list.Items))
	}
	for i, q := range list.Items {
		nameEN := q.Name
		if q.NameEn != "" {
			nameEN = q.NameEn
		}
		got := make([]string, len(rows[i]))
		for k, v := range rows[i] {
			got[k] = html.UnescapeString(v)
		}
		if got[1] != q.Symbol || got[2] != q.Name || got[3] != nameEN || got[5] != money(dec(q.Price)) {
			t.Errorf("row %d: %q %q %q %q, the API's: %q %q %q %s", i, got[1], got[2], got[3], got[5], q.Symbol, q.Name, nameEN, q.Price)
		}
		wantPct := money(dec(q.ChangePercent)) + "%"
		if dec(q.ChangePercent).IsPositive() {
			wantPct = "+" + wantPct
		}
		trend := map[int]string{1: "up", -1: "down", 0: ""}[dec(q.Price).Cmp(dec(q.PrevClose))]
		if got[7] != wantPct || got[4] != trend || got[6] != trend {
			t.Errorf("row %d (%s): percent %q trend %q/%q, want %q %q", i, q.Symbol, got[7], got[4], got[6], wantPct, trend)
		}
	}
	for _, label := range []string{`<i class="tw">行情</i><i class="en">Market &lt;b&gt;</i>`, `<i class="tw">市</i><i class="en">TWSE</i>`} {
		if !strings.Contains(tmpl, label) {
			t.Errorf("no %s (the labels, escaped) in %s", label, tmpl)
		}
	}
}

// TestFirstViewEscapes: whatever a name holds is text in the page, never markup.
func TestFirstViewEscapes(t *testing.T) {
	labels := map[string]marketLabels{"tw": {}, "en": {}}
	q := market.Quote{Symbol: `2330"><script>x()</script>`, Name: `<img src=x onerror=alert(1)>`, NameEN: `A&B</template>`, Market: "listed",
		Price: dec("1234.5"), PrevClose: dec("1200"), ChangePercent: dec("2.87")}
	var b bytes.Buffer
	if err := renderFirstView(&b, labels, []market.Quote{q}, time.UnixMilli(1700000000000)); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, bad := range []string{q.Symbol, q.Name, q.NameEN, "<script", "<img"} {
		if strings.Contains(out, bad) {
			t.Errorf("unescaped %q in %s", bad, out)
		}
	}
	if got := strings.Count(out, "</template>"); got != 1 {
		t.Errorf("%d template ends, want 1: %s", got, out)
	}
	for _, want := range []string{`data-at="1700000000000"`, `data-symbol="2330&#34;&gt;&lt;script&gt;x()&lt;/script&gt;"`, "&lt;img src=x onerror=alert(1)&gt;", "A&amp;B&lt;/template&gt;", "1,234.50", "&#43;2.87%", `lbm-price num up`} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in %s", want, out)
		}
	}
}

func TestFirstViewMoney(t *testing.T) {
	for in, want := range map[string]string{"0": "0.00", "5": "5.00", "-0.001": "0.00", "-3.456": "-3.46", "1234567.891": "1,234,567.89", "999.999": "1,000.00"} {
		if got := money(dec(in)); got != want {
			t.Errorf("money(%s) = %q, want %q", in, got, want)
		}
	}
}

// BenchmarkFirstViewRender is the cost of one second's page: the list, its markup, the gzip.
func BenchmarkFirstViewRender(b *testing.B) {
	f, err := newFirstView([]byte(firstViewPage), testMarket(b), nil, testLogger(b))
	if err != nil || f == nil {
		b.Fatalf("first view: %v", err)
	}
	sec := int64(0)
	f.now = func() time.Time { sec++; return time.Unix(sec, 0) }
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := f.page(); err != nil {
			b.Fatal(err)
		}
	}
}
