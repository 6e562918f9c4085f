package market

import (
	"context"
	"errors"
	"math"
	"sync"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/lotbook/lotbook/market/rules"
)

// clock is a settable test clock.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) now() time.Time  { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) set(t time.Time) { c.mu.Lock(); c.t = t; c.mu.Unlock() }

var tpe = time.FixedZone("Asia/Taipei", 8*60*60)

func newService(t *testing.T, start time.Time) (*Service, *clock) {
	t.Helper()
	c := &clock{t: start}
	s, err := New(Config{Seed: 42, Now: c.now})
	if err != nil {
		t.Fatal(err)
	}
	return s, c
}

func TestFacade(t *testing.T) {
	s, c := newService(t, time.Date(2026, 11, 20, 10, 0, 0, 0, tpe))

	q, err := s.Quote("2330")
	if err != nil {
		t.Fatal(err)
	}
	if q.Name != "台積電" || q.NameEN != "Taiwan Semiconductor Manufacturing" || q.Market != "listed" || q.Type != "stock" ||
		!q.Traded || len(q.Bids) == 0 || len(q.Asks) == 0 || q.Volume <= 0 {
		t.Fatalf("quote %+v", q)
	}
	if !q.Change.Equal(q.Price.Sub(q.PrevClose)) {
		t.Errorf("change %s != %s - %s", q.Change, q.Price, q.PrevClose)
	}
	if err := s.CheckPrice("2330", q.LimitUp); err != nil {
		t.Errorf("limit-up rejected: %v", err)
	}
	if err := s.CheckPrice("2330", q.LimitUp.Add(decimal.NewFromInt(5))); !errors.Is(err, rules.ErrAboveLimit) {
		t.Errorf("above limit: %v", err)
	}
	if _, err := s.Quote("nope"); !errors.Is(err, ErrUnknownSymbol) {
		t.Errorf("unknown symbol: %v", err)
	}
	if q, err := s.Quote(" 00679b "); err != nil || q.Symbol != "00679B" || q.Type != "etf" {
		t.Errorf("case-insensitive lookup: %+v %v", q, err)
	}

	idx := s.Indices()
	if len(idx) != 2 || idx[0].Symbol != "TAIEX" || idx[1].Symbol != "TPEX" || !idx[0].Traded || idx[0].Type != "index" {
		t.Fatalf("indices %+v", idx)
	}

	// Lists: sorted, paged, filtered; bad input refused.
	g, err := s.Stocks(ListQuery{Tab: "gainers", Market: "listed", Size: 50})
	if err != nil {
		t.Fatal(err)
	}
	for i := 1; i < len(g.Items); i++ {
		if g.Items[i].ChangePercent.GreaterThan(g.Items[i-1].ChangePercent) || g.Items[i].Market != "listed" {
			t.Fatalf("gainers out of order at %d: %s after %s", i, g.Items[i].ChangePercent, g.Items[i-1].ChangePercent)
		}
	}
	if !g.HasMore || g.Total < 1200 {
		t.Errorf("listed total %d", g.Total)
	}
	v, _ := s.Stocks(ListQuery{Tab: "volume", Market: "otc"})
	if len(v.Items) != 20 || v.Items[0].Volume < v.Items[19].Volume || v.Items[0].Market != "otc" {
		t.Errorf("volume tab %+v", v.Items[0])
	}
	etf, _ := s.Stocks(ListQuery{Type: "etf"})
	if etf.Items[0].Symbol != "0050" {
		t.Errorf("first ETF by code %s", etf.Items[0].Symbol)
	}
	last := (g.Total + 49) / 50
	if _, err := s.Stocks(ListQuery{Tab: "gainers", Market: "listed", Size: 50, Page: last}); err != nil {
		t.Errorf("last page: %v", err)
	}
	for _, bad := range []struct {
		q    ListQuery
		want error
	}{
		{ListQuery{Tab: "hot"}, ErrBadTab},
		{ListQuery{Market: "nyse"}, ErrBadMarket},
		{ListQuery{Type: "bond"}, ErrBadType},
		{ListQuery{Page: -1}, ErrBadPage},
		{ListQuery{Page: 1000}, ErrBadPage},
		// Huge pages whose row offset overflows int are still past the end.
		{ListQuery{Page: math.MaxInt}, ErrBadPage},
		{ListQuery{Page: math.MaxInt/20 + 2}, ErrBadPage},
		{ListQuery{Size: 1000}, ErrBadLimit},
	} {
		if _, err := s.Stocks(bad.q); !errors.Is(err, bad.want) {
			t.Errorf("%+v: %v, want %v", bad.q, err, bad.want)
		}
	}

	// Search in both languages.
	for _, q := range []string{"2330", "台積電", "TSMC"} {
		if r := s.Search(q, 5); len(r) == 0 || r[0].Symbol != "2330" {
			t.Errorf("search %q: %+v", q, r)
		}
	}

	// Candles at every interval, paged, then bad input.
	for _, iv := range []string{"1m", "3m", "15m", "30m", "1d", "1M", "1y"} {
		cs, err := s.Candles("2330", iv, time.Time{}, 50)
		if err != nil || len(cs) == 0 {
			t.Fatalf("%s candles: %d %v", iv, len(cs), err)
		}
		for i := 1; i < len(cs); i++ {
			if !cs[i].Time.After(cs[i-1].Time) {
				t.Fatalf("%s candles out of order", iv)
			}
		}
		older, err := s.Candles("2330", iv, cs[0].Time, 10)
		if err != nil {
			t.Fatal(err)
		}
		if len(older) > 0 && !older[len(older)-1].Time.Before(cs[0].Time) {
			t.Errorf("%s: older page overlaps", iv)
		}
	}
	if d, _ := s.Candles("2330", "1d", time.Time{}, 1000); len(d) < 700 {
		t.Errorf("three years of daily candles: %d", len(d))
	}
	if _, err := s.Candles("2330", "2m", time.Time{}, 10); !errors.Is(err, ErrBadInterval) {
		t.Errorf("bad interval: %v", err)
	}
	if _, err := s.Candles("XXXX", "1m", time.Time{}, 10); !errors.Is(err, ErrUnknownSymbol) {
		t.Errorf("bad symbol: %v", err)
	}
	if _, err := s.Candles("2330", "1m", time.Time{}, 0); !errors.Is(err, ErrBadLimit) {
		t.Errorf("bad limit: %v", err)
	}
	if cs, err := s.Candles("TAIEX", "1m", time.Time{}, 10); err != nil || len(cs) != 10 {
		t.Errorf("index candles %d %v", len(cs), err)
	}

	// Streaming: a subscriber that reads late gets one latest quote per symbol.
	sub := s.Subscribe("2330", "taiex")
	defer sub.Close()
	c.set(time.Date(2026, 11, 20, 10, 5, 0, 0, tpe))
	s.Advance()
	<-sub.Ready()
	got := sub.Take()
	if len(got) != 2 {
		t.Fatalf("took %d quotes", len(got))
	}
	now, _ := s.Quote("2330")
	for _, q := range got {
		if q.Symbol == "2330" && (!q.Price.Equal(now.Price) || q.Volume != now.Volume || len(q.Bids) == 0) {
			t.Errorf("streamed %+v, current %+v", q, now)
		}
	}
	if sess := s.Session(); sess.Phase != "continuous" || sess.Demo {
		t.Errorf("session %+v", sess)
	}
}

// Readers and the ticking simulator share the service safely (run with -race).
func TestConcurrentReaders(t *testing.T) {
	start := time.Date(2026, 11, 20, 9, 0, 0, 0, tpe)
	var mu sync.Mutex
	at := start
	now := func() time.Time { mu.Lock(); defer mu.Unlock(); at = at.Add(time.Second); return at }
	s, err := New(Config{Seed: 3, Now: now, Tick: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- s.Run(ctx) }()
	sub := s.Subscribe()
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ctx.Err() == nil {
				if _, err := s.Quote("2330"); err != nil {
					t.Error(err)
					return
				}
				if _, err := s.Candles("TAIEX", "1m", time.Time{}, 20); err != nil {
					t.Error(err)
					return
				}
				if _, err := s.Stocks(ListQuery{Tab: "gainers"}); err != nil {
					t.Error(err)
					return
				}
				sub.Take()
			}
		}()
	}
	wg.Wait()
	if err := <-done; !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Run: %v", err)
	}
}
