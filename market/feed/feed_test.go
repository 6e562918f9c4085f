package feed

import (
	"encoding/csv"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/lotbook/lotbook/market/candles"
	"github.com/lotbook/lotbook/market/price"
	"github.com/lotbook/lotbook/market/rules"
)

func stock(string) rules.Kind { return rules.Stock }

// Replaying real TWSE daily bars of 2330 through the feed and the candle store rebuilds exactly
// the published bars: open, high, low, close, volume and turnover, every day; the month candle
// folds them.
func TestReplayRealBarsRebuildsCandles(t *testing.T) {
	f, err := os.Open("testdata/2330_2015-05.csv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rp, err := NewReplay(f, candles.Location, stock)
	if err != nil {
		t.Fatal(err)
	}
	store := candles.NewStore(nil, candles.DefaultLimits)
	var dayStarts int
	rp.Subscribe(func(u Update) {
		if !u.Trade {
			dayStarts++
			return
		}
		store.Add(candles.Trade{Symbol: u.Symbol, Time: u.Time, Price: u.Last, Size: u.LastSize, Value: u.Value})
	})
	rp.Advance(time.Date(2015, 6, 1, 0, 0, 0, 0, candles.Location))
	if !rp.Done() {
		t.Fatal("replay not finished")
	}

	want := readBars(t, "testdata/2330_2015-05.csv")
	got, err := store.Query("2330", candles.Day, time.Time{}, 100)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) || dayStarts != len(want) {
		t.Fatalf("%d candles and %d day starts, want %d", len(got), dayStarts, len(want))
	}
	var month candles.Bar
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("day %d: candle %+v, published %+v", i, got[i], want[i])
		}
		if i == 0 {
			month = want[i]
		}
		month.High, month.Low, month.Close = max(month.High, want[i].High), min(month.Low, want[i].Low), want[i].Close
		if i > 0 {
			month.Volume += want[i].Volume
			month.Turnover += want[i].Turnover
		}
	}
	month.Time = time.Date(2015, 5, 1, 0, 0, 0, 0, candles.Location)
	m, _ := store.Query("2330", candles.Month, time.Time{}, 10)
	if len(m) != 1 || m[0] != month {
		t.Errorf("month %+v, want %+v", m, month)
	}
	// The last day's quote: reference from the file, limits on the grid.
	snap, ok := rp.Snapshot("2330")
	if !ok || snap.Ref.String() != "147.00" || snap.Last.String() != "146.00" || snap.LimitUp.String() != "161.50" || snap.LimitDown.String() != "132.50" {
		t.Errorf("last quote %+v", snap.Quote)
	}
}

func readBars(t *testing.T, path string) []candles.Bar {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r := csv.NewReader(f)
	r.Comment = '#'
	recs, err := r.ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	var out []candles.Bar
	for _, rec := range recs[1:] {
		day, _ := time.ParseInLocation(time.DateOnly, rec[0], candles.Location)
		b := candles.Bar{Time: day, Open: price.MustParse(rec[2]), High: price.MustParse(rec[3]),
			Low: price.MustParse(rec[4]), Close: price.MustParse(rec[5]), Turnover: price.MustParse(rec[7])}
		b.Volume = int64(price.MustParse(rec[6]) / 100)
		out = append(out, b)
	}
	return out
}

func TestReplayTrades(t *testing.T) {
	in := "time,symbol,price,size\n" +
		"2026-11-20T09:00:00+08:00,2330,1450,3000\n" +
		"2026-11-20T09:00:05+08:00,2330,1455,1000\n" +
		"2026-11-20T09:00:03+08:00,2317,225.5,2000\n"
	rp, err := NewReplay(strings.NewReader(in), candles.Location, stock)
	if err != nil {
		t.Fatal(err)
	}
	var syms []string
	rp.Subscribe(func(u Update) { syms = append(syms, u.Symbol) })
	rp.Advance(time.Date(2026, 11, 20, 1, 0, 4, 0, time.UTC))
	if strings.Join(syms, " ") != "2330 2317" {
		t.Fatalf("played %v", syms)
	}
	rp.Advance(time.Date(2026, 11, 20, 2, 0, 0, 0, time.UTC))
	s, _ := rp.Snapshot("2330")
	if s.Open.String() != "1450.00" || s.High.String() != "1455.00" || s.Volume != 4000 || s.Turnover != price.MustParse("5805000") {
		t.Errorf("2330 %+v", s.Quote)
	}
	for _, bad := range []string{"x,y\n", "time,symbol,price,size\nnot-a-time,1,1,1\n", "time,symbol,price,size\n2026-11-20T09:00:00Z,1,1.001,1\n"} {
		if _, err := NewReplay(strings.NewReader(bad), candles.Location, stock); err == nil {
			t.Errorf("accepted %q", bad)
		}
	}
}

func TestHubKeepsLatestPerSymbol(t *testing.T) {
	h := NewHub()
	one := h.Subscribe("2330")
	all := h.Subscribe()
	for i := range 1000 {
		h.Publish(Update{Quote: Quote{Symbol: "2330", Last: price.Price(i)}})
		h.Publish(Update{Quote: Quote{Symbol: "2317", Last: price.Price(i)}})
	}
	select {
	case <-one.Ready():
	default:
		t.Fatal("not signalled")
	}
	got := one.Take()
	if len(got) != 1 || got[0].Last != 999 || one.Replaced() != 999 {
		t.Errorf("one: %+v replaced %d", got, one.Replaced())
	}
	if got := all.Take(); len(got) != 2 || got[0].Symbol != "2330" || got[1].Last != 999 {
		t.Errorf("all: %+v", got)
	}
	if got := one.Take(); got != nil {
		t.Errorf("second take %+v", got)
	}
	one.Watch("2317")
	h.Publish(Update{Quote: Quote{Symbol: "2317"}})
	one.Unwatch("2330")
	h.Publish(Update{Quote: Quote{Symbol: "2330"}})
	if got := one.Take(); len(got) != 1 || got[0].Symbol != "2317" {
		t.Errorf("after watch changes: %+v", got)
	}
	one.Close()
	h.Publish(Update{Quote: Quote{Symbol: "2317"}})
	if got := one.Take(); got != nil {
		t.Errorf("closed subscription got %+v", got)
	}
	if len(h.bySym) != 0 {
		t.Errorf("hub still indexes %v", h.bySym)
	}
}
