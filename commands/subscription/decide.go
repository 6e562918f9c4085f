package subscription

import (
	"fmt"
	"slices"
	"time"

	"github.com/shopspring/decimal"

	"github.com/lotbook/lotbook/commands"
	"github.com/lotbook/lotbook/commands/process/offering"
	"github.com/lotbook/lotbook/commands/rules/draw"
	"github.com/lotbook/lotbook/commands/rules/ipo"
	"github.com/lotbook/lotbook/events"
)

// Message keys of the subscription's refusals.
const (
	KeyNotStarted        = "subscription_not_started"      // the window has not opened (subscription time not arrived)
	KeyClosed            = "subscription_closed"           // the window has closed
	KeyChannelNotOpen    = "subscription_channel_not_open" // the new-share channel opens with real-name verification
	KeyRepeated          = "subscription_repeated"         // one application per member and issue
	KeyCalendarInvalid   = "subscription_calendar_invalid"
	KeyIssueExists       = "subscription_issue_exists"
	KeyNotYetListingTime = "not_yet_listing_time"
	KeyNotFound          = "not_found" // an unknown issue
)

// applicationPrefix begins application numbers, the account's order numbers of the subscription.
const applicationPrefix = "S"

// The published charges of every issue (market-rules 1i): the processing fee kept from every
// application, and the postage a winner pays on the deduction day.
var (
	ProcessingFee = decimal.NewFromInt(20)
	WinnerPostage = decimal.NewFromInt(50)
)

// LotShares is the shares of a board lot.
const LotShares = 1000

// decideList lists an issue: its listing and the commitment to its seed, once.
func decideList(s *issue, e events.SubscriptionIssueListed, commitment string) ([]events.Payload, error) {
	if s.listed {
		return nil, commands.Rule(KeyIssueExists)
	}
	return []events.Payload{e, events.SubscriptionSeedCommitted{IssueID: e.IssueID, Commitment: commitment, Algorithm: draw.Algorithm}}, nil
}

// decideApply is a member's application for lots of an issue at now.
func decideApply(apps *applications, l commands.Ledger, cash commands.Balance, m offering.Member, is issueFacts, lots int64, now time.Time, appNo string) ([]events.Payload, error) {
	if err := m.AccountRefusal(); err != nil {
		return nil, err
	}
	if !is.listed {
		return nil, commands.NotFound(KeyNotFound)
	}
	switch is.cal.State(now) {
	case ipo.NotStarted:
		return nil, commands.Rule(KeyNotStarted)
	case ipo.Subscribing, ipo.Ended:
		return nil, commands.Rule(KeyClosed)
	}
	if !m.Verified() {
		return nil, commands.Rule(KeyChannelNotOpen)
	}
	if lots != is.ev.UnitLots {
		return nil, commands.Invalid(commands.KeyQuantityInvalid)
	}
	if _, dup := apps.byIssue[is.ev.IssueID]; dup {
		return nil, commands.Rule(KeyRepeated)
	}
	shares := is.ev.Shares()
	amount := is.ev.Price.Mul(decimal.NewFromInt(shares))
	frozen := amount.Add(is.ev.Fee)
	if cash.Available.LessThan(frozen) {
		return nil, commands.Rule(commands.KeyInsufficientBalance)
	}
	return []events.Payload{events.SubscriptionApplied{IssueID: is.ev.IssueID, ApplicationNo: appNo, Symbol: is.ev.Symbol, Name: is.ev.Name,
		Lots: lots, Shares: shares, Price: is.ev.Price, Amount: amount, Fee: is.ev.Fee,
		Postings: events.Transfer(l.Available, l.Frozen, is.currency, frozen)}}, nil
}

// decideDraw reveals the seed and draws over the sorted applications of entries, once, from the
// draw date's step time on, recording the members who applied (Entrants: the account streams an
// auditor reads). The seed must be the one committed to: a changed server key stops the draw
// rather than draw with a seed nobody can check.
func decideDraw(s *issue, seed string, entries []offering.Entry, now time.Time) ([]events.Payload, error) {
	if !s.listed {
		return nil, commands.NotFound(KeyNotFound)
	}
	if s.drawn {
		return nil, nil
	}
	if now.Before(s.calendar().At(ipo.StepDraw)) {
		return nil, commands.Rule(KeyNotStarted)
	}
	c, err := draw.Commitment(seed)
	if err != nil || c != s.commitment {
		return nil, commands.Unavailable(fmt.Errorf("issue %s: the seed does not match its commitment (was the secret key changed?)", s.ev.IssueID))
	}
	apps := []string{}
	for _, e := range entries {
		apps = append(apps, e.No)
	}
	slices.Sort(apps)
	apps = slices.Compact(apps)
	k := s.ev.Lots / s.ev.UnitLots
	winners, err := draw.Winners(seed, apps, int(k))
	if err != nil {
		return nil, commands.Unavailable(err)
	}
	return []events.Payload{events.SubscriptionDrawn{IssueID: s.ev.IssueID, Seed: seed, Commitment: s.commitment, Algorithm: draw.Algorithm,
		Lots: k, Applications: apps, Winners: winners, Entrants: offering.Entrants(entries)}}, nil
}

// decideStep runs one dated step of the calendar for one application, from the step's time on;
// a step that does not concern the application, or that it has had, changes nothing.
//
//   - deduct: a winner pays the frozen price and fee and the postage from available cash; without
//     the postage available it is unpaid.
//   - refund: a loser gets the price back and the fee is kept; an unpaid winner is waived the same
//     way (the published rule: unpaid by the refund day gives the allotment up).
//   - allot: a paid winner's shares arrive in the member's shares account.
func decideStep(a *application, appNo string, l commands.Ledger, available decimal.Decimal, is issueFacts, step string, now time.Time) ([]events.Payload, error) {
	if !slices.Contains(ipo.Steps[1:], step) {
		return nil, commands.Invalid(commands.KeyInvalidRequest)
	}
	if a == nil || a.issueID != is.ev.IssueID {
		return nil, commands.NotFound(KeyNotFound)
	}
	if !is.drawn {
		return nil, nil
	}
	if now.Before(is.cal.At(step)) {
		return nil, commands.Rule(KeyNotStarted)
	}
	won, c := is.won(appNo), is.currency
	switch step {
	case ipo.StepDeduct:
		if !won || a.paid || a.unpaid {
			return nil, nil
		}
		postage := is.ev.Postage
		if available.LessThan(postage) {
			return []events.Payload{events.SubscriptionUnpaid{IssueID: a.issueID, ApplicationNo: appNo, Due: postage, Available: available}}, nil
		}
		ps := events.Transfer(l.Frozen, events.HouseSubscriptionClearing, c, a.amount)
		ps = append(ps, nonZero(events.Transfer(l.Frozen, events.HouseFeesRevenue, c, a.fee))...)
		ps = append(ps, nonZero(events.Transfer(l.Available, events.HouseFeesRevenue, c, postage))...)
		return []events.Payload{events.SubscriptionPaid{IssueID: a.issueID, ApplicationNo: appNo, Amount: a.amount, Fee: a.fee,
			Postage: postage, Postings: ps}}, nil
	case ipo.StepRefund:
		if a.refunded || won && !a.unpaid {
			return nil, nil
		}
		ps := append(events.Transfer(l.Frozen, l.Available, c, a.amount), nonZero(events.Transfer(l.Frozen, events.HouseFeesRevenue, c, a.fee))...)
		return []events.Payload{events.SubscriptionRefunded{IssueID: a.issueID, ApplicationNo: appNo, Amount: a.amount, Fee: a.fee,
			Waived: won, Postings: ps}}, nil
	case ipo.StepAllot:
		if !a.paid || a.allotted {
			return nil, nil
		}
		sec := events.Security(is.ev.Market, is.ev.Symbol)
		return []events.Payload{events.SubscriptionAllotted{IssueID: a.issueID, ApplicationNo: appNo, Symbol: is.ev.Symbol, Name: is.ev.Name,
			Security: sec, Shares: a.shares, Price: is.ev.Price, Basis: a.amount, PaidDate: is.ev.DeductionDate, ListingDate: is.ev.ListingDate,
			Postings: events.TransferShares(events.HouseSubscriptionShares, events.MemberAccount(l.MemberID, events.KindShares), sec, a.shares)}}, nil
	}
	return nil, nil
}

// nonZero drops a transfer of nothing (a zero fee): a posting of zero is refused.
func nonZero(ps []events.Posting) []events.Posting {
	if ps[0].Amount.IsZero() {
		return nil
	}
	return ps
}
