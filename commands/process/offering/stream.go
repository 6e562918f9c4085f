package offering

import "github.com/lotbook/lotbook/events"

// Stream is what an offering's stream holds for its capability's decisions (the auction's, the
// placement's): the listing event L, the commitment to its seed and, once resulted, the shares
// the result granted each entry. The capability's Apply records its events in it; a copy is what
// an account's decision reads (Grants is never changed once resulted).
type Stream[L any] struct {
	Listed     bool
	Ev         L
	Commitment string
	Resulted   bool
	Grants     map[string]int64 // entry number -> shares granted
}

// List records the listing.
func (s *Stream[L]) List(ev L) { s.Listed, s.Ev = true, ev }

// Commit records the commitment to the seed.
func (s *Stream[L]) Commit(seed events.OfferingSeed) { s.Commitment = seed.Commitment }

// Result records the result's grants.
func (s *Stream[L]) Result(grants []events.Grant) {
	s.Resulted, s.Grants = true, make(map[string]int64, len(grants))
	for _, g := range grants {
		s.Grants[g.No] = g.Shares
	}
}

// Unresolved implements Resultable.
func (s *Stream[L]) Unresolved() (string, bool) { return s.Commitment, s.Listed && !s.Resulted }
