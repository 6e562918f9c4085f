package candles

import (
	"testing"
	"time"

	"github.com/lotbook/lotbook/market/price"
)

func tp(s string) time.Time {
	t, err := time.ParseInLocation("2006-01-02 15:04:05", s, Location)
	if err != nil {
		panic(err)
	}
	return t
}

func TestBucket(t *testing.T) {
	tests := []struct {
		iv       Interval
		at, want string
	}{
		{Min1, "2026-11-20 09:00:00", "2026-11-20 09:00:00"},
		{Min1, "2026-11-20 09:00:59", "2026-11-20 09:00:00"},
		{Min3, "2026-11-20 09:02:59", "2026-11-20 09:00:00"},
		{Min3, "2026-11-20 09:03:00", "2026-11-20 09:03:00"},
		{Min15, "2026-11-20 13:29:59", "2026-11-20 13:15:00"},
		{Min30, "2026-11-20 13:30:00", "2026-11-20 13:30:00"},
		{Min30, "2026-11-20 09:29:00", "2026-11-20 09:00:00"},
		{Day, "2026-11-20 13:30:00", "2026-11-20 00:00:00"},
		{Month, "2026-11-20 13:30:00", "2026-11-01 00:00:00"},
		{Year, "2026-11-20 13:30:00", "2026-01-01 00:00:00"},
	}
	for _, tc := range tests {
		if got := tc.iv.Bucket(tp(tc.at)); !got.Equal(tp(tc.want)) {
			t.Errorf("%s bucket of %s = %s, want %s", tc.iv, tc.at, got.In(Location), tc.want)
		}
	}
	// Aligned in Taipei whatever the zone of the instant: 16:10 UTC is 00:10 the next day in Taipei.
	if got := Day.Bucket(time.Date(2026, 11, 19, 16, 10, 0, 0, time.UTC)); !got.Equal(tp("2026-11-20 00:00:00")) {
		t.Errorf("day bucket across UTC midnight = %s", got)
	}
	for _, s := range []string{"1m", "3m", "15m", "30m", "1d", "1M", "1y"} {
		if _, err := ParseInterval(s); err != nil {
			t.Errorf("ParseInterval(%s): %v", s, err)
		}
	}
	for _, s := range []string{"", "2m", "1D", "1h", "1Y", "1W"} {
		if _, err := ParseInterval(s); err == nil {
			t.Errorf("ParseInterval(%q) accepted", s)
		}
	}
}

func mk(at string, o, h, l, c price.Price, v int64) Bar {
	return Bar{Time: tp(at), Open: o, High: h, Low: l, Close: c, Volume: v, Turnover: c * price.Price(v)}
}

func TestAggregate(t *testing.T) {
	mins := []Bar{
		mk("2026-11-20 09:00:00", 100, 105, 99, 104, 10),
		mk("2026-11-20 09:01:00", 104, 110, 103, 108, 20),
		mk("2026-11-20 09:02:00", 108, 108, 95, 96, 5),
		mk("2026-11-20 09:03:00", 96, 97, 96, 97, 1),
	}
	got := Aggregate(mins, Min3)
	want := []Bar{
		{Time: tp("2026-11-20 09:00:00"), Open: 100, High: 110, Low: 95, Close: 96, Volume: 35, Turnover: 104*10 + 108*20 + 96*5},
		mk("2026-11-20 09:03:00", 96, 97, 96, 97, 1),
	}
	if len(got) != len(want) {
		t.Fatalf("got %d candles", len(got))
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("candle %d = %+v, want %+v", i, got[i], want[i])
		}
	}
}

// fakeHistory serves minute bars from 09:00 on one day, one per minute, price = minute index.
type fakeHistory struct{ bars []Bar }

func (f fakeHistory) Bars(symbol string, base Base, before time.Time, n int) []Bar {
	var out []Bar
	for _, b := range f.bars {
		if b.Time.Before(before) {
			out = append(out, b)
		}
	}
	if len(out) > n {
		out = out[len(out)-n:]
	}
	return out
}

func TestStoreSeedsAndPages(t *testing.T) {
	var hist fakeHistory
	for m := range 60 {
		p := price.Price(1000 + m)
		hist.bars = append(hist.bars, mk(tp("2026-11-20 09:00:00").Add(time.Duration(m)*time.Minute).Format("2006-01-02 15:04:05"), p, p, p, p, 1000))
	}
	s := NewStore(hist, Limits{Minutes: 10, Days: 5, MaxPage: 50})
	// The first live trade is at 09:30:20: history up to it (minutes 0..30), then live.
	s.Add(Trade{Symbol: "X", Time: tp("2026-11-20 09:30:20"), Price: 2000, Size: 1000, Value: 2000 * 1000})
	s.Add(Trade{Symbol: "X", Time: tp("2026-11-20 09:31:05"), Price: 2001, Size: 2000, Value: 2001 * 2000})
	got, err := s.Query("X", Min1, time.Time{}, 5)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 5 || !got[4].Time.Equal(tp("2026-11-20 09:31:00")) || got[4].Volume != 2000 {
		t.Fatalf("newest page %+v", got)
	}
	// 09:30 merges the history bar (price 1030) with the live trade.
	if b := got[3]; b.Open != 1030 || b.High != 2000 || b.Close != 2000 || b.Volume != 2000 {
		t.Errorf("09:30 bar %+v", b)
	}
	// Page back beyond the ring (10 minutes) into history.
	older, err := s.Query("X", Min1, got[0].Time, 30)
	if err != nil {
		t.Fatal(err)
	}
	if len(older) != 27 || !older[0].Time.Equal(tp("2026-11-20 09:00:00")) || !older[26].Time.Equal(tp("2026-11-20 09:26:00")) {
		t.Fatalf("older page: %d from %s to %s", len(older), older[0].Time, older[len(older)-1].Time)
	}
	// 15-minute candles across ring and history: 09:00, 09:15, 09:30.
	q15, _ := s.Query("X", Min15, time.Time{}, 10)
	if len(q15) != 3 || q15[0].Volume != 15000 || q15[2].Volume != 2000+2000 {
		t.Errorf("15m candles %+v", q15)
	}
	if _, err := s.Query("X", Min1, time.Time{}, 0); err == nil {
		t.Error("limit 0 accepted")
	}
	if got, _ := s.Query("UNKNOWN", Min1, time.Time{}, 5); len(got) != 5 {
		// Unknown to the store: history answers alone (the fake serves any symbol).
		t.Errorf("history only: %d", len(got))
	}
}

func TestRingBound(t *testing.T) {
	s := NewStore(nil, Limits{Minutes: 3, Days: 2})
	for m := range 10 {
		at := tp("2026-11-20 09:00:00").Add(time.Duration(m) * time.Minute)
		s.Add(Trade{Symbol: "X", Time: at, Price: price.Price(100 + m), Size: 1000, Value: 1})
	}
	got, _ := s.Query("X", Min1, time.Time{}, 100)
	if len(got) != 3 || got[0].Open != 107 || got[2].Open != 109 {
		t.Errorf("ring keeps %+v", got)
	}
	d, _ := s.Query("X", Day, time.Time{}, 100)
	if len(d) != 1 || d[0].Open != 100 || d[0].Close != 109 || d[0].High != 109 || d[0].Volume != 10000 {
		t.Errorf("day %+v", d)
	}
	// An out-of-order trade for an older minute is ignored rather than corrupting the ring.
	s.Add(Trade{Symbol: "X", Time: tp("2026-11-20 09:00:00"), Price: 1, Size: 1})
	if got, _ := s.Query("X", Min1, time.Time{}, 100); got[0].Low == 1 {
		t.Error("late trade changed an old bar")
	}
}

// With History behind it the store keeps a bounded set of symbols: the first to trade while there
// is room, then the queried ones in place of the least recently queried.
func TestStoreSymbolBound(t *testing.T) {
	var hist fakeHistory
	for m := range 30 {
		p := price.Price(1000 + m)
		hist.bars = append(hist.bars, mk(tp("2026-11-20 09:00:00").Add(time.Duration(m)*time.Minute).Format("2006-01-02 15:04:05"), p, p, p, p, 1000))
	}
	s := NewStore(hist, Limits{Minutes: 10, Days: 5, MaxPage: 50, Symbols: 2})
	trade := func(sym, at string) {
		s.Add(Trade{Symbol: sym, Time: tp(at), Price: 2000, Size: 1000, Value: 2000 * 1000})
	}
	for _, sym := range []string{"A", "B", "C"} {
		trade(sym, "2026-11-20 09:30:10")
	}
	if n := s.Symbols(); n != 2 {
		t.Fatalf("%d symbols kept, want 2", n)
	}
	// C is not kept: history alone answers, without its trade.
	if got, _ := s.Query("C", Min1, time.Time{}, 1); len(got) != 1 || got[0].Open != 1029 {
		t.Fatalf("C from history: %+v", got)
	}
	s.Query("A", Min1, time.Time{}, 1) // A is now more recently queried than B
	trade("C", "2026-11-20 09:31:10")
	if n := s.Symbols(); n != 2 {
		t.Fatalf("%d symbols kept, want 2", n)
	}
	if got, _ := s.Query("C", Min1, time.Time{}, 1); len(got) != 1 || got[0].Volume != 1000 || !got[0].Time.Equal(tp("2026-11-20 09:31:00")) {
		t.Errorf("C kept from its next trade: %+v", got)
	}
	if got, _ := s.Query("A", Min1, time.Time{}, 1); len(got) != 1 || got[0].Open != 2000 || !got[0].Time.Equal(tp("2026-11-20 09:30:00")) {
		t.Errorf("A still kept with its live trade: %+v", got)
	}
	if got, _ := s.Query("B", Min1, time.Time{}, 1); len(got) != 1 || got[0].Open != 1029 {
		t.Errorf("B dropped, from history: %+v", got)
	}
}
