package index

import (
	"testing"

	"github.com/lotbook/lotbook/market/instruments"
	"github.com/lotbook/lotbook/market/price"
)

func TestBaseAndMoves(t *testing.T) {
	lots := []int64{25_930_000, 13_860_000, 100}
	base := []price.Price{145000, 22500, 1000}
	x := New(Listed, lots, base)
	c := x.Cap(base)
	if got := x.Value(c); got.String() != "23000.00" {
		t.Fatalf("base value %s", got)
	}
	// Every constituent up 10 %: the index is up 10 %.
	up := []price.Price{159500, 24750, 1100}
	if got := x.Value(x.Cap(up)); got.String() != "25300.00" {
		t.Errorf("all up 10%%: %s", got)
	}
	// Incremental updates equal a full recomputation.
	c += x.Delta(0, base[0], up[0]) + x.Delta(1, base[1], up[1]) + x.Delta(2, base[2], up[2])
	if c != x.Cap(up) {
		t.Errorf("delta sum %d != cap %d", c, x.Cap(up))
	}
}

func TestMembers(t *testing.T) {
	cat := instruments.MustDefault()
	n := map[string]int{}
	for _, in := range cat.All() {
		for _, d := range All {
			if d.Member(in) {
				n[d.Symbol]++
			}
		}
	}
	if n["TAIEX"] != 1045 || n["TPEX"] != 880 {
		t.Errorf("constituents %v, want 1045 listed and 880 OTC stocks", n)
	}
}
