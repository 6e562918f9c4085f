package sim

import (
	"testing"
	"time"

	"github.com/lotbook/lotbook/market/feed"
	"github.com/lotbook/lotbook/market/instruments"
)

// BenchmarkNew is the start-up cost: chains from the epoch to two months ahead of every instrument (the years before wait for a history query), then the current
// day's trades up to 10:30.
func BenchmarkNew(b *testing.B) {
	cat := instruments.MustDefault()
	for b.Loop() {
		if _, err := New(cat, Config{Seed: 1}, at("2026-11-20 10:30:00")); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkAdvanceSecond is one second of the whole market in continuous trading (every
// instrument checked, the trades of that second applied and published to one subscriber, the
// indices settled): ns/op ÷ 10⁷ is the percentage of one core used when ticking every second.
func BenchmarkAdvanceSecond(b *testing.B) {
	start := at("2026-11-20 09:05:00")
	s := newSim(b, 1, start)
	n := 0
	s.Subscribe(func(u feed.Update) { n++ })
	sec := 0
	for b.Loop() {
		sec++
		if sec == 4*3600 { // stay inside the session
			b.StopTimer()
			s = newSim(b, 1, start)
			s.Subscribe(func(u feed.Update) { n++ })
			sec = 1
			b.StartTimer()
		}
		s.Advance(start.Add(time.Duration(sec) * time.Second))
	}
	b.ReportMetric(float64(n)/float64(b.N), "updates/op")
}
