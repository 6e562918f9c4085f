package market

import (
	"errors"
	"testing"
	"time"

	"github.com/lotbook/lotbook/market/price"
)

func TestClassify(t *testing.T) {
	tests := []struct {
		prev     price.Price
		prevSide string
		px       price.Price
		tick     string
		side     string
	}{
		{1000, "", 1005, TickUp, SideOuter},
		{1000, SideInner, 1005, TickUp, SideOuter},
		{1000, SideOuter, 995, TickDown, SideInner},
		{1000, "", 1000, TickFlat, SideNone},
		{1000, SideOuter, 1000, TickFlat, SideOuter},
		{1000, SideInner, 1000, TickFlat, SideInner},
	}
	for _, tc := range tests {
		tick, side := Classify(tc.prev, tc.prevSide, tc.px)
		if tick != tc.tick || side != tc.side {
			t.Errorf("Classify(%d, %q, %d) = %s %s, want %s %s", tc.prev, tc.prevSide, tc.px, tick, side, tc.tick, tc.side)
		}
	}
}

// The tape is the trades the quote folded: its totals are the quote's volume and the day's
// one-minute candles' volume, newest first, each trade on the tick rule.
func TestTapeMatchesQuoteAndCandles(t *testing.T) {
	s, c := newService(t, time.Date(2026, 11, 20, 10, 0, 0, 0, tpe))
	c.set(time.Date(2026, 11, 20, 10, 30, 0, 0, tpe))
	s.Advance()
	for _, sym := range []string{"2330", "0050", "1103"} {
		tp, err := s.Tape(sym, MaxTape)
		if err != nil {
			t.Fatal(err)
		}
		q, _ := s.Quote(sym)
		if tp.Volume != q.Volume || tp.Outer+tp.Inner+tp.Neutral != tp.Volume || tp.Volume == 0 {
			t.Fatalf("%s: tape %d (outer %d inner %d neutral %d), quote %d", sym, tp.Volume, tp.Outer, tp.Inner, tp.Neutral, q.Volume)
		}
		cs, err := s.Candles(sym, "1m", time.Time{}, 500)
		if err != nil {
			t.Fatal(err)
		}
		var mins int64
		for _, cd := range cs {
			if cd.Time.In(tpe).Day() == 20 {
				mins += cd.Volume
			}
		}
		if mins != tp.Volume {
			t.Fatalf("%s: candles %d shares, tape %d", sym, mins, tp.Volume)
		}
		if len(tp.Trades) == 0 || len(tp.Trades) > MaxTape || !tp.Trades[0].Price.Equal(q.Price) {
			t.Fatalf("%s: %d rows, newest %v, quote %v", sym, len(tp.Trades), tp.Trades[0].Price, q.Price)
		}
		for i := 1; i < len(tp.Trades); i++ {
			a, b := tp.Trades[i-1], tp.Trades[i]
			if a.Time.Before(b.Time) {
				t.Fatalf("%s: not newest first at %d", sym, i)
			}
			want := map[int]string{1: TickUp, -1: TickDown, 0: TickFlat}[a.Price.Cmp(b.Price)]
			if a.Tick != want {
				t.Fatalf("%s row %d: %s after %s is %s", sym, i-1, a.Price, b.Price, a.Tick)
			}
		}
	}
	if _, err := s.Tape("TAIEX", 10); !errors.Is(err, ErrUnknownSymbol) {
		t.Fatalf("index tape: %v", err)
	}
	if _, err := s.Tape("2330", 0); !errors.Is(err, ErrBadLimit) {
		t.Fatalf("limit 0: %v", err)
	}
	if _, err := s.Tape("9999", 10); !errors.Is(err, ErrUnknownSymbol) {
		t.Fatalf("unknown: %v", err)
	}
}

// Every interval the stock screen offers answers candles, each aligned to its own buckets.
func TestEveryInterval(t *testing.T) {
	s, _ := newService(t, time.Date(2026, 11, 20, 11, 0, 0, 0, tpe))
	for _, iv := range []string{"1m", "5m", "15m", "30m", "60m", "1d", "1w", "1M"} {
		cs, err := s.Candles("2330", iv, time.Time{}, 30)
		if err != nil || len(cs) < 2 {
			t.Fatalf("%s: %d candles, %v", iv, len(cs), err)
		}
		for i := 1; i < len(cs); i++ {
			if !cs[i-1].Time.Before(cs[i].Time) {
				t.Fatalf("%s: candles out of order at %d", iv, i)
			}
		}
		if iv == "1w" {
			for _, cd := range cs {
				if wd := cd.Time.In(tpe).Weekday(); wd != time.Monday {
					t.Fatalf("week candle on %s", wd)
				}
			}
		}
	}
}
