package matching

import (
	"fmt"
	"testing"

	"github.com/shopspring/decimal"
)

func d(s string) decimal.Decimal { return decimal.RequireFromString(s) }

var asks = []Level{{d("1000"), 3000}, {d("1005"), 2000}, {d("1010"), 5000}}
var bids = []Level{{d("995"), 1000}, {d("990"), 4000}}

func show(fs []Fill) string {
	s := ""
	for _, f := range fs {
		s += fmt.Sprintf("%s×%d ", f.Price, f.Shares)
	}
	return s
}

func TestCross(t *testing.T) {
	cases := []struct {
		name   string
		buy    bool
		limit  string
		shares int64
		unit   int64
		levels []Level
		want   string
	}{
		{"buy within the best ask", true, "1000", 2000, 1000, asks, "1000×2000 "},
		{"buy walks the levels", true, "1010", 6000, 1000, asks, "1000×3000 1005×2000 1010×1000 "},
		{"buy stops at its limit", true, "1005", 9000, 1000, asks, "1000×3000 1005×2000 "},
		{"buy below the best ask rests", true, "995", 1000, 1000, asks, ""},
		{"sell walks the bids down", false, "990", 3000, 1000, bids, "995×1000 990×2000 "},
		{"sell above the best bid rests", false, "1000", 1000, 1000, bids, ""},
		{"odd lot", true, "1000", 37, 1, asks, "1000×37 "},
		{"board lots take whole lots of a level", true, "1005", 4000, 1000, []Level{{d("1000"), 1500}, {d("1005"), 2700}}, "1000×1000 1005×2000 "},
		{"a level under a lot is skipped", true, "1005", 2000, 1000, []Level{{d("1000"), 600}, {d("1005"), 5000}}, "1005×2000 "},
		{"empty side", true, "2000", 1000, 1000, nil, ""},
	}
	for _, c := range cases {
		if got := show(Cross(c.buy, d(c.limit), c.shares, c.unit, c.levels)); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}

func TestTakeSharesOneQuoteAmongOrders(t *testing.T) {
	first := Cross(true, d("1005"), 4000, 1000, asks)
	left := Take(asks, first)
	if got := show(Cross(true, d("1010"), 4000, 1000, left)); got != "1005×1000 1010×3000 " {
		t.Fatalf("second order got %q", got)
	}
	if len(asks) != 3 || asks[0].Size != 3000 {
		t.Fatalf("Take changed its input: %+v", asks)
	}
	if n, amt := Total(first); n != 4000 || !amt.Equal(d("4005000")) {
		t.Fatalf("Total = %d %s", n, amt)
	}
}

func TestProtective(t *testing.T) {
	cases := []struct {
		buy                  bool
		last, down, up, want string
	}{
		{true, "1000", "900", "1100", "1035"},
		{true, "1080", "900", "1100", "1100"}, // capped at limit-up
		{false, "1000", "900", "1100", "965"},
		{false, "920", "900", "1100", "900"},        // floored at limit-down
		{true, "12.35", "11.15", "13.55", "12.78"},  // 12.78225 down
		{false, "12.35", "11.15", "13.55", "11.92"}, // 11.91775 up
	}
	for _, c := range cases {
		if got := Protective(c.buy, d(c.last), d(c.down), d(c.up)); !got.Equal(d(c.want)) {
			t.Errorf("Protective(buy=%v, %s) = %s, want %s", c.buy, c.last, got, c.want)
		}
	}
}
