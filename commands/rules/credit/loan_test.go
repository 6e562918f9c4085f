package credit

import (
	"testing"

	"github.com/shopspring/decimal"
)

var dec = decimal.RequireFromString

func TestBandAmount(t *testing.T) {
	for _, c := range []struct {
		score int
		want  string
	}{{100, "100000"}, {90, "100000"}, {89, "50000"}, {80, "50000"}, {79, "20000"}, {60, "20000"}, {59, "0"}, {0, "0"}} {
		if got := BandAmount(c.score); !got.Equal(dec(c.want)) {
			t.Errorf("BandAmount(%d) = %s, want %s", c.score, got, c.want)
		}
	}
}

func TestLimit(t *testing.T) {
	for _, c := range []struct {
		name  string
		hs    []Holding
		score int
		want  string
	}{
		{"score only", nil, 100, "100000"},
		{"stock at half", []Holding{{ClassStock, 1000, dec("100")}}, 59, "50000"},
		{"etf and bond etf", []Holding{{ClassETF, 1000, dec("50")}, {ClassBondETF, 2000, dec("30")}}, 59, "72000"},
		{"rounded down", []Holding{{ClassStock, 3, dec("10.01")}}, 59, "15"},
		{"unknown class counts nothing", []Holding{{"warrant", 1000, dec("10")}}, 80, "50000"},
		{"no price counts nothing", []Holding{{ClassStock, 1000, decimal.Zero}}, 59, "0"},
		{"stock plus band", []Holding{{ClassStock, 2000, dec("590")}}, 95, "690000"},
	} {
		if got := Limit(c.hs, c.score); !got.Equal(dec(c.want)) {
			t.Errorf("%s: Limit = %s, want %s", c.name, got, c.want)
		}
	}
}

func TestAvailable(t *testing.T) {
	for _, c := range []struct{ limit, used, want string }{{"100000", "30000", "70000"}, {"100000", "120000", "0"}, {"0", "0", "0"}} {
		if got := Available(dec(c.limit), dec(c.used)); !got.Equal(dec(c.want)) {
			t.Errorf("Available(%s, %s) = %s, want %s", c.limit, c.used, got, c.want)
		}
	}
}

func TestDailyInterest(t *testing.T) {
	for _, c := range []struct{ principal, want string }{
		{"100000", "20"}, // 100,000 × 0.073 / 365 = 20 exactly
		{"50000", "10"},
		{"12500", "3"}, // 2.5 rounds half up
		{"12000", "2"}, // 2.4 rounds down
		{"1000", "0"},  // 0.2
		{"2500", "1"},  // 0.5 rounds up
		{"0", "0"},
		{"-5", "0"},
	} {
		if got := DailyInterest(dec(c.principal), AnnualRate); !got.Equal(dec(c.want)) {
			t.Errorf("DailyInterest(%s) = %s, want %s", c.principal, got, c.want)
		}
	}
}

func TestSplit(t *testing.T) {
	for _, c := range []struct{ amount, interest, wantI, wantP string }{
		{"100", "30", "30", "70"}, {"20", "30", "20", "0"}, {"100", "0", "0", "100"},
	} {
		i, p := Split(dec(c.amount), dec(c.interest))
		if !i.Equal(dec(c.wantI)) || !p.Equal(dec(c.wantP)) {
			t.Errorf("Split(%s, %s) = %s, %s", c.amount, c.interest, i, p)
		}
	}
}
