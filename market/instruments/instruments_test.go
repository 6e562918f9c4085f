package instruments

import (
	"testing"

	"github.com/lotbook/lotbook/market/rules"
)

func TestCatalog(t *testing.T) {
	c := MustDefault()
	counts := map[Market]map[Type]int{Listed: {}, OTC: {}}
	for _, in := range c.All() {
		counts[in.Market][in.Type]++
		if in.RefPrice <= 0 || !rules.Valid(in.RefPrice, in.Kind()) {
			t.Errorf("%s: reference price %s is not a valid price", in.Code, in.RefPrice)
		}
		if in.Shares <= 0 {
			t.Errorf("%s: no shares", in.Code)
		}
		if in.Name == "" || in.NameEN == "" || in.Industry == "" || in.IndustryEN == "" || in.Listed.IsZero() {
			t.Errorf("%s: incomplete %+v", in.Code, in)
		}
	}
	// The data files hold 1,045 + 24 (Innovation Board) listed stocks, 880 OTC stocks and 218 + 113
	// ETFs of which 5 + 1 are foreign-currency counters.
	want := map[Market]map[Type]int{Listed: {StockType: 1069, ETFType: 213}, OTC: {StockType: 880, ETFType: 112}}
	for m, byType := range want {
		for ty, n := range byType {
			if counts[m][ty] != n {
				t.Errorf("%s %s: %d instruments, want %d", m, ty, counts[m][ty], n)
			}
		}
	}
	known := 0
	for _, in := range c.All() {
		if in.Known {
			known++
		}
	}
	if known < 150 {
		t.Errorf("%d English names, want at least 150", known)
	}
}

func TestLookup(t *testing.T) {
	c := MustDefault()
	tests := []struct {
		code, name, en string
		market         Market
		typ            Type
		industryEN     string
		listed         string
	}{
		{"2330", "台積電", "Taiwan Semiconductor Manufacturing", Listed, StockType, "Semiconductor", "1994-09-05"},
		{"2317", "鴻海", "Hon Hai Precision Industry", Listed, StockType, "Other Electronics", "1991-06-18"},
		{"0050", "元大台灣50", "Yuanta Taiwan Top 50 ETF", Listed, ETFType, "ETF", "2003-06-30"},
		{"00679b", "元大美債20年", "Yuanta U.S. Treasury 20+ Year Bond ETF", OTC, ETFType, "ETF", "2017-01-17"},
		{"5347", "世界", "Vanguard International Semiconductor", OTC, StockType, "Semiconductor", "1998-03-25"},
		{"1103", "嘉泥", "嘉泥", Listed, StockType, "Cement", "1969-11-14"},
		{"2254", "巨鎧精密-創", "巨鎧精密-創", Listed, StockType, "Automobile", "2023-10-20"},
	}
	for _, tc := range tests {
		in, ok := c.Lookup(tc.code)
		if !ok {
			t.Fatalf("Lookup(%s) failed", tc.code)
		}
		if in.Name != tc.name || in.NameEN != tc.en || in.Market != tc.market || in.Type != tc.typ ||
			in.IndustryEN != tc.industryEN || in.Listed.Format("2006-01-02") != tc.listed {
			t.Errorf("Lookup(%s) = %+v", tc.code, in)
		}
	}
	for _, code := range []string{"00625K", "00687C", "020000", "", "9999"} {
		if _, ok := c.Lookup(code); ok {
			t.Errorf("Lookup(%q) found something", code)
		}
	}
	tsmc, _ := c.Lookup("2330")
	if tsmc.RefPrice.String() != "1450.00" || tsmc.Shares != 25_930_000_000 {
		t.Errorf("2330 reference %s shares %d", tsmc.RefPrice, tsmc.Shares)
	}
}

func TestSearch(t *testing.T) {
	c := MustDefault()
	tests := []struct {
		q     string
		first string
	}{
		{"2330", "2330"},
		{"233", "2330"}, // code prefix, biggest first
		{"台積電", "2330"},
		{"台積", "2330"},
		{"TSMC", "2330"},
		{"tsmc", "2330"},
		{"Taiwan Semi", "2330"},
		{"  鴻海 ", "2317"},
		{"foxconn", "2317"},
		{"mediatek", "2454"},
		{"0050", "0050"},
		{"00679b", "00679B"},
		{"高股息", "0056"},
		{"semiconductor", "2330"},
	}
	for _, tc := range tests {
		got := c.Search(tc.q, 10)
		if len(got) == 0 || got[0].Code != tc.first {
			codes := []string{}
			for _, in := range got {
				codes = append(codes, in.Code)
			}
			t.Errorf("Search(%q) = %v, want %s first", tc.q, codes, tc.first)
		}
	}
	if got := c.Search("", 10); len(got) != 0 {
		t.Errorf("empty query found %d", len(got))
	}
	if got := c.Search("zzzzqqq", 10); len(got) != 0 {
		t.Errorf("nonsense found %d", len(got))
	}
	if got := c.Search("2", 5); len(got) != 5 {
		t.Errorf("limit not applied: %d", len(got))
	}
}

// Estimates depend on the code only, so every run and every server instance agrees.
func TestEstimatesAreStable(t *testing.T) {
	a, err := load()
	if err != nil {
		t.Fatal(err)
	}
	b := MustDefault()
	for i, in := range a.All() {
		o := b.All()[i]
		if in.Code != o.Code || in.RefPrice != o.RefPrice || in.Shares != o.Shares {
			t.Fatalf("%s differs between loads", in.Code)
		}
	}
}
