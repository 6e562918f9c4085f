package block

import (
	"context"
	"time"

	"github.com/lotbook/lotbook/commands"
	"github.com/lotbook/lotbook/events"
)

// Commands are block trading's commands over the kernel k.
type Commands struct{ k *commands.Service }

// New returns block trading's commands over the kernel k.
func New(k *commands.Service) *Commands { return &Commands{k: k} }

// Result answers a block command: the block, or the application with its status, and the global
// position of the command's last event.
type Result struct {
	BlockID, OrderNo, Status string
	Position                 int64
}

// ListBlock lists a block for members to apply to (ops). The price is fixed now, from the
// market feed's reference price when the listing gives a premium.
func (s *Commands) ListBlock(ctx context.Context, meta commands.Meta, in ListBlockInput, q BlockQuote) (Result, error) {
	c, err := s.k.Begin(meta, "block.list")
	if err != nil {
		return Result{}, err
	}
	if len(in.Password) > 64 {
		return Result{}, commands.Invalid(commands.KeyInvalidRequest)
	}
	hash := ""
	if in.Password != "" {
		if hash, err = s.k.Hash(in.Password); err != nil {
			return Result{}, err
		}
	}
	id := blockID(c.CommandID)
	rec, err := commands.Execute(ctx, s.k, c, events.BlockStream(id), func(b *blockState) ([]events.Payload, error) {
		return decideListBlock(b, id, in, q, hash, c.Now)
	})
	if err != nil {
		return Result{}, err
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
		open, err := commands.View(ctx, s.k, events.BlockStream(in.BlockID), func(b *blockState, _ *commands.Entry) bool { return b.open(c.Now) })
		if err != nil {
			return nil, err
		}
		return decideApplyBlock(a, blockApplication{lots: lots, bid: bid, block: *listed, open: open, refusal: refusal, now: c.Now,
			orderNo: c.OrderNumbers(blockOrderPrefix, memberID), password: passwordOK})
	})
	if err != nil {
		return Result{}, err
	}
	return blockAnswer(rec, events.ReviewPending)
}

// Review is an ops decision on one member's application, with the ops remark.
type Review struct{ MemberID, OrderNo, Remark string }

// ApproveBlockApplication fills a pending application at the block's price (ops). Two approvals
// of one application are decided one after the other on the member's account stream: the second
// finds it approved and is refused with order_not_pending.
func (s *Commands) ApproveBlockApplication(ctx context.Context, meta commands.Meta, in Review) (Result, error) {
	return s.review(ctx, meta, "block.approve", in, false, events.ReviewApproved, func(a *commands.Account, remark string, now time.Time) ([]events.Payload, error) {
		return decideApproveBlock(a, in.OrderNo, remark, now)
	})
}

// RejectBlockApplication gives a pending application's frozen cash back (ops); the remark is
// required.
func (s *Commands) RejectBlockApplication(ctx context.Context, meta commands.Meta, in Review) (Result, error) {
	return s.review(ctx, meta, "block.reject", in, true, events.ReviewRejected, func(a *commands.Account, remark string, _ time.Time) ([]events.Payload, error) {
		return decideRejectBlock(a, in.OrderNo, remark)
	})
}

func (s *Commands) review(ctx context.Context, meta commands.Meta, name string, in Review, remarkRequired bool, outcome string,
	decide func(a *commands.Account, remark string, now time.Time) ([]events.Payload, error)) (Result, error) {
	c, err := s.k.Begin(meta, name)
	if err != nil {
		return Result{}, err
	}
	remark, e := commands.CleanRemark(in.Remark)
	if e != nil {
		return Result{}, e
	}
	if remarkRequired && remark == "" {
		return Result{}, commands.Invalid(commands.KeyRemarkRequired)
	}
	if !commands.ValidMemberID(in.MemberID) || in.OrderNo == "" || len(in.OrderNo) > 64 {
		return Result{}, commands.NotFound(commands.KeyOrderNotFound)
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
