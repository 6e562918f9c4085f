package draw

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"
	"testing"
)

var seedA = strings.Repeat("a7", 32)

func entries(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("S%04d", i)
	}
	return out
}

func TestWinners(t *testing.T) {
	cases := []struct {
		name    string
		seed    string
		entries []string
		k       int
		want    int // winners
		err     bool
	}{
		{"fewer lots than entries", seedA, entries(50), 10, 10, false},
		{"as many lots as entries", seedA, entries(5), 5, 5, false},
		{"more lots than entries: all win", seedA, entries(3), 10, 3, false},
		{"no entries", seedA, nil, 10, 0, false},
		{"no lots", seedA, entries(5), 0, 0, false},
		{"unsorted entries", seedA, []string{"S2", "S1"}, 1, 0, true},
		{"repeated entry", seedA, []string{"S1", "S1"}, 1, 0, true},
		{"short seed", "abcd", entries(5), 1, 0, true},
		{"seed not hex", strings.Repeat("zz", 32), entries(5), 1, 0, true},
		{"negative lots", seedA, entries(5), -1, 0, true},
	}
	for _, c := range cases {
		got, err := Winners(c.seed, c.entries, c.k)
		if (err != nil) != c.err {
			t.Errorf("%s: err = %v, want error %v", c.name, err, c.err)
			continue
		}
		if len(got) != c.want {
			t.Errorf("%s: %d winners, want %d", c.name, len(got), c.want)
		}
		seen := map[string]bool{}
		for _, w := range got {
			if seen[w] || !slices.Contains(c.entries, w) {
				t.Errorf("%s: winner %s repeated or not an entry", c.name, w)
			}
			seen[w] = true
		}
	}
}

// TestWinnersByHand checks the documented algorithm step by step for three entries and two
// winners, computing the stream by hand: anyone re-implementing the description gets this.
func TestWinnersByHand(t *testing.T) {
	seed, _ := hex.DecodeString(seedA)
	var ctr [8]byte
	block := sha256.Sum256(append(slices.Clone(seed), ctr[:]...))
	x0, x1 := binary.BigEndian.Uint64(block[0:8]), binary.BigEndian.Uint64(block[8:16])
	// No rejection is possible for m = 3 and 2 unless x is in the top few values: assert it.
	if x0 > ^uint64(0)-3 || x1 > ^uint64(0)-3 {
		t.Skip("the first numbers fall in the rejection zone; pick another seed")
	}
	a := []string{"A", "B", "C"}
	j := 0 + int(x0%3)
	a[0], a[j] = a[j], a[0]
	j = 1 + int(x1%2)
	a[1], a[j] = a[j], a[1]
	got, err := Winners(seedA, []string{"A", "B", "C"}, 2)
	if err != nil || !slices.Equal(got, a[:2]) {
		t.Fatalf("Winners = %v, %v; by hand %v", got, err, a[:2])
	}
}

func TestDeterministicAndSeedDependent(t *testing.T) {
	e := entries(200)
	a, _ := Winners(seedA, e, 20)
	b, _ := Winners(seedA, e, 20)
	c, _ := Winners(strings.Repeat("a8", 32), e, 20)
	if !slices.Equal(a, b) {
		t.Fatal("same seed and entries drew differently")
	}
	if slices.Equal(a, c) {
		t.Fatal("another seed drew the same winners")
	}
}

// TestRoughlyUniform draws one of four entries with many seeds: each must win about a quarter
// of the time (a biased draw fails by far more than the margin).
func TestRoughlyUniform(t *testing.T) {
	counts := map[string]int{}
	const runs = 4000
	for i := range runs {
		sum := sha256.Sum256([]byte(fmt.Sprint(i)))
		w, err := Winners(hex.EncodeToString(sum[:]), entries(4), 1)
		if err != nil {
			t.Fatal(err)
		}
		counts[w[0]]++
	}
	for e, n := range counts {
		if n < runs/4-200 || n > runs/4+200 {
			t.Errorf("%s won %d of %d draws", e, n, runs)
		}
	}
}

func TestVerify(t *testing.T) {
	e := entries(50)
	commit, err := Commitment(seedA)
	if err != nil {
		t.Fatal(err)
	}
	won, _ := Winners(seedA, e, 10)
	tampered := slices.Clone(won)
	tampered[3] = e[49]
	if slices.Contains(won, e[49]) {
		tampered[3] = e[48]
	}
	cases := []struct {
		name       string
		seed, comm string
		entries    []string
		winners    []string
		ok         bool
	}{
		{"as drawn", seedA, commit, e, won, true},
		{"another winner", seedA, commit, e, tampered, false},
		{"seed not committed", strings.Repeat("a8", 32), commit, e, won, false},
		{"entry removed", seedA, commit, e[1:], won, false},
		{"winners reordered", seedA, commit, e, append(won[1:2:2], append([]string{won[0]}, won[2:]...)...), false},
	}
	for _, c := range cases {
		if err := Verify(c.seed, c.comm, c.entries, 10, c.winners); (err == nil) != c.ok {
			t.Errorf("%s: Verify = %v, want ok %v", c.name, err, c.ok)
		}
	}
}
