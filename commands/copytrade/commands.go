package copytrade

import (
	"context"
	"fmt"
	"strings"

	"github.com/shopspring/decimal"

	"github.com/lotbook/lotbook/commands"
	"github.com/lotbook/lotbook/events"
)

// Commands are copy trading's commands over the kernel k.
type Commands struct{ k *commands.Service }

// New returns copy trading's commands over the kernel k.
func New(k *commands.Service) *Commands { return &Commands{k: k} }

// Result answers a copy-trade command: the follow, its state, the global position of the
// command's last event, and for a spend the shares and cost it allowed.
type Result struct {
	FollowID, State string
	Shares          int64
	OddLot          bool
	Amount          decimal.Decimal
	Position        int64
}

// FollowInput is a follower's form: the mentor, the amount committed, the window in days (0:
// the mentor's whole window).
type FollowInput struct {
	MentorID, Amount string
	Days             int
}

// Stop is a follower's stop of a follow (or the window's end, sent by the process).
type Stop struct {
	FollowerID, FollowID string
	ClosePositions       bool
}

// mayAct refuses a member who may not act: not registered, disabled, frozen.
func (s *Commands) mayAct(ctx context.Context, memberID string, flags ...string) error {
	st, err := s.k.Standing(ctx, memberID)
	if err != nil {
		return err
	}
	if !st.Member {
		return commands.NotFound(commands.KeyAccountNotExist)
	}
	if e := st.Refuse(flags...); e != nil {
		return e
	}
	return nil
}

// SetProfile opts the member in as a mentor, or changes its profile.
func (s *Commands) SetProfile(ctx context.Context, meta commands.Meta, memberID string, in ProfileInput) (Result, error) {
	c, err := s.k.Begin(meta, "copytrade.profile")
	if err != nil {
		return Result{}, err
	}
	pr, e := validateProfile(in)
	if e != nil {
		return Result{}, e
	}
	if !commands.ValidMemberID(memberID) {
		return Result{}, commands.NotFound(commands.KeyAccountNotExist)
	}
	rec, err := commands.Execute(ctx, s.k, c, events.AccountStream(memberID), func(a *commands.Account) ([]events.Payload, error) {
		if err := s.mayAct(ctx, memberID, events.FlagDisabled, events.FlagFrozen); err != nil {
			return nil, err
		}
		return []events.Payload{events.MentorProfileSet{DisplayName: pr.DisplayName, MinAmount: pr.MinAmount, WindowDays: pr.WindowDays,
			ProfitShare: pr.ProfitShare}}, nil
	})
	if err != nil {
		return Result{}, err
	}
	for _, p := range rec.Payloads {
		if _, ok := p.(events.MentorProfileSet); ok {
			return Result{Position: rec.Position}, nil
		}
	}
	return Result{}, commands.KeyReused()
}

// Profile is the member's mentor profile; ok false when it has not opted in.
func (s *Commands) Profile(ctx context.Context, memberID string) (Profile, bool, error) {
	if !commands.ValidMemberID(memberID) {
		return Profile{}, false, nil
	}
	type out struct {
		p  Profile
		ok bool
	}
	o, err := commands.View(ctx, s.k, events.AccountStream(memberID), func(a *commands.Account, _ *commands.Entry) out {
		if pr := copyPart.Of(a).profile; pr != nil {
			return out{*pr, true}
		}
		return out{}
	})
	return o.p, o.ok, err
}

// Follow commits an amount of the follower's available cash to a mentor.
func (s *Commands) Follow(ctx context.Context, meta commands.Meta, followerID string, in FollowInput) (Result, error) {
	c, err := s.k.Begin(meta, "copytrade.follow")
	if err != nil {
		return Result{}, err
	}
	amount, e := parseWhole(in.Amount, commands.KeyAmountInvalid)
	if e != nil {
		return Result{}, e
	}
	if !commands.ValidMemberID(followerID) {
		return Result{}, commands.NotFound(commands.KeyAccountNotExist)
	}
	mentorID := strings.TrimSpace(in.MentorID)
	if mentorID == followerID {
		return Result{}, commands.Rule(KeyFollowSelf)
	}
	var pr *Profile
	if commands.ValidMemberID(mentorID) {
		p, ok, err := s.Profile(ctx, mentorID)
		if err != nil {
			return Result{}, err
		}
		if ok {
			pr = &p
		}
	}
	rec, err := commands.Execute(ctx, s.k, c, events.AccountStream(followerID), func(a *commands.Account) ([]events.Payload, error) {
		if err := s.mayAct(ctx, followerID, events.FlagDisabled, events.FlagFrozen, events.FlagTradeBanned); err != nil {
			return nil, err
		}
		return decideFollow(a, mentorID, pr, amount, in.Days, c.Now, c.OrderNumbers(followPrefix, followerID))
	})
	if err != nil {
		return Result{}, err
	}
	for _, p := range rec.Payloads {
		if e, ok := p.(events.FollowStarted); ok {
			return Result{FollowID: e.FollowID, State: events.FollowInProgress, Amount: e.Amount, Position: rec.Position}, nil
		}
	}
	return Result{}, commands.KeyReused()
}

// Spend takes the part of a follow's commitment that mirrors one mentor fill (the mirror
// process). Shares zero: nothing to mirror.
func (s *Commands) Spend(ctx context.Context, meta commands.Meta, in Spend) (Result, error) {
	c, err := s.k.Begin(meta, "copytrade.spend")
	if err != nil {
		return Result{}, err
	}
	if !commands.ValidMemberID(in.FollowerID) {
		return Result{}, commands.NotFound(commands.KeyAccountNotExist)
	}
	rec, err := commands.Execute(ctx, s.k, c, events.AccountStream(in.FollowerID), func(a *commands.Account) ([]events.Payload, error) {
		return decideSpend(a, in, c.Now)
	})
	if err != nil {
		return Result{}, err
	}
	out := Result{FollowID: in.FollowID, Position: rec.Position}
	for _, p := range rec.Payloads {
		if e, ok := p.(events.CopyFundsSpent); ok {
			out.Shares, out.Amount, out.OddLot = e.Shares, e.Amount, e.Shares%1000 != 0
		}
	}
	return out, nil
}

// Return puts a refused order's spend back into its follow's commitment (the mirror process).
func (s *Commands) Return(ctx context.Context, meta commands.Meta, followerID, followID, ref, reason string) (Result, error) {
	c, err := s.k.Begin(meta, "copytrade.return")
	if err != nil {
		return Result{}, err
	}
	if !commands.ValidMemberID(followerID) {
		return Result{}, commands.NotFound(commands.KeyAccountNotExist)
	}
	rec, err := commands.Execute(ctx, s.k, c, events.AccountStream(followerID), func(a *commands.Account) ([]events.Payload, error) {
		return decideReturn(a, followID, ref, reason)
	})
	if err != nil {
		return Result{}, err
	}
	return Result{FollowID: followID, Position: rec.Position}, nil
}

// Reclaim puts what mirrored order orderNo gave back to available cash (when it was done, or a
// closing fill's proceeds: reason) into its follow's commitment while the follow is in progress
// (the mirror process).
func (s *Commands) Reclaim(ctx context.Context, meta commands.Meta, followerID, orderNo, reason string) (Result, error) {
	c, err := s.k.Begin(meta, "copytrade.reclaim")
	if err != nil {
		return Result{}, err
	}
	if !commands.ValidMemberID(followerID) {
		return Result{}, commands.NotFound(commands.KeyAccountNotExist)
	}
	rec, err := commands.Execute(ctx, s.k, c, events.AccountStream(followerID), func(a *commands.Account) ([]events.Payload, error) {
		return decideReclaim(a, orderNo, reason)
	})
	if err != nil {
		return Result{}, err
	}
	out := Result{Position: rec.Position}
	for _, p := range rec.Payloads {
		if e, ok := p.(events.CopyFundsReturned); ok {
			out.FollowID, out.Amount = e.FollowID, e.Amount
		}
	}
	return out, nil
}

// RequestStop starts a follow's stop (decideStopRequest): the follow takes nothing more into its
// commitment. Its State is stopping (also when a stop was already under way).
func (s *Commands) RequestStop(ctx context.Context, meta commands.Meta, in Stop) (Result, error) {
	rec, err := s.onFollow(ctx, meta, "copytrade.stop_request", in, func(a *commands.Account, _ commands.Cmd) ([]events.Payload, error) {
		return decideStopRequest(a, in.FollowID, in.ClosePositions)
	})
	if err != nil {
		return Result{}, err
	}
	return Result{FollowID: in.FollowID, State: events.FollowStopping, Position: rec.Position}, nil
}

// Stop ends a follow: the unspent commitment is released and the profit share charged. The
// positions it opened stay (the caller requests the stop, then closes them first when the
// follower asked to).
func (s *Commands) Stop(ctx context.Context, meta commands.Meta, in Stop) (Result, error) {
	rec, err := s.onFollow(ctx, meta, "copytrade.stop", in, func(a *commands.Account, c commands.Cmd) ([]events.Payload, error) {
		return decideStop(a, in.FollowID, in.ClosePositions, c.Now)
	})
	if err != nil {
		return Result{}, err
	}
	for _, p := range rec.Payloads {
		if e, ok := p.(events.FollowStopped); ok {
			return Result{FollowID: e.FollowID, State: e.State, Amount: e.Released, Position: rec.Position}, nil
		}
	}
	return Result{}, commands.KeyReused()
}

// onFollow runs command name, deciding with decide, on the account stream of the follower in names.
func (s *Commands) onFollow(ctx context.Context, meta commands.Meta, name string, in Stop,
	decide func(*commands.Account, commands.Cmd) ([]events.Payload, error)) (*commands.Record, error) {
	c, err := s.k.Begin(meta, name)
	if err != nil {
		return nil, err
	}
	if !commands.ValidMemberID(in.FollowerID) || in.FollowID == "" || len(in.FollowID) > 64 {
		return nil, commands.NotFound(KeyFollowNotFound)
	}
	return commands.Execute(ctx, s.k, c, events.AccountStream(in.FollowerID), func(a *commands.Account) ([]events.Payload, error) {
		return decide(a, c)
	})
}

// ReceiveShare pays a stopped follow's profit share to its mentor once (the mirror process).
func (s *Commands) ReceiveShare(ctx context.Context, meta commands.Meta, mentorID, followID, followerID string, amount decimal.Decimal) (Result, error) {
	c, err := s.k.Begin(meta, "copytrade.share")
	if err != nil {
		return Result{}, err
	}
	if !commands.ValidMemberID(mentorID) {
		return Result{}, fmt.Errorf("profit share of %s: mentor id %q: %w", followID, mentorID, commands.NotFound(commands.KeyAccountNotExist))
	}
	rec, err := commands.Execute(ctx, s.k, c, events.AccountStream(mentorID), func(a *commands.Account) ([]events.Payload, error) {
		return decideReceive(a, followID, followerID, amount)
	})
	if err != nil {
		return Result{}, err
	}
	return Result{FollowID: followID, Position: rec.Position}, nil
}

// Holdings are the open positions a follow's orders opened, and the follow's state ("" when the
// follower has no such follow).
func (s *Commands) Holdings(ctx context.Context, followerID, followID string) ([]Position, string, error) {
	if !commands.ValidMemberID(followerID) {
		return nil, "", nil
	}
	type out struct {
		ps    []Position
		state string
	}
	o, err := commands.View(ctx, s.k, events.AccountStream(followerID), func(a *commands.Account, _ *commands.Entry) out {
		p := copyPart.Of(a)
		f := p.follows[followID]
		if f == nil {
			return out{}
		}
		return out{followPositions(p, followID), f.state}
	})
	return o.ps, o.state, err
}

// Working are the numbers of a follow's mirrored orders still working (none when the follower
// has no such follow).
func (s *Commands) Working(ctx context.Context, followerID, followID string) ([]string, error) {
	if !commands.ValidMemberID(followerID) {
		return nil, nil
	}
	return commands.View(ctx, s.k, events.AccountStream(followerID), func(a *commands.Account, _ *commands.Entry) []string {
		return workingOrders(copyPart.Of(a), followID)
	})
}

// MentorPosition is what the mirror reads of a mentor before mirroring a fill: its fund scale
// and the shares of one of its positions.
type MentorPosition struct {
	Equity decimal.Decimal
	Shares int64
}

// Mentor reads the mentor's fund scale and the shares of position positionID.
func (s *Commands) Mentor(ctx context.Context, mentorID, positionID string) (MentorPosition, error) {
	if !commands.ValidMemberID(mentorID) {
		return MentorPosition{}, nil
	}
	return commands.View(ctx, s.k, events.AccountStream(mentorID), func(a *commands.Account, _ *commands.Entry) MentorPosition {
		out := MentorPosition{Equity: equity(a)}
		if pos := copyPart.Of(a).positions[positionID]; pos != nil {
			out.Shares = pos.shares
		}
		return out
	})
}
