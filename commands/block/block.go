// Package block is block trading (鉅額交易, agreement bidding) on the write side: a block's own
// stream (blocktrade-<id>) holds its listing; a member's applications are the account part
// blockApps, decided on the account stream next to the cash they freeze, so the daily cap and
// the review of one application are serialised there. See events/block_events.go.
package block

import (
	"fmt"
	"regexp"
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"

	"github.com/lotbook/lotbook/commands"
	"github.com/lotbook/lotbook/commands/rules/block"
	"github.com/lotbook/lotbook/commands/rules/fees"
	"github.com/lotbook/lotbook/commands/rules/money"
	"github.com/lotbook/lotbook/events"
)

// Message keys of block trades.
const (
	KeyBlockNotFound      = "block_not_found"
	KeyBlockClosed        = "block_closed"
	KeyBlockPasswordWrong = "block_password_wrong"
	KeyPremiumInvalid     = "premium_invalid"
	KeyBlockTimeInvalid   = "block_time_invalid"
	KeyLotsInvalid        = "lots_invalid"
	KeyBlockSizeTooSmall  = block.SizeTooSmall
	KeyBlockOverTotal     = block.OverTotal
	KeyBlockPasswordLock  = block.PasswordLocked
)

// twd is the currency of the Taiwan market; centPlaces the decimals of a price.
const (
	twd        = commands.TWD
	centPlaces = 2
)

// blockOrderPrefix begins the numbers of block applications (and of the positions they open).
const blockOrderPrefix = "B"

// maxBlockLots bounds the lots of one application and a block's minimum and daily cap: far above
// any real block (1h: 500 units make a block), far below what an int64 amount could overflow.
const maxBlockLots = 100_000

// blockState is a block's aggregate (stream blocktrade-<id>).
type blockState struct {
	listed *events.BlockListed
	closed bool
	taken  map[string]int64 // order no -> lots taken out of the total (returned ones removed)
	given  map[string]bool  // order nos whose lots went back
	filled int64            // lots taken and not returned
}

func init() {
	commands.RegisterStreams(events.BlockStream(""), func(string) commands.State {
		return &blockState{taken: map[string]int64{}, given: map[string]bool{}}
	})
}

// Apply evolves the block.
func (b *blockState) Apply(_ events.RecordedEvent, p events.Payload) {
	switch e := p.(type) {
	case events.BlockListed:
		b.listed = &e
	case events.BlockClosed:
		b.closed = true
	case events.BlockLotsTaken:
		b.taken[e.OrderNo] = e.Lots
		b.filled += e.Lots
	case events.BlockLotsReturned:
		b.filled -= b.taken[e.OrderNo]
		delete(b.taken, e.OrderNo)
		b.given[e.OrderNo] = true
	}
}

// remaining is the lots of the block's total that approvals have not taken (0 without a total).
func (b *blockState) remaining() int64 {
	if b.listed == nil || b.listed.TotalLots == 0 {
		return 0
	}
	return b.listed.TotalLots - b.filled
}

// open tells whether the block takes applications at now.
func (b *blockState) open(now time.Time) bool {
	return b.listed != nil && !b.closed && !now.Before(b.listed.OpensAt) && now.Before(b.listed.ClosesAt)
}

// blockApp is one application of the member's account.
type blockApp struct {
	events.BlockApplied
	status string
}

// blockApps is the account's part of block trading: its applications by order number.
type blockApps struct {
	apps     map[string]*blockApp
	failures map[string]int // blockID + " " + Taipei day -> wrong block passwords that day
}

var blockPart = commands.RegisterAccountPart("block", func(commands.Ledger) *blockApps {
	return &blockApps{apps: map[string]*blockApp{}, failures: map[string]int{}}
})

func failureKey(blockID, day string) string { return blockID + " " + day }

// Apply evolves the account's applications.
func (b *blockApps) Apply(_ events.RecordedEvent, p events.Payload) {
	switch e := p.(type) {
	case events.BlockApplied:
		b.apps[e.OrderNo] = &blockApp{BlockApplied: e, status: events.ReviewPending}
	case events.BlockApplicationApproved:
		if a := b.apps[e.OrderNo]; a != nil {
			a.status = events.ReviewApproved
		}
	case events.BlockApplicationRejected:
		if a := b.apps[e.OrderNo]; a != nil {
			a.status = events.ReviewRejected
		}
	case events.BlockPasswordRejected:
		b.failures[failureKey(e.BlockID, e.Day)] = e.Attempt
	}
}

// HoldsOrder keeps the account's new order numbers off its applications' numbers.
func (b *blockApps) HoldsOrder(no string) bool { return b.apps[no] != nil }

// appliedOn is the member's lots in applications to a block on a Taipei day that were not
// rejected: what the daily cap counts.
func (b *blockApps) appliedOn(blockID, day string) int64 {
	var n int64
	for _, a := range b.apps {
		if a.BlockID == blockID && a.Day == day && a.status != events.ReviewRejected {
			n += a.Lots
		}
	}
	return n
}

// ListBlockInput is ops' listing form. Exactly one of Price and PremiumPercent is set (decimal
// strings; the premium in percent, two decimals at most, negative for a discount); Password is
// empty for a block open to every member.
type ListBlockInput struct {
	Symbol, Price, PremiumPercent, Password string
	MinLots, DailyCapLots, TotalLots        int64
	OpensAt, ClosesAt                       time.Time
}

// percentPattern is a premium in percent as typed: an optional minus, at most two integer digits
// and two decimals.
var percentPattern = regexp.MustCompile(`^-?[0-9]{1,2}(\.[0-9]{1,2})?$`)

// blockPrice is the listing's price and premium rate: the given price, or the premium on the
// reference, each checked against the rules of 1h.
func blockPrice(in ListBlockInput, q commands.ListingQuote) (price, rate decimal.Decimal, e *commands.Error) {
	switch {
	case (in.Price == "") == (in.PremiumPercent == ""):
		return price, rate, commands.Invalid(commands.KeyPriceRequired)
	case in.Price != "":
		p, err := money.ParseDecimal(in.Price, centPlaces)
		if err != nil {
			return price, rate, commands.Invalid(commands.KeyPriceInvalid)
		}
		price = p
	default:
		if !percentPattern.MatchString(in.PremiumPercent) {
			return price, rate, commands.Invalid(KeyPremiumInvalid)
		}
		rate = decimal.RequireFromString(in.PremiumPercent).Shift(-2)
		if k := block.CheckPremium(rate); k != "" {
			return price, rate, commands.Invalid(k)
		}
		price = block.PriceFromPremium(q.Reference, rate)
	}
	if k := block.CheckPrice(price, q.LimitDown, q.LimitUp); k != "" {
		return price, rate, commands.Rule(k)
	}
	return price, rate, nil
}

// decideListBlock lists a block with the password's hash ("" for none).
func decideListBlock(b *blockState, id string, in ListBlockInput, q commands.ListingQuote, hash string, now time.Time) ([]events.Payload, error) {
	if b.listed != nil {
		return nil, commands.KeyReused()
	}
	switch {
	case q.Symbol == "" || !q.Reference.IsPositive():
		return nil, commands.NotFound(commands.KeySymbolNotFound)
	case in.MinLots < 1 || in.DailyCapLots < in.MinLots || in.TotalLots < in.DailyCapLots || in.TotalLots > maxBlockLots:
		return nil, commands.Invalid(KeyLotsInvalid)
	case !in.ClosesAt.After(in.OpensAt) || !in.ClosesAt.After(now):
		return nil, commands.Invalid(KeyBlockTimeInvalid)
	}
	price, rate, e := blockPrice(in, q)
	if e != nil {
		return nil, e
	}
	if k := block.CheckSize(in.TotalLots, price); k != "" {
		return nil, commands.Rule(k)
	}
	return []events.Payload{events.BlockListed{BlockID: id, Symbol: q.Symbol, Name: q.Name, Kind: q.Kind.String(),
		ReferencePrice: q.Reference, PremiumRate: rate, Price: price, MinLots: in.MinLots, DailyCapLots: in.DailyCapLots,
		PasswordHash: hash, OpensAt: in.OpensAt.UTC(), ClosesAt: in.ClosesAt.UTC(), TotalLots: in.TotalLots}}, nil
}

// blockID is the id of the block a listing command creates: derived from its command id, so a
// retry lists the same block.
func blockID(commandID string) string {
	return uuid.NewSHA1(blockNamespace, []byte(commandID)).String()
}

var blockNamespace = uuid.MustParse("5f1d7c1e-2b8a-4e3f-9a6d-0c4b7e2f1a93")

// ApplyBlockInput is a member's application: lots at a bid (a price string), with the block's
// password when it has one.
type ApplyBlockInput struct {
	BlockID, Bid, Password string
	Lots                   int64
}

// blockApplication is a validated application with what its decision reads.
type blockApplication struct {
	lots     int64
	bid      decimal.Decimal
	block    events.BlockListed
	open     bool            // the block takes applications now: listed, not closed, in its dates and the block hours
	left     int64           // lots of the block's total not yet taken by approvals (read, not reserved)
	refusal  *commands.Error // the member may not trade (nil: may)
	now      time.Time
	orderNo  func(int) string
	password bool // the password matched, or the block has none
}

// validateBlockApplication checks the form's fields: lots, then the bid.
func validateBlockApplication(in ApplyBlockInput) (int64, decimal.Decimal, *commands.Error) {
	if in.Lots < 1 || in.Lots > maxBlockLots {
		return 0, decimal.Zero, commands.Invalid(KeyLotsInvalid)
	}
	bid, err := money.ParseDecimal(in.Bid, centPlaces)
	if err != nil {
		return 0, decimal.Zero, commands.Invalid(commands.KeyPriceInvalid)
	}
	return in.Lots, bid, nil
}

// decideApplyBlock freezes an application's amount after the block's checks, in the spec's
// order: the member's state, the block closed, the password (a member locked out for the day is
// refused; a wrong password is recorded, BlockPasswordRejected, and answered by passwordRefusal),
// the minimum, the daily cap, the bid, the block's total, the funds.
func decideApplyBlock(a *commands.Account, r blockApplication) ([]events.Payload, error) {
	if r.refusal != nil {
		return nil, r.refusal
	}
	if !r.open {
		return nil, commands.Rule(KeyBlockClosed)
	}
	day := r.now.In(commands.Taipei).Format(time.DateOnly)
	apps := blockPart.Of(a)
	failures := apps.failures[failureKey(r.block.BlockID, day)]
	if block.Locked(failures) {
		return nil, commands.Rule(KeyBlockPasswordLock)
	}
	if !r.password {
		return []events.Payload{events.BlockPasswordRejected{BlockID: r.block.BlockID, Day: day, Attempt: failures + 1}}, nil
	}
	if k := block.Check(block.Application{Lots: r.lots, MinLots: r.block.MinLots, DailyCapLots: r.block.DailyCapLots,
		AppliedToday: apps.appliedOn(r.block.BlockID, day), Bid: r.bid, Price: r.block.Price}); k != "" {
		return nil, commands.Rule(k)
	}
	if r.block.TotalLots > 0 && r.lots > r.left {
		return nil, commands.Rule(KeyBlockOverTotal)
	}
	shares := r.lots * fees.BoardLot
	amount := block.Freeze(r.bid, shares)
	if amount.GreaterThan(a.Balances[twd].Available) {
		return nil, commands.Rule(commands.KeyInsufficientBalance)
	}
	no := a.FreeOrderNo(r.orderNo)
	return []events.Payload{events.BlockApplied{OrderNo: no, BlockID: r.block.BlockID, Symbol: r.block.Symbol, Name: r.block.Name,
		Kind: r.block.Kind, Price: r.block.Price, Bid: r.bid, Lots: r.lots, Shares: shares, Day: day, Amount: amount,
		Postings: events.Transfer(a.Available, a.Frozen, twd, amount)}}, nil
}

// pendingBlockApp is the member's pending application orderNo, or the refusal.
func pendingBlockApp(a *commands.Account, orderNo string) (*blockApp, *commands.Error) {
	app := blockPart.Of(a).apps[orderNo]
	switch {
	case app == nil:
		return nil, commands.NotFound(commands.KeyOrderNotFound)
	case app.status != events.ReviewPending:
		return nil, commands.Rule(commands.KeyOrderNotPending)
	}
	return app, nil
}

// decideApproveBlock fills a pending application at the block's price: its frozen amount comes
// back to available and the purchase (trading's OrderPlaced and OrderFilled, By block) pays from
// there, so the holding is a position like any other and can be sold.
func decideApproveBlock(a *commands.Account, orderNo, remark string, now time.Time) ([]events.Payload, error) {
	app, e := pendingBlockApp(a, orderNo)
	if e != nil {
		return nil, e
	}
	p := commands.Purchase{OrderNo: orderNo, Symbol: app.Symbol, Name: app.Name, Kind: app.Kind, By: events.OrderByBlock,
		Price: app.Price, Shares: app.Shares}
	if amount, commission := p.Cost(); amount.Add(commission).GreaterThan(app.Amount) {
		// The freeze is at a bid not below the price: a fill that costs more is a broken invariant.
		return nil, commands.Unavailable(fmt.Errorf("block application %s: fill costs %s, %s frozen", orderNo, amount.Add(commission), app.Amount))
	}
	return append([]events.Payload{events.BlockApplicationApproved{OrderNo: orderNo, BlockID: app.BlockID, Lots: app.Lots,
		Price: app.Price, Released: app.Amount, Remark: remark, Postings: events.Transfer(a.Frozen, a.Available, twd, app.Amount)}},
		commands.Bought(a, p, now)...), nil
}

// decideTakeLots takes an application's lots out of the block's total; taking them again (a
// second approval of the same application) changes nothing.
func decideTakeLots(b *blockState, app blockApp, memberID string) ([]events.Payload, error) {
	switch {
	case b.listed == nil:
		return nil, commands.NotFound(KeyBlockNotFound)
	case b.taken[app.OrderNo] > 0 || b.given[app.OrderNo]:
		return nil, nil
	}
	remaining, k := block.Take(b.listed.TotalLots, b.filled, app.Lots)
	if k != "" {
		return nil, commands.Rule(k)
	}
	return []events.Payload{events.BlockLotsTaken{BlockID: app.BlockID, OrderNo: app.OrderNo, MemberID: memberID, Lots: app.Lots,
		RemainingLots: remaining}}, nil
}

// decideReturnLots gives back the lots taken for an application that was rejected.
func decideReturnLots(b *blockState, orderNo string) ([]events.Payload, error) {
	lots := b.taken[orderNo]
	if b.listed == nil || lots == 0 {
		return nil, nil
	}
	var remaining int64
	if b.listed.TotalLots > 0 {
		remaining = b.remaining() + lots
	}
	return []events.Payload{events.BlockLotsReturned{BlockID: b.listed.BlockID, OrderNo: orderNo, Lots: lots, RemainingLots: remaining}}, nil
}

// decideRejectBlock gives a pending application's frozen amount back.
func decideRejectBlock(a *commands.Account, orderNo, remark string) ([]events.Payload, error) {
	app, e := pendingBlockApp(a, orderNo)
	if e != nil {
		return nil, e
	}
	return []events.Payload{events.BlockApplicationRejected{OrderNo: orderNo, BlockID: app.BlockID, Released: app.Amount, Remark: remark,
		Postings: events.Transfer(a.Frozen, a.Available, twd, app.Amount)}}, nil
}
