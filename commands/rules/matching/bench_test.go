package matching

import (
	"testing"

	"github.com/shopspring/decimal"
)

// BenchmarkCheck is one match check of a resting order against a quote: does the best opposite
// level cross the limit (the engine's test for every resting order on every quote update).
func BenchmarkCheck(b *testing.B) {
	limit, best := d("186"), d("186.5")
	n := 0
	for b.Loop() {
		if Crosses(true, limit, best) {
			n++
		}
	}
	_ = n
}

// BenchmarkCross is a full match of a 3-lot order against five levels, the two it takes priced.
func BenchmarkCross(b *testing.B) {
	levels := []Level{{d("186"), 1000}, {d("186.5"), 2000}, {d("187"), 3000}, {d("187.5"), 4000}, {d("188"), 5000}}
	limit := decimal.RequireFromString("186.5")
	for b.Loop() {
		if len(Cross(true, limit, 3000, 1000, levels)) != 2 {
			b.Fatal("bad cross")
		}
	}
}
