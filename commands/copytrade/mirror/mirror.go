// Package mirror is copy trading's process manager: it folds mentors, their open orders and the
// follows in progress from the log and, for each fill of a mentor's own order, places an
// ordinary order in every active follower's account. An opening buy or short sale is scaled to
// the follow's commitment relative to the mentor's fund scale (commands/rules/mentor.Scale and
// ScaleShort: a short's margin is what it takes) after the follow's part of the commitment is
// taken back to available cash (copytrade.Spend, decided on the follower's stream, so the follow
// never spends more than it committed); a refused order (a follower who may not short, say)
// gives its part back. A closing sale or cover closes the same fraction of the follow's positions
// of that direction in the symbol at market. What a mirrored order gives back to available cash
// (a done order's unused reservation, a closing fill's net proceeds) goes back into its follow's
// commitment while the follow is in progress (copytrade.Commands.Reclaim). It also ends follows whose window is over and pays profit shares to mentors.
// Every command's id is derived from the event (or the follow) it answers, so a restart, a
// retry or a second instance never mirrors a fill twice.
//
// The orders go through trading's commands, which the write side's layer rules keep out of this
// capability's packages: the process takes them as a Trader, and the copy-trade API module (which
// may import both) registers the process with its adapter.
package mirror

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/shopspring/decimal"

	"github.com/lotbook/lotbook/commands"
	"github.com/lotbook/lotbook/commands/copytrade"
	"github.com/lotbook/lotbook/commands/process"
	"github.com/lotbook/lotbook/commands/rules/mentor"
	"github.com/lotbook/lotbook/events"
)

// ProcessName names the checkpoint, metrics and command ids: never rename it.
const ProcessName = "copytrade-mirror"

// Ticket is a mirrored opening order: a buy of Shares (whole lots, or an odd lot) at the limit
// Price, or a short sale (融券, whole lots) at it.
type Ticket struct {
	Symbol string
	Shares int64
	OddLot bool
	Short  bool
	Price  decimal.Decimal
	// LimitUp is the limit-up a short's margin was taken from the commitment at: the order is
	// refused if trading would reserve it at another (the day changed meanwhile), so it never
	// takes more than was spent.
	LimitUp decimal.Decimal
	Origin  string // the follow id
	// OriginName is the mentor's display name, shown on the order as "copied from".
	OriginName string
}

// Trader places the mirrored orders through trading's commands.
type Trader interface {
	// Open places a cash buy or a short sale for memberID.
	Open(ctx context.Context, meta commands.Meta, memberID string, t Ticket) (orderNo string, err error)
	// Close sells (a short: buys back) shares of the member's position in symbol at market (all
	// of it when shares is 0).
	Close(ctx context.Context, meta commands.Meta, memberID, positionID, symbol string, shares int64, origin, originName string) error
	// Cancel cancels the member's working order orderNo.
	Cancel(ctx context.Context, meta commands.Meta, memberID, orderNo string) error
	// OddLots tells whether the odd-lot session takes orders now.
	OddLots() bool
	// LimitUp is symbol's limit-up price today (zero when unknown).
	LimitUp(symbol string) decimal.Decimal
}

// Copier is the copy-trade commands the process sends (*copytrade.Commands).
type Copier interface {
	Spend(ctx context.Context, meta commands.Meta, in copytrade.Spend) (copytrade.Result, error)
	Return(ctx context.Context, meta commands.Meta, followerID, followID, ref, reason string) (copytrade.Result, error)
	Reclaim(ctx context.Context, meta commands.Meta, followerID, orderNo, reason string) (copytrade.Result, error)
	Working(ctx context.Context, followerID, followID string) ([]string, error)
	RequestStop(ctx context.Context, meta commands.Meta, in copytrade.Stop) (copytrade.Result, error)
	Stop(ctx context.Context, meta commands.Meta, in copytrade.Stop) (copytrade.Result, error)
	ReceiveShare(ctx context.Context, meta commands.Meta, mentorID, followID, followerID string, amount decimal.Decimal) (copytrade.Result, error)
	Holdings(ctx context.Context, followerID, followID string) ([]copytrade.Position, string, error)
	Mentor(ctx context.Context, mentorID, positionID string) (copytrade.MentorPosition, error)
}

// Follow is a follow in progress as the process folds it.
type Follow struct {
	Follower   string    `json:"follower"`
	Mentor     string    `json:"mentor"`
	MentorName string    `json:"mentorName,omitempty"`
	Ends       time.Time `json:"ends"`
}

// Order is a mentor's working order.
type Order struct {
	Intent    string `json:"intent"`
	Direction string `json:"direction"`
	Origin    string `json:"origin,omitempty"`
	Symbol    string `json:"symbol"`
}

// State is the fold, saved with the checkpoint.
type State struct {
	Mentors map[string]bool   `json:"mentors"`
	Follows map[string]Follow `json:"follows"` // follow id -> follow in progress
	Orders  map[string]Order  `json:"orders"`  // mentor's working orders by order number
}

// Process is the mirror.
type Process struct {
	*process.Runtime
	process.EventSet
	process.Fold[State]

	cmd    Copier
	trader Trader
}

// Config wires a Process.
type Config struct {
	Commands   Copier
	Trader     Trader
	Store      events.Store
	Feed       *process.Feed // the log reader shared by the stack's processes (nil: its own)
	Clock      func() time.Time
	Logger     *slog.Logger
	Registerer prometheus.Registerer
}

// New prepares the process; Run runs it.
func New(cfg Config) *Process {
	p := &Process{cmd: cfg.Commands, trader: cfg.Trader, Fold: process.NewFold(emptyState, restored),
		EventSet: process.Events("MentorProfileSet", "FollowStarted", "FollowStopped", "OrderPlaced", "OrderFilled", "OrderCancelled",
			"OrderExpired", "TradeCashReleased")}
	p.Runtime = process.New(process.Config{Name: ProcessName, Store: cfg.Store, Feed: cfg.Feed, Manager: p, Clock: process.SystemClock(cfg.Clock),
		Logger: cfg.Logger, Registerer: cfg.Registerer,
		Timers: []process.Timer{{Name: "end", Next: process.Every(time.Minute), Fire: func(ctx context.Context, at time.Time, _ string) error {
			return p.EndDue(ctx, at)
		}}}})
	return p
}

func emptyState() State {
	return State{Mentors: map[string]bool{}, Follows: map[string]Follow{}, Orders: map[string]Order{}}
}

// restored refuses a checkpoint of a form before the fold held all three.
func restored(st *State) error {
	if st.Mentors == nil || st.Follows == nil || st.Orders == nil {
		return process.ErrRefold
	}
	return nil
}

// Handle implements process.Manager: it folds, and mirrors a mentor's fills.
func (p *Process) Handle(ctx context.Context, r events.RecordedEvent, pl events.Payload) error {
	member, ok := strings.CutPrefix(r.Stream, events.AccountStream(""))
	if !ok {
		return nil
	}
	st := p.Lock()
	switch e := pl.(type) {
	case events.MentorProfileSet:
		st.Mentors[member] = true
	case events.FollowStarted:
		ends, err := time.Parse(time.RFC3339, e.Ends)
		if err != nil {
			p.Unlock()
			return fmt.Errorf("follow %s at %d: ends %q: %w", e.FollowID, r.Position, e.Ends, err)
		}
		st.Follows[e.FollowID] = Follow{Follower: member, Mentor: e.MentorID, MentorName: e.MentorName, Ends: ends}
	case events.FollowStopped:
		delete(st.Follows, e.FollowID)
		p.Unlock()
		if e.Share.IsPositive() {
			meta := commands.Meta{CommandID: process.EventCommandID(ProcessName, r, 0), Actor: "system"}
			if _, err := p.cmd.ReceiveShare(ctx, meta, e.MentorID, e.FollowID, member, e.Share); err != nil {
				return fmt.Errorf("profit share of %s: %w", e.FollowID, err)
			}
		}
		return nil
	case events.OrderPlaced:
		if st.Mentors[member] {
			st.Orders[e.OrderNo] = Order{Intent: e.Intent, Direction: e.Direction, Origin: e.Origin, Symbol: e.Symbol}
		}
	case events.OrderCancelled:
		delete(st.Orders, e.OrderNo)
	case events.TradeCashReleased:
		following := st.following(member)
		p.Unlock()
		if !following {
			return nil
		}
		return p.reclaim(ctx, r, member, e.OrderNo, events.CopyReturnOrderDone)
	case events.OrderExpired:
		delete(st.Orders, e.OrderNo)
	case events.OrderFilled:
		o, mine := st.Orders[e.OrderNo]
		if e.Remaining == 0 {
			delete(st.Orders, e.OrderNo)
		}
		if !mine || o.Origin != "" {
			// not a mentor's own order: nothing to mirror, but a follower's closing fill's
			// proceeds may belong to a follow
			following := e.Cash.IsPositive() && st.following(member)
			p.Unlock()
			if !following {
				return nil
			}
			return p.reclaim(ctx, r, member, e.OrderNo, events.CopyReturnSold)
		}
		var follows []string
		for _, id := range slices.Sorted(maps.Keys(st.Follows)) {
			if f := st.Follows[id]; f.Mentor == member && r.Metadata.ServerTime.Before(f.Ends) {
				follows = append(follows, id)
			}
		}
		fs := make([]Follow, len(follows))
		for i, id := range follows {
			fs[i] = st.Follows[id]
		}
		p.Unlock()
		return p.mirror(ctx, r, member, e, o, follows, fs)
	}
	p.Unlock()
	return nil
}

// following tells whether member follows a mentor now.
func (st *State) following(member string) bool {
	for _, f := range st.Follows {
		if f.Follower == member {
			return true
		}
	}
	return false
}

// reclaim puts the cash mirrored order orderNo gave back to available cash (event r) into its
// follow's commitment, decided on the follower's stream: nothing for the member's own orders or
// a stopped follow.
func (p *Process) reclaim(ctx context.Context, r events.RecordedEvent, member, orderNo, reason string) error {
	meta := commands.Meta{CommandID: process.EventCommandID(ProcessName, r, 0), Actor: "system"}
	if _, err := p.cmd.Reclaim(ctx, meta, member, orderNo, reason); err != nil {
		if _, ok := refused(err); !ok {
			return fmt.Errorf("reclaim of order %s: %w", orderNo, err)
		}
	}
	return nil
}

// mirror places the follows' orders for the mentor's fill e of order o.
func (p *Process) mirror(ctx context.Context, r events.RecordedEvent, mentorID string, e events.OrderFilled, o Order, ids []string, fs []Follow) error {
	if len(ids) == 0 || e.Shares <= 0 {
		return nil
	}
	m, err := p.cmd.Mentor(ctx, mentorID, e.PositionID)
	if err != nil {
		return fmt.Errorf("mentor %s: %w", mentorID, err)
	}
	var errs []error
	for i, id := range ids {
		var err error
		if o.Intent == events.IntentOpen {
			err = p.open(ctx, r, id, fs[i], e, o, m)
		} else {
			err = p.close(ctx, r, id, fs[i], e, o, m)
		}
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			errs = append(errs, fmt.Errorf("follow %s: %w", id, err))
		}
	}
	return errors.Join(errs...)
}

func (p *Process) meta(r events.RecordedEvent, followID, step string) commands.Meta {
	return commands.Meta{CommandID: ProcessName + "/" + r.ID.String() + "/" + followID + "/" + step, Actor: "system"}
}

// refused tells a business refusal (the order or the follow cannot go ahead: skipped) from a
// failure to retry.
func refused(err error) (string, bool) {
	ce, ok := commands.AsError(err)
	if !ok || ce.Kind == commands.KindUnavailable {
		return "", false
	}
	return ce.Key, true
}

// fillPrice is the price a mirrored order is limited to: a buy the fill's highest execution, a
// short sale its lowest.
func fillPrice(e events.OrderFilled, short bool) decimal.Decimal {
	price := decimal.Zero
	for i, x := range e.Executions {
		switch {
		case i == 0:
			price = x.Price
		case short:
			price = decimal.Min(price, x.Price)
		default:
			price = decimal.Max(price, x.Price)
		}
	}
	if price.IsZero() && e.Shares > 0 {
		price = e.Amount.Div(decimal.NewFromInt(e.Shares))
	}
	return price
}

func (p *Process) open(ctx context.Context, r events.RecordedEvent, followID string, f Follow, e events.OrderFilled, o Order, m copytrade.MentorPosition) error {
	short := o.Direction == events.DirectionShort
	price := fillPrice(e, short)
	in := copytrade.Spend{FollowerID: f.Follower, FollowID: followID, Ref: r.ID.String(), Symbol: o.Symbol, Price: price, Value: e.Amount,
		MentorEquity: m.Equity, OddLots: p.trader.OddLots(), Short: short}
	if short {
		in.LimitUp = p.trader.LimitUp(o.Symbol)
	}
	// the mentor's equity before the fill: its cash paid is now held by the position, so the
	// fund scale is unchanged by the fill but for the commission
	sp, err := p.cmd.Spend(ctx, p.meta(r, followID, "spend"), in)
	if err != nil {
		if key, ok := refused(err); ok {
			p.Logger().InfoContext(ctx, "mirror skipped", "follow", followID, "key", key)
			return nil
		}
		return err
	}
	if sp.Shares == 0 {
		return nil
	}
	no, err := p.trader.Open(ctx, p.meta(r, followID, "order"), f.Follower, Ticket{Symbol: o.Symbol, Shares: sp.Shares, OddLot: sp.OddLot,
		Short: short, Price: price, LimitUp: in.LimitUp, Origin: followID, OriginName: f.MentorName})
	if err == nil {
		return p.cancelIfStopped(ctx, r, followID, f.Follower, no)
	}
	key, ok := refused(err)
	if !ok {
		return err
	}
	p.Logger().InfoContext(ctx, "mirrored order refused; its part goes back into the commitment", "follow", followID, "key", key)
	if _, err := p.cmd.Return(ctx, p.meta(r, followID, "return"), f.Follower, followID, r.ID.String(), key); err != nil {
		if _, ok := refused(err); !ok {
			return err
		}
	}
	return nil
}

func (p *Process) close(ctx context.Context, r events.RecordedEvent, followID string, f Follow, e events.OrderFilled, o Order, m copytrade.MentorPosition) error {
	had := m.Shares + e.Shares // the mentor's shares before this sale or cover
	short := o.Direction == events.DirectionShort
	held, state, err := p.cmd.Holdings(ctx, f.Follower, followID)
	if err != nil {
		return err
	}
	if state != events.FollowInProgress {
		return nil
	}
	var errs []error
	for _, pos := range held {
		if pos.Symbol != o.Symbol || pos.Short != short {
			continue
		}
		n := mentor.CloseShares(pos.Shares, had, e.Shares, p.trader.OddLots())
		if n == 0 {
			continue
		}
		if n == pos.Shares {
			n = 0 // all of it
		}
		if err := p.trader.Close(ctx, p.meta(r, followID, "close/"+pos.ID), f.Follower, pos.ID, pos.Symbol, n, followID, f.MentorName); err != nil {
			if key, ok := refused(err); ok {
				p.Logger().InfoContext(ctx, "mirrored close refused", "follow", followID, "position", pos.ID, "key", key)
				continue
			}
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// cancelIfStopped cancels mirrored order orderNo when its follow was stopped while it was being
// placed, so a stopped follow leaves no working order behind.
func (p *Process) cancelIfStopped(ctx context.Context, r events.RecordedEvent, followID, follower, orderNo string) error {
	_, state, err := p.cmd.Holdings(ctx, follower, followID)
	if err != nil || state == events.FollowInProgress || orderNo == "" {
		return err
	}
	return cancel(ctx, p.trader.Cancel, p.meta(r, followID, "cancel"), follower, orderNo)
}

// CancelFunc cancels a member's working order (Trader.Cancel).
type CancelFunc func(ctx context.Context, meta commands.Meta, memberID, orderNo string) error

// cancel cancels a mirrored order; one no longer working is no error.
func cancel(ctx context.Context, fn CancelFunc, meta commands.Meta, follower, orderNo string) error {
	if err := fn(ctx, meta, follower, orderNo); err != nil {
		if _, ok := refused(err); !ok {
			return fmt.Errorf("cancel of mirrored order %s: %w", orderNo, err)
		}
	}
	return nil
}

// Stopper is what a stop sends of the copy-trade commands (*copytrade.Commands).
type Stopper interface {
	RequestStop(ctx context.Context, meta commands.Meta, in copytrade.Stop) (copytrade.Result, error)
	Working(ctx context.Context, followerID, followID string) ([]string, error)
	Holdings(ctx context.Context, followerID, followID string) ([]copytrade.Position, string, error)
	Stop(ctx context.Context, meta commands.Meta, in copytrade.Stop) (copytrade.Result, error)
}

// StopFollow stops a follow in one order every time, whoever asks (the follower, or the
// window's end): it requests the stop, so the commitment takes nothing more back; cancels the
// follow's working mirrored orders; hands its open positions to closeAll (nil: they stay); then
// stops it, releasing what is left of the commitment. Each command's id is derived from base's,
// so a retry does nothing twice and a stop left half done goes on.
func StopFollow(ctx context.Context, c Stopper, fn CancelFunc, base commands.Meta, in copytrade.Stop,
	closeAll func([]copytrade.Position) error) (copytrade.Result, error) {
	step := func(name string) commands.Meta {
		m := base
		m.CommandID = base.CommandID + "/" + name
		return m
	}
	if _, err := c.RequestStop(ctx, step("request"), in); err != nil {
		return copytrade.Result{}, err
	}
	nos, err := c.Working(ctx, in.FollowerID, in.FollowID)
	if err != nil {
		return copytrade.Result{}, fmt.Errorf("working orders of %s: %w", in.FollowID, err)
	}
	for _, no := range nos {
		if err := cancel(ctx, fn, step("cancel/"+no), in.FollowerID, no); err != nil {
			return copytrade.Result{}, err
		}
	}
	if closeAll != nil {
		// read after the request: an order that filled before it opened its position too
		held, _, err := c.Holdings(ctx, in.FollowerID, in.FollowID)
		if err != nil {
			return copytrade.Result{}, fmt.Errorf("positions of %s: %w", in.FollowID, err)
		}
		if err := closeAll(held); err != nil {
			return copytrade.Result{}, err
		}
	}
	return c.Stop(ctx, base, in)
}

// EndDue ends every follow whose window is over by at, keeping its positions (StopFollow).
func (p *Process) EndDue(ctx context.Context, at time.Time) error {
	follows := p.Lock().Follows
	type due struct{ id, follower string }
	var ds []due
	for _, id := range slices.Sorted(maps.Keys(follows)) {
		if f := follows[id]; !at.Before(f.Ends) {
			ds = append(ds, due{id, f.Follower})
		}
	}
	p.Unlock()
	var errs []error
	for _, d := range ds {
		meta := commands.Meta{CommandID: ProcessName + "/end/" + d.id, Actor: "system"}
		if _, err := StopFollow(ctx, p.cmd, p.trader.Cancel, meta, copytrade.Stop{FollowerID: d.follower, FollowID: d.id}, nil); err != nil {
			if _, ok := refused(err); ok {
				continue
			}
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}
