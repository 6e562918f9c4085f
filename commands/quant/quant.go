// Package quant is AI quant on the write side: the account part "quant" holds the member's
// subscriptions to strategy products (commands/rules/quant): the amount held for each, what the
// strategy has released for its orders, and whether it runs. Subscribing holds the amount from
// available cash; the strategy process (commands/quant/runner) releases an order's cost just
// before it places the order in the member's account, and puts back into the hold what the
// strategy's orders give back to available cash (commands.OrderCash: a buy's unused reservation,
// a sale's net proceeds, a refused buy's release), so the subscription's money stays its own;
// leaving releases what is still held. See events/quant_events.go.
package quant

import (
	"context"
	"strings"

	"github.com/shopspring/decimal"

	"github.com/lotbook/lotbook/commands"
	rules "github.com/lotbook/lotbook/commands/rules/quant"
	"github.com/lotbook/lotbook/events"
)

// Message keys of AI quant.
const (
	KeyProductNotFound = "quant_product_not_found"
	KeyEnded           = "quant_ended"
)

// Subscription states.
const (
	Running = "running"
	Ended   = "ended"
)

const (
	twd       = commands.TWD
	subPrefix = "AQ"
	maxAmount = 1_000_000_000
)

type sub struct {
	product      string
	amount, held decimal.Decimal
	state        string
}

type part struct {
	subs     map[string]*sub
	released map[string]bool // order command ids the strategy released money for
	// cash is what the strategy's orders gave back to available cash, by order number, and the
	// releases no order took yet, by the order's command id.
	cash commands.OrderCash
}

var quantPart = commands.RegisterAccountPart("quant", func(commands.Ledger) *part {
	return &part{subs: map[string]*sub{}, released: map[string]bool{}, cash: commands.NewOrderCash()}
})

// StrategyName starts the command id of every order the strategy places (it is the strategy
// process's name): "quant-strategy/<subscription>/...".
const StrategyName = "quant-strategy"

// OriginOf is the subscription an order's command id names, "" when the strategy did not place it.
func OriginOf(commandID string) string {
	rest, ok := strings.CutPrefix(commandID, StrategyName+"/")
	if !ok {
		return ""
	}
	sub, _, _ := strings.Cut(rest, "/")
	return sub
}

// Apply evolves the part.
func (p *part) Apply(r events.RecordedEvent, pl events.Payload) {
	switch e := pl.(type) {
	case events.QuantSubscribed:
		p.subs[e.SubID] = &sub{product: e.Product, amount: e.Amount, held: e.Amount, state: Running}
	case events.QuantFundsReleased:
		p.released[e.OrderCommandID] = true
		// the release waits in available cash for its order: owed to the subscription until then
		p.cash.Own(e.OrderCommandID, e.SubID)
		p.cash.GaveBack(e.OrderCommandID, e.Amount)
		if s := p.subs[e.SubID]; s != nil {
			s.held = s.held.Sub(e.Amount)
		}
	case events.QuantFundsReturned:
		p.cash.Returned(e.Ref, e.Amount)
		if s := p.subs[e.SubID]; s != nil {
			s.held = s.held.Add(e.Amount)
		}
	case events.OrderPlaced:
		if id := OriginOf(r.Metadata.CommandID); p.subs[id] != nil {
			p.cash.Settle(r.Metadata.CommandID) // the order reserved the release
			p.cash.Own(e.OrderNo, id)
		}
	case events.TradeCashReleased:
		p.cash.GaveBack(e.OrderNo, e.Amount)
	case events.OrderFilled:
		if e.Side == events.SideSell {
			p.cash.GaveBack(e.OrderNo, e.Cash)
		}
	case events.QuantLeft:
		if s := p.subs[e.SubID]; s != nil {
			s.held, s.state = s.held.Sub(e.Released), Ended
		}
	}
}

// HoldsOrder keeps new order numbers off the subscriptions' ids.
func (p *part) HoldsOrder(no string) bool { return p.subs[no] != nil }

// Commands are AI quant's commands over the kernel k.
type Commands struct{ k *commands.Service }

// New returns AI quant's commands over the kernel k.
func New(k *commands.Service) *Commands { return &Commands{k: k} }

// Result answers a quant command: the subscription, its state and held amount after it, and the
// global position of the command's last event.
type Result struct {
	SubID, State string
	Held         decimal.Decimal
	Position     int64
}

// Subscribe is a member's subscription to a product with a whole NT$ amount.
type Subscribe struct{ Product, Amount string }

// Release is the strategy's release of an order's cost from a subscription's hold, just before
// it places the order (OrderCommandID) of Shares of Symbol.
type Release struct {
	MemberID, SubID, Symbol, OrderCommandID, Day string
	Amount, EntryClose                           decimal.Decimal
	Shares                                       int64
}

// refusals are the member flags that refuse a subscription, in the order they answer.
var refusals = []string{events.FlagDisabled, events.FlagFrozen, events.FlagTradeBanned}

// decideSubscribe holds amount from available cash for a new subscription to p.
func decideSubscribe(a *commands.Account, p rules.Product, amount decimal.Decimal, subNo func(int) string) ([]events.Payload, error) {
	switch {
	case amount.LessThan(p.MinAmount):
		return nil, commands.Rule(commands.KeyAmountBelowMinimum)
	case amount.GreaterThan(a.Balances[twd].Available):
		return nil, commands.Rule(commands.KeyInsufficientBalance)
	}
	return []events.Payload{events.QuantSubscribed{SubID: a.FreeOrderNo(subNo), Product: p.ID, Currency: twd, Amount: amount,
		MinAmount: p.MinAmount, Postings: events.Transfer(a.Available, a.Frozen, twd, amount)}}, nil
}

// decideRelease releases an order's cost from a running subscription's hold: never more than is
// held, and once per order.
func decideRelease(a *commands.Account, in Release) ([]events.Payload, error) {
	p := quantPart.Of(a)
	s := p.subs[in.SubID]
	switch {
	case s == nil:
		return nil, commands.NotFound(commands.KeyOrderNotFound)
	case p.released[in.OrderCommandID]:
		return nil, nil
	case s.state != Running:
		return nil, commands.Rule(KeyEnded)
	case !in.Amount.IsPositive() || in.Shares <= 0:
		return nil, commands.Invalid(commands.KeyAmountInvalid)
	case in.Amount.GreaterThan(s.held):
		return nil, commands.Rule(commands.KeyInsufficientBalance)
	}
	return []events.Payload{events.QuantFundsReleased{SubID: in.SubID, Currency: twd, Amount: in.Amount, Symbol: in.Symbol,
		Shares: in.Shares, OrderCommandID: in.OrderCommandID, Day: in.Day, EntryClose: in.EntryClose,
		Postings: events.Transfer(a.Frozen, a.Available, twd, in.Amount)}}, nil
}

// decideReturn puts what the strategy's order (or refused order) ref gave back to available
// cash into its subscription's hold while the subscription runs; once it ended, the cash stays
// available. Never more than ref gave back and was not yet returned, nor than is available.
func decideReturn(a *commands.Account, ref, reason string) ([]events.Payload, error) {
	p := quantPart.Of(a)
	subID, amount := p.cash.Due(a, ref)
	s := p.subs[subID]
	if s == nil || s.state != Running || !amount.IsPositive() {
		return nil, nil
	}
	return []events.Payload{events.QuantFundsReturned{SubID: subID, Currency: twd, Ref: ref, Amount: amount, Reason: reason,
		Postings: events.Transfer(a.Available, a.Frozen, twd, amount)}}, nil
}

// decideLeave ends a running subscription and releases what it still holds.
func decideLeave(a *commands.Account, subID string, closeAll bool) ([]events.Payload, error) {
	s := quantPart.Of(a).subs[subID]
	switch {
	case s == nil:
		return nil, commands.NotFound(commands.KeyOrderNotFound)
	case s.state != Running:
		return nil, commands.Rule(KeyEnded)
	}
	e := events.QuantLeft{SubID: subID, Currency: twd, Released: s.held, Close: closeAll}
	if s.held.IsPositive() {
		e.Postings = events.Transfer(a.Frozen, a.Available, twd, s.held)
	}
	return []events.Payload{e}, nil
}

// Subscribe holds the amount from the member's available cash for a new subscription.
func (s *Commands) Subscribe(ctx context.Context, meta commands.Meta, memberID string, in Subscribe) (Result, error) {
	c, err := s.k.Begin(meta, "quant.subscribe")
	if err != nil {
		return Result{}, err
	}
	p, ok := rules.ByID(in.Product)
	if !ok {
		return Result{}, commands.NotFound(KeyProductNotFound)
	}
	amount, e := commands.WholeAmount(in.Amount, maxAmount)
	if e != nil {
		return Result{}, e
	}
	if !commands.ValidMemberID(memberID) {
		return Result{}, commands.NotFound(commands.KeyAccountNotExist)
	}
	rec, err := commands.Execute(ctx, s.k, c, events.AccountStream(memberID), func(a *commands.Account) ([]events.Payload, error) {
		facts, err := s.k.Standing(ctx, memberID)
		if err != nil {
			return nil, err
		}
		if e := facts.Refuse(refusals...); e != nil {
			return nil, e
		}
		return decideSubscribe(a, p, amount, c.OrderNumbers(subPrefix, memberID))
	})
	if err != nil {
		return Result{}, err
	}
	return answer(rec, "subscribe")
}

// Leave ends a member's subscription and releases what it still holds. closeAll records the
// member's choice to sell the positions at market (the api sends those orders).
func (s *Commands) Leave(ctx context.Context, meta commands.Meta, memberID, subID string, closeAll bool) (Result, error) {
	c, err := s.k.Begin(meta, "quant.leave")
	if err != nil {
		return Result{}, err
	}
	if !commands.ValidMemberID(memberID) || subID == "" || len(subID) > 64 {
		return Result{}, commands.NotFound(commands.KeyOrderNotFound)
	}
	rec, err := commands.Execute(ctx, s.k, c, events.AccountStream(memberID), func(a *commands.Account) ([]events.Payload, error) {
		return decideLeave(a, subID, closeAll)
	})
	if err != nil {
		return Result{}, err
	}
	return answer(rec, "leave")
}

// Release releases an order's cost from a subscription's hold (the strategy process). A second
// release for the same order does nothing.
func (s *Commands) Release(ctx context.Context, meta commands.Meta, in Release) (Result, error) {
	c, err := s.k.Begin(meta, "quant.release")
	if err != nil {
		return Result{}, err
	}
	if !commands.ValidMemberID(in.MemberID) {
		return Result{}, commands.NotFound(commands.KeyAccountNotExist)
	}
	rec, err := commands.Execute(ctx, s.k, c, events.AccountStream(in.MemberID), func(a *commands.Account) ([]events.Payload, error) {
		return decideRelease(a, in)
	})
	if err != nil {
		return Result{}, err
	}
	return Result{SubID: in.SubID, State: Running, Position: rec.Position}, nil
}

// Return puts what the strategy's order ref (its order number, or a refused order's command id)
// gave back to available cash into its subscription's hold (the strategy process); reason says
// why (events.QuantReturn*). Nothing when nothing is owed or the subscription ended.
func (s *Commands) Return(ctx context.Context, meta commands.Meta, memberID, ref, reason string) (Result, error) {
	c, err := s.k.Begin(meta, "quant.return")
	if err != nil {
		return Result{}, err
	}
	if !commands.ValidMemberID(memberID) {
		return Result{}, commands.NotFound(commands.KeyAccountNotExist)
	}
	switch reason {
	case events.QuantReturnOrderDone, events.QuantReturnSold, events.QuantReturnRefused:
	default:
		return Result{}, commands.Invalid(commands.KeyInvalidRequest)
	}
	rec, err := commands.Execute(ctx, s.k, c, events.AccountStream(memberID), func(a *commands.Account) ([]events.Payload, error) {
		return decideReturn(a, ref, reason)
	})
	if err != nil {
		return Result{}, err
	}
	out := Result{Position: rec.Position}
	for _, p := range rec.Payloads {
		if e, ok := p.(events.QuantFundsReturned); ok {
			out.SubID, out.State = e.SubID, Running
		}
	}
	return out, nil
}

// answer reads a subscribe or leave command's record; a record of another command under the
// same key is refused.
func answer(rec *commands.Record, which string) (Result, error) {
	out := Result{Position: rec.Position}
	for _, p := range rec.Payloads {
		switch e := p.(type) {
		case events.QuantSubscribed:
			if which == "subscribe" {
				out.SubID, out.State, out.Held = e.SubID, Running, e.Amount
			}
		case events.QuantLeft:
			if which == "leave" {
				out.SubID, out.State = e.SubID, Ended
			}
		}
	}
	if out.SubID == "" {
		return Result{}, commands.KeyReused()
	}
	return out, nil
}
