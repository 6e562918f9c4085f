package allot

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/shopspring/decimal"

	"github.com/lotbook/lotbook/commands/rules/draw"
)

var seed = strings.Repeat("a7", 32)

func bid(no, price string, lots int64) Bid {
	return Bid{No: no, Price: decimal.RequireFromString(price), Lots: lots}
}

func TestAward(t *testing.T) {
	// The order the seed draws B2, B3, B4 in: the tie cases below depend on it.
	tieOrder, err := draw.Winners(seed, []string{"B2", "B3", "B4"}, 3)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		bids []Bid
		lots int64
		want []Grant
		err  bool
	}{
		{"under-subscribed: everyone whole, highest first", []Bid{bid("B1", "100", 3), bid("B2", "120", 2)}, 10,
			[]Grant{{"B2", 2}, {"B1", 3}}, false},
		{"highest prices fill the lots, lower get nothing", []Bid{bid("B1", "100", 5), bid("B2", "120", 4), bid("B3", "110", 6)}, 10,
			[]Grant{{"B2", 4}, {"B3", 6}}, false},
		{"marginal bid gets part", []Bid{bid("B1", "100", 5), bid("B2", "120", 4), bid("B3", "110", 6)}, 12,
			[]Grant{{"B2", 4}, {"B3", 6}, {"B1", 2}}, false},
		{"a tie that fits is awarded whole without a draw", []Bid{bid("B2", "110", 2), bid("B1", "110", 3)}, 5,
			[]Grant{{"B1", 3}, {"B2", 2}}, false},
		{"a tie that does not fit goes in the seed's order", []Bid{bid("B1", "130", 1), bid("B2", "110", 2), bid("B3", "110", 2), bid("B4", "110", 2), bid("B5", "90", 9)}, 4,
			[]Grant{{"B1", 1}, {tieOrder[0], 2}, {tieOrder[1], 1}}, false},
		{"no bids", nil, 10, nil, false},
		{"no lots", []Bid{bid("B1", "100", 1)}, 0, nil, false},
		{"repeated number", []Bid{bid("B1", "100", 1), bid("B1", "101", 1)}, 3, nil, true},
		{"zero lots bid", []Bid{bid("B1", "100", 0)}, 3, nil, true},
		{"negative lots offered", []Bid{bid("B1", "100", 1)}, -1, nil, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Award(seed, tc.bids, tc.lots)
			if (err != nil) != tc.err {
				t.Fatalf("err %v, want error %v", err, tc.err)
			}
			if !slices.Equal(got, tc.want) {
				t.Fatalf("got %v, want %v", got, tc.want)
			}
		})
	}
}

// TestAwardTieIsTheSeeds: another seed may order a tie differently; one seed always the same,
// whatever the order the bids come in.
func TestAwardTieIsTheSeeds(t *testing.T) {
	bids := []Bid{bid("B1", "100", 1), bid("B2", "100", 1), bid("B3", "100", 1), bid("B4", "100", 1)}
	first := map[string]bool{}
	for i := range 16 {
		s := strings.Repeat(fmt.Sprintf("%02x", i), 32)
		a, _ := Award(s, bids, 1)
		reversed := slices.Clone(bids)
		slices.Reverse(reversed)
		again, _ := Award(s, reversed, 1)
		if !slices.Equal(a, again) {
			t.Fatalf("seed %s awards %v, in another order of bids %v", s, a, again)
		}
		first[a[0].No] = true
	}
	if len(first) < 2 {
		t.Fatalf("16 seeds all award the tie to %v", first)
	}
}

func TestProRata(t *testing.T) {
	req := func(no string, n int64) Grant { return Grant{No: no, Units: n} }
	for _, tc := range []struct {
		name   string
		reqs   []Grant
		shares int64
		want   []int64 // by number order
		err    bool
	}{
		{"fits: all get what they asked", []Grant{req("P1", 3000), req("P2", 1000)}, 5000, []int64{3000, 1000}, false},
		{"exact split, no remainder", []Grant{req("P1", 3000), req("P2", 1000)}, 2000, []int64{1500, 500}, false},
		{"remainder of one share drawn", []Grant{req("P1", 1000), req("P2", 1000), req("P3", 1000)}, 1000, nil, false},
		{"no shares", []Grant{req("P1", 1000)}, 0, []int64{}, false},
		{"no requests", nil, 1000, []int64{}, false},
		{"zero asked", []Grant{req("P1", 0)}, 1000, nil, true},
		{"repeated number", []Grant{req("P1", 1), req("P1", 2)}, 1, nil, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ProRata(seed, tc.reqs, tc.shares)
			if (err != nil) != tc.err {
				t.Fatalf("err %v, want error %v", err, tc.err)
			}
			if tc.err {
				return
			}
			sum, asked := int64(0), int64(0)
			for _, g := range got {
				sum += g.Units
			}
			for _, r := range tc.reqs {
				asked += r.Units
			}
			if want := min(asked, tc.shares); sum != want {
				t.Fatalf("allotted %d shares, want %d (%v)", sum, want, got)
			}
			if tc.want != nil {
				units := []int64{}
				for _, g := range got {
					units = append(units, g.Units)
				}
				if !slices.Equal(units, tc.want) {
					t.Fatalf("got %v, want %v", units, tc.want)
				}
			}
		})
	}
}

// TestProRataRemainder: 1000 shares over three equal requests is 333 each and one share to the
// application the seed draws.
func TestProRataRemainder(t *testing.T) {
	reqs := []Grant{{"P1", 1000}, {"P2", 1000}, {"P3", 1000}}
	got, err := ProRata(seed, reqs, 1000)
	if err != nil {
		t.Fatal(err)
	}
	w, _ := draw.Winners(seed, []string{"P1", "P2", "P3"}, 1)
	for _, g := range got {
		want := int64(333)
		if g.No == w[0] {
			want = 334
		}
		if g.Units != want {
			t.Fatalf("%s got %d, want %d (%v)", g.No, g.Units, want, got)
		}
	}
}

func TestDepositAndSettle(t *testing.T) {
	d := decimal.RequireFromString
	if got := Deposit(d("304500"), d("0.2")); !got.Equal(d("60900")) {
		t.Fatalf("deposit %s", got)
	}
	if got := Deposit(d("1001"), d("0.15")); !got.Equal(d("151")) { // 150.15 rounds up
		t.Fatalf("deposit %s", got)
	}
	for _, tc := range []struct{ frozen, cost, fromFrozen, fromAvail, released string }{
		{"60900", "304500", "60900", "243600", "0"},  // a winner: deposit then balance
		{"60900", "0", "0", "0", "60900"},            // a loser: all released
		{"60900", "20300", "20300", "0", "40600"},    // a small part awarded: the rest released
		{"264000", "188584", "188584", "0", "75416"}, // a placement: the unallotted part refunded
	} {
		s := Settle(d(tc.frozen), d(tc.cost))
		if !s.FromFrozen.Equal(d(tc.fromFrozen)) || !s.FromAvailable.Equal(d(tc.fromAvail)) || !s.Released.Equal(d(tc.released)) {
			t.Errorf("Settle(%s, %s) = %+v", tc.frozen, tc.cost, s)
		}
	}
}
