package offering

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/lotbook/lotbook/commands/rules/draw"
	"github.com/lotbook/lotbook/events"
)

// Check is an offering's result re-run from the log alone (no read model, no secret key): the
// entries the members' account streams hold (the streams of the members the result recorded,
// read one by one; the whole log for a result that recorded none) against those the result ran over, the revealed
// seed against the commitment published at listing, the grants the published rule gives against
// the recorded ones. Its JSON is the API's OfferingCheck.
type Check struct {
	OfferingID   string         `json:"id"`
	Algorithm    string         `json:"algorithm"`
	Commitment   string         `json:"commitment"`
	Seed         string         `json:"seed"`
	Resulted     bool           `json:"resulted"`
	Entries      []events.Grant `json:"entries"`    // in the log, by number (Shares: asked; Price: the entry's)
	Recorded     []events.Grant `json:"recorded"`   // the entries the result ran over
	Grants       []events.Grant `json:"grants"`     // as the result recorded them
	Recomputed   []events.Grant `json:"recomputed"` // as the rule gives them from Entries and the seed
	SeedMatches  bool           `json:"seedMatches"`
	EntriesMatch bool           `json:"entriesMatch"`
	GrantsMatch  bool           `json:"grantsMatch"`
	Problems     []string       `json:"problems"`
	Verified     bool           `json:"verified"` // reproduced in every respect
}

// Result is what a result event recorded, for a Check.
type Result struct {
	Seed, Commitment, Algorithm string
	Entries, Grants             []events.Grant
	Offered, LotShares          int64    // shares offered; shares of a lot
	Entrants                    []string // the members the result recorded (nil: not recorded)
}

// Entrants are the members of entries, sorted and once each: what a result records so that a
// check reads their account streams rather than the whole log.
func Entrants(entries []Entry) []string {
	out := make([]string, 0, len(entries))
	for _, e := range entries {
		out = append(out, e.MemberID)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// Verifier is one capability's side of a check: its stream, how its events read, and its rule.
type Verifier struct {
	Stream    func(id string) string
	Algorithm string
	// Listing reads the offering's stream: the commitment's event, the result's.
	Listing func(p events.Payload) (seed *events.OfferingSeed, result *Result, listed bool)
	// Entry reads an entry of the offering from an account stream's event (ok false: not one).
	Entry   func(p events.Payload, id string) (events.Grant, bool)
	Rule    func(seed string, entries []events.Grant, r Result) ([]events.Grant, error)
	Entries string // the entry event's type prefix ("AuctionBidPlaced.")
}

// Verify re-runs the offering's result from the log.
func (v Verifier) Verify(ctx context.Context, store events.Store, id string) (Check, error) {
	out, err := v.verify(ctx, store, id)
	out.Verified = out.Resulted && out.SeedMatches && out.EntriesMatch && out.GrantsMatch && len(out.Problems) == 0
	for _, gs := range []*[]events.Grant{&out.Entries, &out.Recorded, &out.Grants, &out.Recomputed} {
		if *gs == nil {
			*gs = []events.Grant{}
		}
	}
	if out.Problems == nil {
		out.Problems = []string{}
	}
	return out, err
}

func (v Verifier) verify(ctx context.Context, store events.Store, id string) (Check, error) {
	out := Check{OfferingID: id}
	if !ValidID(id) {
		return out, ErrNoOffering
	}
	evs, err := store.ReadStream(ctx, v.Stream(id), 0)
	if err != nil {
		return out, fmt.Errorf("read offering %s: %w", id, err)
	}
	var res *Result
	listed := false
	for _, r := range evs {
		p, err := events.DecodeRecorded(r)
		if err != nil {
			return out, err
		}
		seed, result, l := v.Listing(p)
		listed = listed || l
		if seed != nil {
			out.Commitment, out.Algorithm = seed.Commitment, seed.Algorithm
		}
		if result != nil {
			res = result
		}
	}
	if !listed {
		return out, ErrNoOffering
	}
	if res == nil {
		out.Entries, err = v.entriesInLog(ctx, store, id)
		return out, err
	}
	if res.Entrants != nil {
		out.Entries, err = v.entriesOf(ctx, store, id, res.Entrants)
	} else {
		// A result recorded before its entrants were: the whole log.
		out.Entries, err = v.entriesInLog(ctx, store, id)
	}
	if err != nil {
		return out, err
	}
	out.Resulted, out.Seed, out.Recorded, out.Grants = true, res.Seed, res.Entries, res.Grants
	if res.Algorithm != v.Algorithm || out.Algorithm != draw.Algorithm {
		out.Problems = append(out.Problems, fmt.Sprintf("algorithm %q (seed committed for %q) is not %q", res.Algorithm, out.Algorithm, v.Algorithm))
	}
	if res.Commitment != out.Commitment {
		out.Problems = append(out.Problems, "the result names another commitment than the one published at listing")
	}
	if c, err := draw.Commitment(res.Seed); err == nil && c == out.Commitment {
		out.SeedMatches = true
	}
	out.EntriesMatch = slices.EqualFunc(out.Entries, res.Entries, sameGrant)
	if out.Recomputed, err = v.Rule(res.Seed, out.Entries, *res); err != nil {
		out.Problems = append(out.Problems, err.Error())
	}
	out.GrantsMatch = err == nil && slices.EqualFunc(out.Recomputed, res.Grants, sameGrant)
	return out, nil
}

func sameGrant(a, b events.Grant) bool {
	return a.No == b.No && a.Shares == b.Shares && a.Price.Equal(b.Price)
}

// entriesOf is every entry of the offering on the account streams of members, by number.
func (v Verifier) entriesOf(ctx context.Context, store events.Store, id string, members []string) ([]events.Grant, error) {
	out := []events.Grant{}
	for _, m := range members {
		evs, err := store.ReadStream(ctx, events.AccountStream(m), 0)
		if err != nil {
			return nil, fmt.Errorf("read the account of %s: %w", m, err)
		}
		if out, err = v.appendEntries(out, evs, id); err != nil {
			return nil, err
		}
	}
	slices.SortFunc(out, func(a, b events.Grant) int { return strings.Compare(a.No, b.No) })
	return out, nil
}

// appendEntries appends the entries of the offering among evs.
func (v Verifier) appendEntries(out []events.Grant, evs []events.RecordedEvent, id string) ([]events.Grant, error) {
	for _, r := range evs {
		if !strings.HasPrefix(r.Type, v.Entries) {
			continue
		}
		p, err := events.DecodeRecorded(r)
		if err != nil {
			return nil, err
		}
		if g, ok := v.Entry(p, id); ok {
			out = append(out, g)
		}
	}
	return out, nil
}

// entriesInLog is every entry of the offering on any account stream, by number: the check of an
// offering not resulted yet, or of a result that did not record its entrants.
func (v Verifier) entriesInLog(ctx context.Context, store events.Store, id string) ([]events.Grant, error) {
	out := []events.Grant{}
	var after int64
	for {
		page, err := store.ReadAll(ctx, after, 1000)
		if err != nil {
			return nil, fmt.Errorf("read the log after %d: %w", after, err)
		}
		if len(page) == 0 {
			break
		}
		after = page[len(page)-1].Position
		if out, err = v.appendEntries(out, page, id); err != nil {
			return nil, err
		}
	}
	slices.SortFunc(out, func(a, b events.Grant) int { return strings.Compare(a.No, b.No) })
	return out, nil
}
