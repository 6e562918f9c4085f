package auction

import (
	"context"
	"time"

	"github.com/shopspring/decimal"

	"github.com/lotbook/lotbook/commands"
	"github.com/lotbook/lotbook/commands/process/offering"
	"github.com/lotbook/lotbook/commands/rules/ipo"
	"github.com/lotbook/lotbook/commands/rules/money"
	"github.com/lotbook/lotbook/events"
)

// SeedDomain separates the auction's seeds from every other keyed hash of the server's key.
const SeedDomain = "auction-award-seed"

// Commands are the auction's commands over the kernel.
type Commands struct {
	k     *commands.Service
	seeds offering.Seeds
}

// New returns the auction's commands over the kernel k, with the auctions' seeds.
func New(k *commands.Service, seeds offering.Seeds) *Commands { return &Commands{k: k, seeds: seeds} }

// Open returns the auction's commands over the kernel k, with the seeds of its secret key.
func Open(k *commands.Service) *Commands { return New(k, offering.KernelSeeds(k, SeedDomain)) }

// The auction's offering process runs with every stack.
func init() {
	offering.Register(ProcessName, func(k *commands.Service) offering.Spec { return Open(k).Spec() })
}

// List is ops' listing of an auction; decimals are strings as typed (DepositRate in per cent).
type List struct {
	offering.Terms
	Lots, MaxLotsPerBidder int64
	MinPrice, DepositRate  string
	AwardDate              string
}

// Listed answers List.
type Listed struct {
	AuctionID, Commitment, Algorithm string
	Position                         int64
}

// maxDepositRate: a deposit above the bid would freeze more than the bid can cost.
var maxDepositRate = decimal.NewFromInt(100)

// validateList turns ops' form into the listing event, or the first refusal.
func validateList(in List) (events.AuctionListed, error) {
	var e events.AuctionListed
	t, err := offering.ValidTerms(in.Terms, in.AwardDate)
	if err != nil {
		return e, err
	}
	minPrice, err := offering.Price(in.MinPrice)
	if err != nil {
		return e, err
	}
	rate, err := money.ParseDecimal(in.DepositRate, 2)
	if err != nil || !rate.IsPositive() || rate.GreaterThan(maxDepositRate) {
		return e, commands.Invalid(KeyDepositRateInvalid)
	}
	if err := offering.Lots(in.Lots); err != nil {
		return e, err
	}
	if err := offering.Lots(in.MaxLotsPerBidder); err != nil || in.MaxLotsPerBidder > in.Lots {
		return e, commands.Invalid(commands.KeyQuantityInvalid)
	}
	return events.AuctionListed{OfferingTerms: t, Lots: in.Lots, MinPrice: minPrice, MaxLotsPerBidder: in.MaxLotsPerBidder,
		DepositRate: rate.Div(maxDepositRate), AwardDate: in.AwardDate}, nil
}

// List lists an auction and commits to its seed.
func (s *Commands) List(ctx context.Context, meta commands.Meta, in List) (Listed, error) {
	c, err := s.k.Begin(meta, "auction.list")
	if err != nil {
		return Listed{}, err
	}
	e, err := validateList(in)
	if err != nil {
		return Listed{}, err
	}
	seed, pos, err := offering.List(ctx, s.k, c, s.seeds, e.OfferingID, events.AuctionStream(e.OfferingID),
		func(st *auction, seed events.OfferingSeed) ([]events.Payload, error) { return decideList(st, e, seed) })
	if err != nil {
		return Listed{}, err
	}
	return Listed{AuctionID: seed.OfferingID, Commitment: seed.Commitment, Algorithm: seed.Algorithm, Position: pos}, nil
}

// Bid is a member's bid.
type Bid struct {
	MemberID, AuctionID, Price string
	Lots                       int64
}

// Placed answers Bid: the bid and the member's cash right after it.
type Placed struct {
	BidNo    string
	Deposit  decimal.Decimal
	Position int64
	Cash     commands.Balance
}

func (s *Commands) facts(ctx context.Context, id string) (facts, error) {
	return commands.View(ctx, s.k, events.AuctionStream(id), func(st *auction, _ *commands.Entry) facts { return st.facts() })
}

// Bid places a bid, freezing its deposit.
func (s *Commands) Bid(ctx context.Context, meta commands.Meta, in Bid) (Placed, error) {
	c, err := s.k.Begin(meta, "auction.bid")
	if err != nil {
		return Placed{}, err
	}
	if err := offering.Lots(in.Lots); err != nil {
		return Placed{}, err
	}
	price, err := offering.Price(in.Price)
	if err != nil {
		return Placed{}, err
	}
	if err := offering.Entrant(in.MemberID, in.AuctionID); err != nil {
		return Placed{}, err
	}
	e, err := offering.Enter(ctx, s.k, c, in.MemberID, bidPrefix, memberPart, func(a *commands.Account, m offering.Member, no string) ([]events.Payload, error) {
		f, err := s.facts(ctx, in.AuctionID)
		if err != nil {
			return nil, err
		}
		return decideBid(bidsPart.Of(a), a.Ledger, a.Balances[f.Ev.Currency], m, f, price, in.Lots, c.Now, no)
	}, func(p events.Payload) string {
		e, _ := p.(events.AuctionBidPlaced)
		return e.BidNo
	})
	if err != nil {
		return Placed{}, err
	}
	out := Placed{BidNo: e.No, Position: e.Position, Cash: e.Cash}
	for _, p := range e.Payloads {
		if b, ok := p.(events.AuctionBidPlaced); ok {
			out.Deposit = b.Deposit
		}
	}
	return out, nil
}

// Award reveals the auction's seed and awards the bids the process folded (entries, in number
// order), each read from its member's account stream.
func (s *Commands) Award(ctx context.Context, meta commands.Meta, auctionID string, entries []offering.Entry) (commands.Result, error) {
	return offering.Resolve(ctx, s.k, meta, "auction.award", s.seeds, auctionID, events.AuctionStream, entries,
		func(a *commands.Account, e offering.Entry) (events.AuctionBid, bool) {
			b := bidsPart.Of(a).byNo[e.No]
			if b == nil || b.auctionID != auctionID {
				return events.AuctionBid{}, false
			}
			return events.AuctionBid{No: e.No, Price: b.price, Lots: b.lots}, true
		},
		func(st *auction, seed string, in []events.AuctionBid, now time.Time) ([]events.Payload, error) {
			return decideAward(st, seed, in, offering.Entrants(entries), now)
		})
}

// Settle settles one bid after the award.
func (s *Commands) Settle(ctx context.Context, meta commands.Meta, e offering.Entry) (commands.Result, error) {
	return offering.Step(ctx, s.k, meta, "auction.settle", e, s.facts, func(a *commands.Account, f facts, _ time.Time) ([]events.Payload, error) {
		return decideSettle(bidsPart.Of(a).byNo[e.No], e.No, a.Ledger, a.Balances[f.Ev.Currency].Available, f)
	})
}

// Deliver delivers one paid bid's shares on the listing date.
func (s *Commands) Deliver(ctx context.Context, meta commands.Meta, e offering.Entry) (commands.Result, error) {
	return offering.Step(ctx, s.k, meta, "auction.deliver", e, s.facts, func(a *commands.Account, f facts, now time.Time) ([]events.Payload, error) {
		return decideDeliver(bidsPart.Of(a).byNo[e.No], e.No, a.Ledger, f, now)
	})
}

// ProcessName names the auction's process: checkpoint, metrics, command ids.
const ProcessName = "auction-award"

// Spec is the auction for the offering process: the award due on the award date, then each
// bid's settlement, then each paid bid's delivery on the listing date.
func (s *Commands) Spec() offering.Spec {
	return offering.Spec{Name: ProcessName, Prefix: "Auction", Fold: fold, Result: s.Award, Steps: offering.SettleThenDeliver(s.Settle, s.Deliver)}
}

// fold is what the auction's events mean to the process.
func fold(p events.Payload) offering.Fact {
	switch e := p.(type) {
	case events.AuctionListed:
		cal := offering.Calendar(e.OfferingTerms, e.AwardDate)
		return offering.Fact{Kind: offering.Offered, Offering: e.OfferingID, ResultAt: cal.At(ipo.StepDraw),
			At: map[string]time.Time{offering.Delivered: cal.ListingStart()}}
	case events.AuctionBidPlaced:
		return offering.Fact{Kind: offering.Entered, Offering: e.AuctionID, No: e.BidNo}
	case events.AuctionAwarded:
		return offering.Fact{Kind: offering.Resulted, Offering: e.AuctionID}
	case events.AuctionSettled:
		return offering.Fact{Kind: offering.Done, Step: offering.Settled, Offering: e.OfferingID, No: e.No, Paid: e.Shares > 0}
	case events.AuctionForfeited:
		return offering.Fact{Kind: offering.Done, Step: offering.Settled, Offering: e.AuctionID, No: e.BidNo}
	case events.AuctionDelivered:
		return offering.Fact{Kind: offering.Done, Step: offering.Delivered, Offering: e.OfferingID, No: e.No}
	}
	return offering.Fact{}
}
