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

// TestMemory reports the heap of a service that has traded a full day (every symbol's candles
// loaded), and fails if it grows beyond a generous bound.
func TestMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("slow")
	}
	var m0, m1, m2 runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m0)
	c := &clock{t: time.Date(2026, 11, 20, 8, 0, 0, 0, tpe)}
	s, err := New(Config{Seed: 1, Now: c.now})
	if err != nil {
		t.Fatal(err)
	}
	runtime.GC()
	runtime.ReadMemStats(&m1)
	t0 := time.Now()
	c.set(time.Date(2026, 11, 20, 14, 0, 0, 0, tpe))
	s.Advance()
	elapsed := time.Since(t0)
	runtime.GC()
	runtime.ReadMemStats(&m2)
	mb := func(x uint64) float64 { return float64(x) / (1 << 20) }
	t.Logf("heap: %.1f MB after start, %.1f MB after a full trading day (%d symbols with candles; the day took %s to simulate)",
		mb(m1.HeapAlloc-m0.HeapAlloc), mb(m2.HeapAlloc-m0.HeapAlloc), s.store.Symbols(), elapsed.Round(time.Millisecond))
	if mb(m2.HeapAlloc-m0.HeapAlloc) > 400 {
		t.Errorf("heap %.0f MB", mb(m2.HeapAlloc-m0.HeapAlloc))
	}
}
