package price

import (
	"testing"

	"github.com/shopspring/decimal"
)

func TestParseAndString(t *testing.T) {
	tests := []struct {
		in   string
		want Price
		str  string
		err  bool
	}{
		{"1450", 145000, "1450.00", false},
		{"12.35", 1235, "12.35", false},
		{"0.01", 1, "0.01", false},
		{"9.999", 0, "", true},
		{"abc", 0, "", true},
		{"-3.5", -350, "-3.50", false},
	}
	for _, tc := range tests {
		got, err := Parse(tc.in)
		if (err != nil) != tc.err {
			t.Fatalf("Parse(%q) error = %v, want error %v", tc.in, err, tc.err)
		}
		if err != nil {
			continue
		}
		if got != tc.want || got.String() != tc.str {
			t.Errorf("Parse(%q) = %d %q, want %d %q", tc.in, got, got.String(), tc.want, tc.str)
		}
		if !got.Decimal().Equal(decimal.RequireFromString(tc.in)) {
			t.Errorf("Decimal(%q) = %s", tc.in, got.Decimal())
		}
	}
}
