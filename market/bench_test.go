package market

import (
	"runtime"
	"testing"
	"time"
)

// BenchmarkTick is one second of the whole market during continuous trading through the full
// pipeline: the simulator moves every instrument, trades go into the candle store and the hub, the
// indices settle, and one subscriber watching every symbol takes its quotes. ns/op ÷ 10⁷ is the
// percentage of one core used at one tick a second.
func BenchmarkTick(b *testing.B) {
	start := time.Date(2026, 11, 20, 9, 30, 0, 0, tpe)
	c := &clock{t: start}
	s, err := New(Config{Seed: 1, Now: c.now})
	if err != nil {
		b.Fatal(err)
	}
	sub := s.Subscribe()
	// Warm up: every symbol trades at least once, so the candle store has loaded its history.
	c.set(start.Add(5 * time.Minute))
	s.Advance()
	sub.Take()
	at := c.now()
	quotes := 0
	b.ResetTimer()
	for b.Loop() {
		at = at.Add(time.Second)
		if at.After(time.Date(2026, 11, 20, 13, 20, 0, 0, tpe)) {
			b.StopTimer()
			at = time.Date(2026, 11, 23, 9, 30, 0, 0, tpe)
			c.set(at)
			s.Advance()
			sub.Take()
			b.StartTimer()
		}
		c.set(at)
		s.Advance()
		quotes += len(sub.Take())
	}
	b.ReportMetric(float64(quotes)/float64(b.N), "quotes/op")
}

// TestFootprint reports the market's memory, and fails beyond a bound well above the figures
// measured when the bound was set (no timing is asserted; the times are for reading):
//   - heap in use after start-up, and bytes allocated by it (garbage the process must hold
//     briefly), for the exchange's hours and for the demo's at 23:00, the latest and largest
//     catch-up (a day of 1,430 minutes);
//   - heap after the exchange's whole day traded, with candles asked of a few symbols.
func TestFootprint(t *testing.T) {
	if testing.Short() {
		t.Skip("slow")
	}
	mb := func(x uint64) float64 { return float64(x) / (1 << 20) }
	start := func(name string, demo bool, at time.Time) (*Service, *clock) {
		var m0, m1 runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&m0)
		c := &clock{t: at}
		t0 := time.Now()
		s, err := New(Config{Seed: 1, Demo: demo, Now: c.now})
		if err != nil {
			t.Fatal(err)
		}
		took := time.Since(t0)
		runtime.GC()
		runtime.ReadMemStats(&m1)
		heap := mb(m1.HeapAlloc - m0.HeapAlloc)
		t.Logf("%s: start-up took %s; heap %.1f MB after it, %.1f MB allocated during it",
			name, took.Round(time.Millisecond), heap, mb(m1.TotalAlloc-m0.TotalAlloc))
		if heap > 10 {
			t.Errorf("%s: heap %.1f MB after start-up", name, heap)
		}
		return s, c
	}
	start("demo 23:00", true, time.Date(2026, 11, 22, 23, 0, 0, 0, tpe))

	var m0, m2 runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m0)
	s, c := start("exchange 08:00", false, time.Date(2026, 11, 20, 8, 0, 0, 0, tpe))
	t0 := time.Now()
	for at := time.Date(2026, 11, 20, 9, 0, 0, 0, tpe); !at.After(time.Date(2026, 11, 20, 14, 0, 0, 0, tpe)); at = at.Add(10 * time.Minute) {
		c.set(at)
		s.Advance()
		for _, sym := range []string{"2330", "2317", "0050", "TAIEX"} {
			for _, iv := range []string{"1m", "30m", "1d", "1M"} {
				if _, err := s.Candles(sym, iv, time.Time{}, 1); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	elapsed := time.Since(t0)
	runtime.GC()
	runtime.ReadMemStats(&m2)
	heap := mb(m2.HeapAlloc - m0.HeapAlloc)
	t.Logf("exchange: heap %.1f MB after the whole day traded (%d symbols with candles kept; the day took %s to simulate)",
		heap, s.store.Symbols(), elapsed.Round(time.Millisecond))
	if heap > 15 {
		t.Errorf("heap %.1f MB after a day", heap)
	}
}

// BenchmarkStart is the start-up of the whole market at its largest, the demo at 23:00 (a day of
// 1,430 minutes to catch up); heap-MB is the heap it leaves in use.
func BenchmarkStart(b *testing.B) {
	at := time.Date(2026, 11, 22, 23, 0, 0, 0, tpe)
	var heap float64
	for b.Loop() {
		var m0, m1 runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&m0)
		s, err := New(Config{Seed: 1, Demo: true, Now: func() time.Time { return at }})
		if err != nil {
			b.Fatal(err)
		}
		runtime.GC()
		runtime.ReadMemStats(&m1)
		heap = float64(m1.HeapAlloc-m0.HeapAlloc) / (1 << 20)
		runtime.KeepAlive(s)
	}
	b.ReportMetric(heap, "heap-MB")
}
