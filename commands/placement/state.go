// Package placement is the placement and inquiry subscription (詢圈配售) on the write side: ops
// offer a placement on its own stream (placement-<id>) at a fixed price with a per-member lot cap
// and the SHA-256 of a secret seed; members apply on their account streams (the whole amount
// frozen); after the window ops trigger the allotment, which the offering process
// (commands/process/offering) computes by the published rule (commands/rules/allot: pro rata in
// whole shares, the remainder by the revealed seed), then settles each application (the allotted
// shares paid, the rest refunded) and delivers the shares on the listing date.
package placement

import (
	"time"

	"github.com/shopspring/decimal"

	"github.com/lotbook/lotbook/commands"
	"github.com/lotbook/lotbook/commands/process/offering"
	"github.com/lotbook/lotbook/commands/rules/ipo"
	"github.com/lotbook/lotbook/events"
)

// placement is the aggregate of a placement's stream.
type placement struct {
	offering.Stream[events.PlacementOffered] // Grants: application number -> shares allotted
	requested                                bool
}

func init() {
	commands.RegisterStreams(events.PlacementStream(""), func(string) commands.State { return &placement{} })
}

func (s *placement) Apply(_ events.RecordedEvent, p events.Payload) {
	switch e := p.(type) {
	case events.PlacementOffered:
		s.List(e)
	case events.PlacementSeedCommitted:
		s.Commit(e.OfferingSeed)
	case events.PlacementAllotmentRequested:
		s.requested = true
	case events.PlacementAllotted:
		s.Result(e.Grants)
	}
}

// facts is what an account's decision reads of a placement: a copy of its stream's state taken
// under the stream's lock, with its calendar (the window and the listing date; the allotment has
// no date: ops trigger it).
type facts struct {
	offering.Stream[events.PlacementOffered]
	cal ipo.Calendar
}

func (s *placement) facts() facts {
	return facts{Stream: s.Stream, cal: offering.Calendar(s.Ev.OfferingTerms, s.Ev.ListingDate)}
}

// application is one of the member's applications as the account part keeps it.
type application struct {
	placementID   string
	shares        int64
	price, amount decimal.Decimal
	settled       bool
	allotted      int64
	cost          decimal.Decimal
	paidDay       string // YYYY-MM-DD (Asia/Taipei) the allotment was paid
	delivered     bool
}

// applications is the account's part of the placement.
type applications struct {
	byNo map[string]*application
	lots map[string]int64 // placement id -> lots applied for in all (the per-member cap)
}

var applicationsPart = commands.RegisterAccountPart("placement", func(commands.Ledger) *applications {
	return &applications{byNo: map[string]*application{}, lots: map[string]int64{}}
})

func (s *applications) Apply(r events.RecordedEvent, p events.Payload) {
	switch e := p.(type) {
	case events.PlacementApplied:
		s.byNo[e.ApplicationNo] = &application{placementID: e.PlacementID, shares: e.Shares, price: e.Price, amount: e.Amount}
		s.lots[e.PlacementID] += e.Lots
	case events.PlacementSettled:
		if a := s.byNo[e.No]; a != nil {
			a.settled, a.allotted, a.cost = true, e.Shares, e.Cost
			a.paidDay = r.Metadata.ServerTime.In(ipo.Taipei).Format(time.DateOnly)
		}
	case events.PlacementDelivered:
		if a := s.byNo[e.No]; a != nil {
			a.delivered = true
		}
	}
}

// HoldsOrder implements commands.OrderHolder: application numbers are the account's order numbers.
func (s *applications) HoldsOrder(no string) bool { return s.byNo[no] != nil }

// NotYetTradable implements commands.PendingHolding: allotted and paid shares cannot be sold
// before they are delivered on the listing date.
func (s *applications) NotYetTradable(positionID string, _ time.Time) (string, bool) {
	if a := s.byNo[positionID]; a != nil && a.allotted > 0 && !a.delivered {
		return KeyNotYetListingTime, true
	}
	return "", false
}

// memberPart is what an application checks of the member.
var memberPart = commands.RegisterMemberPart("placement", offering.NewMember)
