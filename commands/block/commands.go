package block

import (
	"context"
	"time"

	"github.com/lotbook/lotbook/commands"
	"github.com/lotbook/lotbook/commands/rules/block"
	"github.com/lotbook/lotbook/events"
)

// Commands are block trading's commands over the kernel k.
type Commands struct {
	k     *commands.Service
	hours events.TimeWindow
}

// New returns block trading's commands over the kernel k, taking applications in the exchange's
// block hours (rules/block.Hours).
func New(k *commands.Service) *Commands { return &Commands{k: k, hours: block.Hours} }

// AlwaysOpen takes applications at any hour (the demo, whose market trades around the clock).
func (s *Commands) AlwaysOpen() *Commands {
	return &Commands{k: s.k, hours: events.TimeWindow{AlwaysOpen: true}}
}

// Result answers a block command: the block, or the application with its status, and the global
// position of the command's last event.
type Result struct {
	BlockID, OrderNo, Status string
	Position                 int64
}

// ListBlock lists a block for members to apply to (ops). The price is fixed now, from the
// market feed's reference price when the listing gives a premium.
func (s *Commands) ListBlock(ctx context.Context, meta commands.Meta, in ListBlockInput, q commands.ListingQuote) (Result, error) {
	c, err := s.k.Begin(meta, "block.list")
	if err != nil {
		return Result{}, err
	}
	if len(in.Password) > 64 {
		return Result{}, commands.Invalid(commands.KeyInvalidRequest)
	}
	id := blockID(c.CommandID)
	hash, rec := "", (*commands.Record)(nil)
	if in.Password != "" {
		if hash, rec, err = s.k.HashFor(ctx, c, events.BlockStream(id), in.Password); err != nil {
			return Result{}, err
		}
	}
	if rec == nil {
		rec, err = commands.Execute(ctx, s.k, c, events.BlockStream(id), func(b *blockState) ([]events.Payload, error) {
			return decideListBlock(b, id, in, q, hash, c.Now)
		})
		if err != nil {
			return Result{}, err
		}
	}
	for _, p := range rec.Payloads {
		if _, ok := p.(events.BlockListed); ok {
			return Result{BlockID: id, Position: rec.Position}, nil
		}
	}
	return Result{}, commands.KeyReused()
}

// CloseBlock is ops' closing of a block before its closing time.
type CloseBlock struct{ BlockID, Remark string }

// CloseBlock stops applications to a block (ops); closing a closed block changes nothing.
func (s *Commands) CloseBlock(ctx context.Context, meta commands.Meta, in CloseBlock) (Result, error) {
	c, err := s.k.Begin(meta, "block.close")
	if err != nil {
		return Result{}, err
	}
	remark, e := commands.CleanRemark(in.Remark)
	if e != nil {
		return Result{}, e
	}
	if !commands.ValidMemberID(in.BlockID) { // a block id is a UUID like a member's
		return Result{}, commands.NotFound(KeyBlockNotFound)
	}
	rec, err := commands.Execute(ctx, s.k, c, events.BlockStream(in.BlockID), func(b *blockState) ([]events.Payload, error) {
		switch {
		case b.listed == nil:
			return nil, commands.NotFound(KeyBlockNotFound)
		case b.closed:
			return nil, nil
		}
		return []events.Payload{events.BlockClosed{BlockID: in.BlockID, Remark: remark}}, nil
	})
	if err != nil {
		return Result{}, err
	}
	return Result{BlockID: in.BlockID, Position: rec.Position}, nil
}

// ApplyBlock is a member's application to a block: lots at a bid, with the block's password.
func (s *Commands) ApplyBlock(ctx context.Context, meta commands.Meta, memberID string, in ApplyBlockInput) (Result, error) {
	c, err := s.k.Begin(meta, "block.apply")
	if err != nil {
		return Result{}, err
	}
	lots, bid, e := validateBlockApplication(in)
	if e != nil {
		return Result{}, e
	}
	if !commands.ValidMemberID(memberID) {
		return Result{}, commands.NotFound(commands.KeyAccountNotExist)
	}
	if !commands.ValidMemberID(in.BlockID) || len(in.Password) > 64 {
		return Result{}, commands.NotFound(KeyBlockNotFound)
	}
	listed, err := commands.View(ctx, s.k, events.BlockStream(in.BlockID), func(b *blockState, _ *commands.Entry) *events.BlockListed {
		return b.listed
	})
	if err != nil {
		return Result{}, err
	}
	if listed == nil {
		return Result{}, commands.NotFound(KeyBlockNotFound)
	}
	// The password is checked before the account is locked (argon2id takes a while); a block's
	// password never changes, so the check cannot go stale.
	passwordOK := listed.PasswordHash == "" || in.Password != "" && s.k.Verify(listed.PasswordHash, in.Password)
	rec, err := commands.Execute(ctx, s.k, c, events.AccountStream(memberID), func(a *commands.Account) ([]events.Payload, error) {
		refusal, err := s.k.TradingRefusal(ctx, memberID)
		if err != nil {
			return nil, err
		}
		// Read under the account's lock (lock order: account, then block): a close that landed
		// since is seen.
		var open bool
		var left int64
		_, err = commands.View(ctx, s.k, events.BlockStream(in.BlockID), func(b *blockState, _ *commands.Entry) bool {
			open, left = b.open(c.Now) && block.InHours(s.hours, c.Now, s.k.Calendar()), b.remaining()
			return open
		})
		if err != nil {
			return nil, err
		}
		return decideApplyBlock(a, blockApplication{lots: lots, bid: bid, block: *listed, open: open, left: left, refusal: refusal,
			now: c.Now, orderNo: c.OrderNumbers(blockOrderPrefix, memberID), password: passwordOK})
	})
	if err != nil {
		return Result{}, err
	}
	if e := passwordRefusal(rec); e != nil {
		return Result{}, e
	}
	return blockAnswer(rec, events.ReviewPending)
}

// passwordRefusal is the answer to an application that recorded a wrong block password: the
// try that reaches the limit is told the member is locked out of the block for the day.
func passwordRefusal(rec *commands.Record) *commands.Error {
	for _, p := range rec.Payloads {
		if r, ok := p.(events.BlockPasswordRejected); ok {
			if block.Locked(r.Attempt) {
				return commands.Rule(KeyBlockPasswordLock)
			}
			return commands.Rule(KeyBlockPasswordWrong)
		}
	}
	return nil
}

// Review is an ops decision on one member's application, with the ops remark.
type Review struct{ MemberID, OrderNo, Remark string }

// ApproveBlockApplication fills a pending application at the block's price (ops). Two approvals
// of one application are decided one after the other on the member's account stream: the second
// finds it approved and is refused with order_not_pending.
//
// Approvals of all members fill within the block's total: before the account stream fills a
// pending application, its lots are taken out of the total on the block's stream (a step whose
// command id is the application's, so a second approval takes nothing again); a block without
// the lots left is refused with block_over_total. An approval that then finds the application
// rejected gives the lots back.
func (s *Commands) ApproveBlockApplication(ctx context.Context, meta commands.Meta, in Review) (Result, error) {
	res, err := s.review(ctx, meta, "block.approve", in, false, events.ReviewApproved,
		func(app blockApp) error { return s.takeLots(ctx, meta, in.MemberID, app) },
		func(a *commands.Account, remark string, now time.Time) ([]events.Payload, error) {
			return decideApproveBlock(a, in.OrderNo, remark, now)
		})
	if err != nil {
		if rerr := s.returnIfRejected(ctx, meta, in.MemberID, in.OrderNo); rerr != nil {
			return Result{}, rerr
		}
	}
	return res, err
}

// RejectBlockApplication gives a pending application's frozen cash back (ops); the remark is
// required. Lots an approval took for it meanwhile go back to the block's total.
func (s *Commands) RejectBlockApplication(ctx context.Context, meta commands.Meta, in Review) (Result, error) {
	res, err := s.review(ctx, meta, "block.reject", in, true, events.ReviewRejected, nil,
		func(a *commands.Account, remark string, _ time.Time) ([]events.Payload, error) {
			return decideRejectBlock(a, in.OrderNo, remark)
		})
	if err != nil {
		return res, err
	}
	return res, s.returnIfRejected(ctx, meta, in.MemberID, in.OrderNo)
}

// stepMeta is the metadata of a step on the block's stream for one application: its command id
// follows from the application, so whichever command runs the step, it is applied once.
func stepMeta(meta commands.Meta, step, orderNo string) commands.Meta {
	return commands.Meta{CommandID: "block-" + step + "/" + orderNo, Actor: meta.Actor, CorrelationID: meta.CommandID}
}

// takeLots takes a pending application's lots out of its block's total.
func (s *Commands) takeLots(ctx context.Context, meta commands.Meta, memberID string, app blockApp) error {
	c, err := s.k.Begin(stepMeta(meta, "take", app.OrderNo), "block.take")
	if err != nil {
		return err
	}
	_, err = commands.Execute(ctx, s.k, c, events.BlockStream(app.BlockID), func(b *blockState) ([]events.Payload, error) {
		return decideTakeLots(b, app, memberID)
	})
	return err
}

// returnIfRejected gives back the lots taken for the member's application orderNo when it ended
// rejected (terminal: a rejected application is never filled).
func (s *Commands) returnIfRejected(ctx context.Context, meta commands.Meta, memberID, orderNo string) error {
	if !commands.ValidMemberID(memberID) {
		return nil
	}
	app, err := commands.View(ctx, s.k, events.AccountStream(memberID), func(a *commands.Account, _ *commands.Entry) *blockApp {
		if p := blockPart.Of(a).apps[orderNo]; p != nil {
			cp := *p
			return &cp
		}
		return nil
	})
	if err != nil || app == nil || app.status != events.ReviewRejected {
		return err
	}
	c, err := s.k.Begin(stepMeta(meta, "return", orderNo), "block.return")
	if err != nil {
		return err
	}
	_, err = commands.Execute(ctx, s.k, c, events.BlockStream(app.BlockID), func(b *blockState) ([]events.Payload, error) {
		return decideReturnLots(b, orderNo)
	})
	return err
}

// review runs an ops decision on the member's account stream; before, when the application is
// still pending, it runs first(app) (nil: nothing).
func (s *Commands) review(ctx context.Context, meta commands.Meta, name string, in Review, remarkRequired bool, outcome string,
	first func(app blockApp) error, decide func(a *commands.Account, remark string, now time.Time) ([]events.Payload, error)) (Result, error) {
	c, err := s.k.Begin(meta, name)
	if err != nil {
		return Result{}, err
	}
	remark, err := commands.CheckReview(in.MemberID, in.OrderNo, in.Remark, remarkRequired)
	if err != nil {
		return Result{}, err
	}
	if first != nil {
		app, err := commands.View(ctx, s.k, events.AccountStream(in.MemberID), func(a *commands.Account, _ *commands.Entry) *blockApp {
			if p := blockPart.Of(a).apps[in.OrderNo]; p != nil && p.status == events.ReviewPending {
				cp := *p
				return &cp
			}
			return nil
		})
		if err != nil {
			return Result{}, err
		}
		// Not pending (or not there): the decision below replays this command or refuses.
		if app != nil {
			if err := first(*app); err != nil {
				return Result{}, err
			}
		}
	}
	rec, err := commands.Execute(ctx, s.k, c, events.AccountStream(in.MemberID), func(a *commands.Account) ([]events.Payload, error) {
		return decide(a, remark, c.Now)
	})
	if err != nil {
		return Result{}, err
	}
	return blockAnswer(rec, outcome)
}

// blockAnswer is the answer of an application command's record, whose events must lead to
// status; otherwise the record belongs to another command under the same key.
func blockAnswer(rec *commands.Record, status string) (Result, error) {
	out := Result{Position: rec.Position}
	for _, p := range rec.Payloads {
		switch e := p.(type) {
		case events.BlockApplied:
			out.OrderNo, out.BlockID, out.Status = e.OrderNo, e.BlockID, events.ReviewPending
		case events.BlockApplicationApproved:
			out.OrderNo, out.BlockID, out.Status = e.OrderNo, e.BlockID, events.ReviewApproved
		case events.BlockApplicationRejected:
			out.OrderNo, out.BlockID, out.Status = e.OrderNo, e.BlockID, events.ReviewRejected
		}
	}
	if out.OrderNo == "" || out.Status != status {
		return Result{}, commands.KeyReused()
	}
	return out, nil
}
