// Package subscription is the new-share subscription lottery (公開申購抽籤) on the write side:
// ops list an issue on its own stream (ipo-<issue id>) with its calendar and the SHA-256 of the
// draw's secret seed; members apply on their account streams (the price and the processing fee
// frozen); the offering process (commands/process/offering, as the auction's and the
// placement's) runs the calendar's steps: the draw after the window (the seed revealed), the
// winners' deduction, the refunds, the allotment on the listing date. `lotbook draw verify` and
// the auditor re-run the draw from the log (Verify).
//
// The seed of an issue is the HMAC of its id under the server's secret key (offering.Seeds), so
// it is not in the log before the draw, cannot be chosen after the applications are seen, and is
// the same on every instance.
package subscription

import (
	"time"

	"github.com/shopspring/decimal"

	"github.com/lotbook/lotbook/commands"
	"github.com/lotbook/lotbook/commands/process/offering"
	"github.com/lotbook/lotbook/commands/rules/ipo"
	"github.com/lotbook/lotbook/events"
)

// issue is the aggregate of an issue's stream.
type issue struct {
	listed     bool
	ev         events.SubscriptionIssueListed
	commitment string
	drawn      bool
	winners    map[string]bool
}

func init() {
	commands.RegisterStreams(events.SubscriptionStream(""), func(string) commands.State { return &issue{} })
}

func (s *issue) Apply(_ events.RecordedEvent, p events.Payload) {
	switch e := p.(type) {
	case events.SubscriptionIssueListed:
		s.listed, s.ev = true, e
	case events.SubscriptionSeedCommitted:
		s.commitment = e.Commitment
	case events.SubscriptionDrawn:
		s.drawn, s.winners = true, map[string]bool{}
		for _, w := range e.Winners {
			s.winners[w] = true
		}
	}
}

func (s *issue) calendar() ipo.Calendar {
	return ipo.Calendar{OpensAt: s.ev.OpensAt, ClosesAt: s.ev.ClosesAt, DrawDate: s.ev.DrawDate,
		DeductionDate: s.ev.DeductionDate, RefundDate: s.ev.RefundDate, ListingDate: s.ev.ListingDate}
}

// issueFacts is what an account's decision reads of an issue (a copy, taken under the issue
// stream's lock).
type issueFacts struct {
	listed   bool
	ev       events.SubscriptionIssueListed
	cal      ipo.Calendar
	drawn    bool
	won      func(applicationNo string) bool
	currency string
}

func (s *issue) facts() issueFacts {
	winners := s.winners
	return issueFacts{listed: s.listed, ev: s.ev, cal: s.calendar(), drawn: s.drawn, currency: s.ev.Currency,
		won: func(no string) bool { return winners[no] }}
}

// application is one of the member's applications as the account part keeps it.
type application struct {
	issueID     string
	shares      int64
	amount, fee decimal.Decimal
	paid        bool
	unpaid      bool
	refunded    bool
	allotted    bool
	listingDate string
}

// applications is the account's part of the subscription: the member's applications.
type applications struct {
	byNo    map[string]*application
	byIssue map[string]string // issue id -> application number
}

var applicationsPart = commands.RegisterAccountPart("subscription", func(commands.Ledger) *applications {
	return &applications{byNo: map[string]*application{}, byIssue: map[string]string{}}
})

func (s *applications) Apply(_ events.RecordedEvent, p events.Payload) {
	switch e := p.(type) {
	case events.SubscriptionApplied:
		s.byNo[e.ApplicationNo] = &application{issueID: e.IssueID, shares: e.Shares, amount: e.Amount, fee: e.Fee}
		s.byIssue[e.IssueID] = e.ApplicationNo
	case events.SubscriptionPaid:
		if a := s.byNo[e.ApplicationNo]; a != nil {
			a.paid = true
		}
	case events.SubscriptionUnpaid:
		if a := s.byNo[e.ApplicationNo]; a != nil {
			a.unpaid = true
		}
	case events.SubscriptionRefunded:
		if a := s.byNo[e.ApplicationNo]; a != nil {
			a.refunded = true
		}
	case events.SubscriptionAllotted:
		if a := s.byNo[e.ApplicationNo]; a != nil {
			a.allotted, a.listingDate = true, e.ListingDate
		}
	}
}

// HoldsOrder implements commands.OrderHolder: application numbers are the account's order numbers.
func (s *applications) HoldsOrder(no string) bool { return s.byNo[no] != nil }

// NotYetTradable implements commands.PendingHolding: a paid application's shares are the member's
// but cannot be sold before they are allotted on the listing date.
func (s *applications) NotYetTradable(positionID string, _ time.Time) (string, bool) {
	if a := s.byNo[positionID]; a != nil && a.paid && !a.allotted {
		return KeyNotYetListingTime, true
	}
	return "", false
}

// memberPart is what an application checks of the member.
var memberPart = commands.RegisterMemberPart("subscription", offering.NewMember)
