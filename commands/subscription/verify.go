package subscription

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/lotbook/lotbook/commands/rules/draw"
	"github.com/lotbook/lotbook/events"
)

// DrawCheck is an issue's draw re-run from the log: the applications the members' account
// streams hold, the seed revealed against the commitment published at listing, the winners the
// seed draws against the recorded ones.
type DrawCheck struct {
	IssueID, Algorithm, Commitment, Seed string
	Drawn                                bool
	Lots                                 int64    // winners the listing calls for (lots offered over lots per application)
	Applications                         []string // found in the log, sorted
	Winners                              []string // as the draw recorded them
	Recomputed                           []string // as the revealed seed draws them from Applications
	SeedMatches, ApplicationsMatch       bool
	WinnersMatch                         bool
	Problems                             []string
}

// Verified reports that the draw is reproduced in every respect.
func (d DrawCheck) Verified() bool {
	return d.Drawn && d.SeedMatches && d.ApplicationsMatch && d.WinnersMatch && len(d.Problems) == 0
}

// ErrNoIssue answers Verify for an issue that was never listed.
var ErrNoIssue = fmt.Errorf("subscription: no such issue")

// Verify re-runs an issue's draw from the event log alone (no read model, no secret key).
func Verify(ctx context.Context, store events.Store, issueID string) (DrawCheck, error) {
	out := DrawCheck{IssueID: issueID}
	if !validIssueID(issueID) {
		return out, ErrNoIssue
	}
	evs, err := store.ReadStream(ctx, events.SubscriptionStream(issueID), 0)
	if err != nil {
		return out, fmt.Errorf("read issue %s: %w", issueID, err)
	}
	var listed *events.SubscriptionIssueListed
	var drawn *events.SubscriptionDrawn
	for _, r := range evs {
		p, err := events.DecodeRecorded(r)
		if err != nil {
			return out, err
		}
		switch e := p.(type) {
		case events.SubscriptionIssueListed:
			listed = &e
		case events.SubscriptionSeedCommitted:
			out.Commitment, out.Algorithm = e.Commitment, e.Algorithm
		case events.SubscriptionDrawn:
			drawn = &e
		}
	}
	if listed == nil {
		return out, ErrNoIssue
	}
	out.Lots = listed.Lots / listed.UnitLots
	out.Applications, err = applicationsInLog(ctx, store, issueID)
	if err != nil {
		return out, err
	}
	if drawn == nil {
		return out, nil
	}
	out.Drawn, out.Seed, out.Winners = true, drawn.Seed, drawn.Winners
	if drawn.Algorithm != draw.Algorithm || out.Algorithm != draw.Algorithm {
		out.Problems = append(out.Problems, fmt.Sprintf("algorithm %q (committed %q) is not %q", drawn.Algorithm, out.Algorithm, draw.Algorithm))
	}
	if drawn.Commitment != out.Commitment {
		out.Problems = append(out.Problems, "the draw names another commitment than the one published at listing")
	}
	if c, err := draw.Commitment(drawn.Seed); err == nil && c == out.Commitment {
		out.SeedMatches = true
	}
	out.ApplicationsMatch = slices.Equal(out.Applications, drawn.Applications)
	if drawn.Lots != out.Lots {
		out.Problems = append(out.Problems, fmt.Sprintf("the draw drew for %d winners, the listing offers %d", drawn.Lots, out.Lots))
	}
	if out.Recomputed, err = draw.Winners(drawn.Seed, out.Applications, int(out.Lots)); err != nil {
		out.Problems = append(out.Problems, err.Error())
	}
	out.WinnersMatch = err == nil && slices.Equal(out.Recomputed, drawn.Winners)
	return out, nil
}

// applicationsInLog is every application to the issue on any account stream, sorted.
func applicationsInLog(ctx context.Context, store events.Store, issueID string) ([]string, error) {
	out := []string{}
	var after int64
	for {
		page, err := store.ReadAll(ctx, after, 1000)
		if err != nil {
			return nil, fmt.Errorf("read the log after %d: %w", after, err)
		}
		if len(page) == 0 {
			break
		}
		for _, r := range page {
			after = r.Position
			if !strings.HasPrefix(r.Type, "SubscriptionApplied.") {
				continue
			}
			p, err := events.DecodeRecorded(r)
			if err != nil {
				return nil, err
			}
			if e := p.(events.SubscriptionApplied); e.IssueID == issueID {
				out = append(out, e.ApplicationNo)
			}
		}
	}
	slices.Sort(out)
	return out, nil
}
