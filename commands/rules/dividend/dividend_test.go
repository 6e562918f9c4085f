package dividend

import (
	"testing"

	"github.com/shopspring/decimal"
)

func TestOf(t *testing.T) {
	d := decimal.RequireFromString
	for _, tc := range []struct {
		name                       string
		shares                     int64
		cash, stock                string
		gross, frac, nhi, fee, net string
		newShares                  int64
	}{
		{"one lot, cash only", 1000, "4.5", "0", "4500", "0", "0", "10", "4490", 0},
		{"cash rounded down to NT$", 333, "1.23", "0", "409", "0", "0", "10", "399", 0},
		{"at the NHI threshold", 5000, "4", "0", "20000", "0", "422", "10", "19568", 0},
		{"just under the threshold", 4999, "4", "0", "19996", "0", "0", "10", "19986", 0},
		{"stock dividend, whole shares", 1000, "0", "1", "0", "0", "0", "0", "0", 100},
		{"stock dividend with a fraction paid at par", 1234, "0", "0.5", "0", "7", "0", "0", "7", 61}, // 61.7: 61 shares and 0.7 × NT$10, under the fee
		{"fraction worth under NT$1", 1299, "0", "0.77", "0", "0", "0", "0", "0", 100},                // 100.023: 0.23 NT$ rounds down
		{"cash and stock", 2500, "2", "0.8", "5000", "0", "0", "10", "4990", 200},
		{"cash and stock over the threshold", 10019, "2", "0.55", "20038", "0", "423", "10", "19605", 551}, // 551.045
		{"fraction cash counted for NHI", 9996, "2", "0.25", "19992", "9", "422", "10", "19569", 249},      // 249.9: 19,992 + 9 reaches the threshold
		{"tiny cash below the fee", 1, "3", "0", "3", "0", "0", "0", "3", 0},
		{"nothing held", 0, "3", "1", "0", "0", "0", "0", "0", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := Of(tc.shares, d(tc.cash), d(tc.stock))
			got := []string{p.Gross.String(), p.FractionCash.String(), p.NHI.String(), p.Fee.String(), p.Net.String()}
			want := []string{tc.gross, tc.frac, tc.nhi, tc.fee, tc.net}
			for i := range got {
				if got[i] != want[i] {
					t.Fatalf("gross, fraction, nhi, fee, net = %v, want %v", got, want)
				}
			}
			if p.NewShares != tc.newShares {
				t.Fatalf("new shares %d, want %d", p.NewShares, tc.newShares)
			}
			if !p.Net.Equal(p.Gross.Add(p.FractionCash).Sub(p.NHI).Sub(p.Fee)) || p.Net.IsNegative() {
				t.Fatalf("net %s does not add up", p.Net)
			}
		})
	}
}
