// Package draw is the published, seeded lottery that the new-share subscription (and the
// auction's ties and the placement's remainder) draw with. Anyone holding the revealed seed and
// the sorted list of entries can run it again and must get the same winners.
//
// Algorithm "sha256-counter-fisher-yates/v1":
//
//  1. The entries are distinct strings in ascending byte order (application numbers).
//  2. A stream of 64-bit numbers: block i (i = 0, 1, ...) is SHA-256(seed ‖ i as 8 bytes
//     big-endian); each block gives four numbers, its bytes 0–7, 8–15, 16–23, 24–31 read
//     big-endian.
//  3. A number below m is drawn from the stream by rejection: take the next number x; if x is at or
//     above 2^64 − (2^64 mod m) take another; else the result is x mod m. Every value below m is
//     then equally likely.
//  4. Partial Fisher–Yates over a copy of the entries: for i = 0 … k−1, j = i + (a number below
//     n − i), swap entries i and j. The winners are entries 0 … k−1 in that order; k is the number
//     of winners, capped at n.
//
// The seed's SHA-256 is published before the draw (Commitment) and the seed revealed with the
// result, so the operator cannot choose a seed after seeing the entries.
package draw

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"slices"
)

// Algorithm names the algorithm above; it is recorded with every draw.
const Algorithm = "sha256-counter-fisher-yates/v1"

// SeedSize is the length of a seed in bytes.
const SeedSize = 32

// Commitment is the hex SHA-256 of the seed (given in hex).
func Commitment(seedHex string) (string, error) {
	seed, err := parseSeed(seedHex)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(seed)
	return hex.EncodeToString(sum[:]), nil
}

func parseSeed(seedHex string) ([]byte, error) {
	seed, err := hex.DecodeString(seedHex)
	if err != nil || len(seed) != SeedSize {
		return nil, fmt.Errorf("draw: the seed must be %d bytes in hex", SeedSize)
	}
	return seed, nil
}

// ErrEntries refuses a list of entries that is not sorted or repeats one.
var ErrEntries = errors.New("draw: entries must be distinct and sorted")

// Winners draws k winners from entries with the seed (hex), in draw order.
func Winners(seedHex string, entries []string, k int) ([]string, error) {
	seed, err := parseSeed(seedHex)
	if err != nil {
		return nil, err
	}
	for i := 1; i < len(entries); i++ {
		if entries[i-1] >= entries[i] {
			return nil, ErrEntries
		}
	}
	if k < 0 {
		return nil, fmt.Errorf("draw: %d winners", k)
	}
	k = min(k, len(entries))
	a := slices.Clone(entries)
	s := &stream{seed: seed, used: sha256.Size}
	for i := range k {
		j := i + int(s.below(uint64(len(a)-i)))
		a[i], a[j] = a[j], a[i]
	}
	return a[:k:k], nil
}

// Verify runs the draw again and reports the first way the recorded one differs: the seed does
// not match the commitment, or the winners are not the ones the seed draws.
func Verify(seedHex, commitment string, entries []string, k int, winners []string) error {
	c, err := Commitment(seedHex)
	if err != nil {
		return err
	}
	if c != commitment {
		return fmt.Errorf("draw: the seed's SHA-256 is %s, the commitment %s", c, commitment)
	}
	want, err := Winners(seedHex, entries, k)
	if err != nil {
		return err
	}
	if !slices.Equal(want, winners) {
		return fmt.Errorf("draw: the seed draws %v, the record says %v", want, winners)
	}
	return nil
}

// stream is step 2 of the algorithm.
type stream struct {
	seed  []byte
	block uint64
	buf   [sha256.Size]byte
	used  int // bytes of buf taken; sha256.Size when a new block is needed
}

func (s *stream) next() uint64 {
	if s.used == len(s.buf) {
		var ctr [8]byte
		binary.BigEndian.PutUint64(ctr[:], s.block)
		s.buf = sha256.Sum256(append(slices.Clone(s.seed), ctr[:]...))
		s.block++
		s.used = 0
	}
	x := binary.BigEndian.Uint64(s.buf[s.used : s.used+8])
	s.used += 8
	return x
}

// below is step 3: a number below m (m > 0), without modulo bias.
func (s *stream) below(m uint64) uint64 {
	// r is 2^64 mod m; the numbers below 2^64 − r are a whole number of copies of 0 … m−1.
	r := (math.MaxUint64%m + 1) % m
	for {
		if x := s.next(); r == 0 || x <= math.MaxUint64-r {
			return x % m
		}
	}
}
