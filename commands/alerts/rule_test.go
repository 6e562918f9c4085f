package alerts

import (
	"testing"

	"github.com/shopspring/decimal"

	"github.com/lotbook/lotbook/events"
)

func TestCrossed(t *testing.T) {
	d := decimal.RequireFromString
	tests := []struct {
		name, kind, value, price, prev string
		want                           bool
	}{
		{"above: below the level", events.AlertPriceAbove, "100", "99.9", "98", false},
		{"above: at the level", events.AlertPriceAbove, "100", "100", "98", true},
		{"above: over it", events.AlertPriceAbove, "100", "100.5", "98", true},
		{"below: over the level", events.AlertPriceBelow, "100", "100.5", "101", false},
		{"below: at the level", events.AlertPriceBelow, "100", "100", "101", true},
		{"below: no trade yet", events.AlertPriceBelow, "100", "0", "101", false},
		{"rise: 2.99% of 100", events.AlertRisePct, "3", "102.99", "100", false},
		{"rise: exactly 3%", events.AlertRisePct, "3", "103", "100", true},
		{"rise: a fall is no rise", events.AlertRisePct, "3", "90", "100", false},
		{"rise: limit up", events.AlertRisePct, "9.5", "110", "100", true},
		{"fall: 2% of 50", events.AlertFallPct, "2", "49", "50", true},
		{"fall: 1.9%", events.AlertFallPct, "2", "49.05", "50", false},
		{"fall: a rise is no fall", events.AlertFallPct, "2", "55", "50", false},
		{"pct without a reference", events.AlertRisePct, "1", "55", "0", false},
		{"unknown kind", "sideways", "1", "55", "50", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := Crossed(tc.kind, d(tc.value), d(tc.price), d(tc.prev)); got != tc.want {
				t.Errorf("Crossed(%s %s at %s, prev %s) = %v, want %v", tc.kind, tc.value, tc.price, tc.prev, got, tc.want)
			}
		})
	}
}

func TestValidValue(t *testing.T) {
	d := decimal.RequireFromString
	tests := []struct {
		kind, value string
		want        bool
	}{
		{events.AlertPriceAbove, "1100", true},
		{events.AlertPriceAbove, "0.01", true},
		{events.AlertPriceAbove, "0", false},
		{events.AlertPriceAbove, "-5", false},
		{events.AlertPriceBelow, "100000", true},
		{events.AlertPriceBelow, "100000.01", false},
		{events.AlertPriceBelow, "10.125", false},
		{events.AlertPriceBelow, "10.120", true},
		{events.AlertRisePct, "5", true},
		{events.AlertRisePct, "100", true},
		{events.AlertFallPct, "100.5", false},
		{events.AlertFallPct, "0.5", true},
		{"sideways", "1", false},
	}
	for _, tc := range tests {
		if got := ValidValue(tc.kind, d(tc.value)); got != tc.want {
			t.Errorf("ValidValue(%s, %s) = %v, want %v", tc.kind, tc.value, got, tc.want)
		}
	}
}
