// Package quant is AI quant on the write side: the account part "quant" holds the member's
// subscriptions to strategy products (commands/rules/quant): the amount held for each, what the
// strategy has released for its orders, and whether it runs. Subscribing holds the amount from
// available cash; the strategy process (commands/quant/runner) releases an order's cost just
// before it places the order in the member's account; leaving releases what is still held. See
// events/quant_events.go.
package quant

import (
	"context"

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
}

var quantPart = commands.RegisterAccountPart("quant", func(commands.Ledger) *part {
	return &part{subs: map[string]*sub{}, released: map[string]bool{}}
})

// Apply evolves the part.
func (p *part) Apply(_ events.RecordedEvent, pl events.Payload) {
	switch e := pl.(type) {
	case events.QuantSubscribed:
		p.subs[e.SubID] = &sub{product: e.Product, amount: e.Amount, held: e.Amount, state: Running}
	case events.QuantFundsReleased:
		p.released[e.OrderCommandID] = true
		if s := p.subs[e.SubID]; s != nil {
			s.held = s.held.Sub(e.Amount)
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
