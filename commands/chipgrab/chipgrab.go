// Package chipgrab is chip grabbing (搶籌) on the write side: a first-come quota of lots at a fixed
// price. The quota lives on the offering's stream (chipgrab-<id>), so that every claim is an
// append there with the expected version: two members can never both take the last lots. The
// member's cash is frozen on the member's account stream. See events/chipgrab_events.go.
//
// A claim is three steps, each a command on one stream with an id derived from the claim's own:
// take the lots (offering), freeze the cash (account), and, when the member cannot pay, give the
// lots back (offering). The member's request runs them in turn and answers with the outcome; a
// retried request (same Idempotency-Key) replays what is done and finishes the rest; and ops'
// allotment finishes every claim a request left half way before it fills the paid ones. That is
// why there is no process manager: every step's id follows from the claim, so whoever runs a step
// again (a retry, the allotment) applies it once, and nothing waits on a feed to answer a member.
package chipgrab

import (
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"

	"github.com/lotbook/lotbook/commands"
	"github.com/lotbook/lotbook/commands/rules/block"
	"github.com/lotbook/lotbook/commands/rules/fees"
	"github.com/lotbook/lotbook/commands/rules/money"
	"github.com/lotbook/lotbook/commands/rules/quota"
	"github.com/lotbook/lotbook/events"
)

// Message keys of chip grabbing (quota refusals come from commands/rules/quota).
const (
	KeyNotFound    = "chipgrab_not_found"
	KeyClosed      = "chipgrab_closed"
	KeyLotsInvalid = "lots_invalid"
	KeyTimeInvalid = "block_time_invalid"
)

const (
	twd         = commands.TWD
	centPlaces  = 2
	orderPrefix = "G"
	// maxLots bounds an offering's quota and a member's cap.
	maxLots = 100_000
)

// claim is one claim as the offering knows it.
type claim struct {
	memberID, request string
	lots              int64
	released          bool
}

// offering is the offering's aggregate (stream chipgrab-<id>).
type offering struct {
	offered   *events.ChipGrabOffered
	remaining int64
	claims    map[string]*claim // order no -> claim
	order     []string          // order nos in claim order
	allotting bool
}

func init() {
	commands.RegisterStreams(events.ChipGrabStream(""), func(string) commands.State { return &offering{claims: map[string]*claim{}} })
}

// Apply evolves the offering.
func (o *offering) Apply(_ events.RecordedEvent, p events.Payload) {
	switch e := p.(type) {
	case events.ChipGrabOffered:
		o.offered, o.remaining = &e, e.QuotaLots
	case events.ChipGrabClaimed:
		o.claims[e.OrderNo] = &claim{memberID: e.MemberID, request: e.RequestCommand, lots: e.Lots}
		o.order = append(o.order, e.OrderNo)
		o.remaining = e.RemainingLots
	case events.ChipGrabClaimReleased:
		if c := o.claims[e.OrderNo]; c != nil {
			c.released = true
		}
		o.remaining = e.RemainingLots
	case events.ChipGrabAllotmentStarted:
		o.allotting = true
	}
}

// open tells whether the offering takes claims at now.
func (o *offering) open(now time.Time) bool {
	return o.offered != nil && !o.allotting && !now.Before(o.offered.OpensAt) && now.Before(o.offered.ClosesAt)
}

// held is the member's lots in claims that were not given back.
func (o *offering) held(memberID string) int64 {
	var n int64
	for _, c := range o.claims {
		if c.memberID == memberID && !c.released {
			n += c.lots
		}
	}
	return n
}

// Claim outcomes on the member's account.
const (
	claimFrozen   = "frozen"
	claimRefused  = "refused"
	claimAllotted = "allotted"
)

// accountClaim is one claim as the member's account knows it.
type accountClaim struct {
	events.ChipGrabFrozen // only OrderNo and OfferingID when refused
	status, reason        string
}

// claims is the account's part of chip grabbing: its claims' outcomes by order number.
type claims struct {
	byNo map[string]*accountClaim
}

var claimsPart = commands.RegisterAccountPart("chipgrab", func(commands.Ledger) *claims {
	return &claims{byNo: map[string]*accountClaim{}}
})

// Apply evolves the account's claims.
func (c *claims) Apply(_ events.RecordedEvent, p events.Payload) {
	switch e := p.(type) {
	case events.ChipGrabFrozen:
		c.byNo[e.OrderNo] = &accountClaim{ChipGrabFrozen: e, status: claimFrozen}
	case events.ChipGrabFreezeRefused:
		c.byNo[e.OrderNo] = &accountClaim{ChipGrabFrozen: events.ChipGrabFrozen{OrderNo: e.OrderNo, OfferingID: e.OfferingID}, status: claimRefused,
			reason: e.Reason}
	case events.ChipGrabAllotted:
		if a := c.byNo[e.OrderNo]; a != nil {
			a.status = claimAllotted
		}
	}
}

// HoldsOrder keeps the account's new order numbers off its claims' numbers.
func (c *claims) HoldsOrder(no string) bool { return c.byNo[no] != nil }

// OfferInput is ops' offering form.
type OfferInput struct {
	Symbol, Price               string
	QuotaLots, MaxLotsPerMember int64
	OpensAt, ClosesAt           time.Time
}

// offeringID is the id of the offering a command creates, derived from its command id.
func offeringID(commandID string) string {
	return uuid.NewSHA1(offeringNamespace, []byte(commandID)).String()
}

var offeringNamespace = uuid.MustParse("8e3b2d71-4c6a-4f0e-9b15-2a7d9c4e6f08")

// decideOffer opens an offering at a price inside the day's band.
func decideOffer(o *offering, id string, in OfferInput, q commands.ListingQuote, now time.Time) ([]events.Payload, error) {
	if o.offered != nil {
		return nil, commands.KeyReused()
	}
	switch {
	case q.Symbol == "":
		return nil, commands.NotFound(commands.KeySymbolNotFound)
	case in.QuotaLots < 1 || in.QuotaLots > maxLots || in.MaxLotsPerMember < 1 || in.MaxLotsPerMember > in.QuotaLots:
		return nil, commands.Invalid(KeyLotsInvalid)
	case !in.ClosesAt.After(in.OpensAt) || !in.ClosesAt.After(now):
		return nil, commands.Invalid(KeyTimeInvalid)
	}
	price, err := money.ParseDecimal(in.Price, centPlaces)
	if err != nil {
		return nil, commands.Invalid(commands.KeyPriceInvalid)
	}
	if k := block.CheckPrice(price, q.LimitDown, q.LimitUp); k != "" {
		return nil, commands.Rule(k)
	}
	return []events.Payload{events.ChipGrabOffered{OfferingID: id, Symbol: q.Symbol, Name: q.Name, Kind: q.Kind.String(), Price: price,
		QuotaLots: in.QuotaLots, MaxLotsPerMember: in.MaxLotsPerMember, OpensAt: in.OpensAt.UTC(), ClosesAt: in.ClosesAt.UTC()}}, nil
}

// cost is what lots at price freeze: the amount and the board-lot commission.
func cost(price decimal.Decimal, lots int64) decimal.Decimal {
	amount, commission := commands.Purchase{Price: price, Shares: lots * fees.BoardLot}.Cost()
	return amount.Add(commission)
}

// decideClaim takes lots of the quota for the member, first come first served.
func decideClaim(o *offering, memberID string, lots int64, orderNo, request string, now time.Time) ([]events.Payload, error) {
	if o.offered == nil {
		return nil, commands.NotFound(KeyNotFound)
	}
	if !o.open(now) {
		return nil, commands.Rule(KeyClosed)
	}
	if k := quota.Claim(o.remaining, lots, o.held(memberID), o.offered.MaxLotsPerMember); k != "" {
		return nil, commands.Rule(k)
	}
	return []events.Payload{events.ChipGrabClaimed{OfferingID: o.offered.OfferingID, OrderNo: orderNo, MemberID: memberID, Lots: lots,
		RemainingLots: o.remaining - lots, RequestCommand: request}}, nil
}

// decideFreeze freezes a claim's cost on the member's account, or records that the member cannot
// pay (a refusal of trading or too little cash); a claim decided before changes nothing.
func decideFreeze(a *commands.Account, off events.ChipGrabOffered, orderNo string, lots int64, refusal *commands.Error) []events.Payload {
	if claimsPart.Of(a).byNo[orderNo] != nil {
		return nil
	}
	amount := cost(off.Price, lots)
	reason := ""
	switch {
	case refusal != nil:
		reason = refusal.Key
	case amount.GreaterThan(a.Balances[twd].Available):
		reason = commands.KeyInsufficientBalance
	}
	if reason != "" {
		return []events.Payload{events.ChipGrabFreezeRefused{OrderNo: orderNo, OfferingID: off.OfferingID, Reason: reason}}
	}
	return []events.Payload{events.ChipGrabFrozen{OrderNo: orderNo, OfferingID: off.OfferingID, Symbol: off.Symbol, Name: off.Name,
		Kind: off.Kind, Price: off.Price, Lots: lots, Shares: lots * fees.BoardLot, Amount: amount,
		Postings: events.Transfer(a.Available, a.Frozen, twd, amount)}}
}

// decideRelease gives a claim the member could not pay for back to the quota; once only.
func decideRelease(o *offering, orderNo, reason string) []events.Payload {
	c := o.claims[orderNo]
	if c == nil || c.released {
		return nil
	}
	return []events.Payload{events.ChipGrabClaimReleased{OfferingID: o.offered.OfferingID, OrderNo: orderNo, MemberID: c.memberID,
		Lots: c.lots, RemainingLots: quota.Release(o.remaining, c.lots, o.offered.QuotaLots), Reason: reason}}
}

// decideAllot fills a frozen claim at the offering's price: the frozen cost comes back to
// available and the purchase (trading's OrderPlaced and OrderFilled, By chipgrab) pays from it.
func decideAllot(a *commands.Account, orderNo string, now time.Time) []events.Payload {
	c := claimsPart.Of(a).byNo[orderNo]
	if c == nil || c.status != claimFrozen {
		return nil
	}
	return append([]events.Payload{events.ChipGrabAllotted{OrderNo: orderNo, OfferingID: c.OfferingID, Lots: c.Lots, Price: c.Price,
		Released: c.Amount, Postings: events.Transfer(a.Frozen, a.Available, twd, c.Amount)}},
		commands.Bought(a, commands.Purchase{OrderNo: orderNo, Symbol: c.Symbol, Name: c.Name, Kind: c.Kind, By: events.OrderByChipGrab,
			Price: c.Price, Shares: c.Shares}, now)...)
}
