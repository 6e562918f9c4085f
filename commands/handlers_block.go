package commands

import (
	"context"
	"time"

	"github.com/lotbook/lotbook/events"
)

// BlockResult answers a block command: the block, or the application with its status, the
// global position of the command's last event and the member's cash after it.
type BlockResult struct {
	BlockID, OrderNo, Status string
	Position                 int64
	Balances                 map[string]Balance
}

// ListBlock lists a block for members to apply to (ops). The price is fixed now, from the
// market feed's reference price when the listing gives a premium.
func (s *Service) ListBlock(ctx context.Context, meta Meta, in ListBlockInput, q BlockQuote) (BlockResult, error) {
	c, err := s.begin(meta, "block.list")
	if err != nil {
		return BlockResult{}, err
	}
	if len(in.Password) > 64 {
		return BlockResult{}, invalid(KeyInvalidRequest)
	}
	hash := ""
	if in.Password != "" {
		if hash, err = s.hash(in.Password); err != nil {
			return BlockResult{}, err
		}
	}
	id := blockID(c.CommandID)
	rec, err := execute(ctx, s, c, events.BlockStream(id), func(b *blockState) ([]events.Payload, error) {
		return decideListBlock(b, id, in, q, hash, c.now)
	})
	if err != nil {
		return BlockResult{}, err
	}
	for _, p := range rec.payloads {
		if _, ok := p.(events.BlockListed); ok {
			return BlockResult{BlockID: id, Status: "open", Position: rec.position}, nil
		}
	}
	return BlockResult{}, keyReused()
}

// CloseBlock is ops' closing of a block before its closing time.
type CloseBlock struct{ BlockID, Remark string }

// CloseBlock stops applications to a block (ops); closing a closed block changes nothing.
func (s *Service) CloseBlock(ctx context.Context, meta Meta, in CloseBlock) (BlockResult, error) {
	c, err := s.begin(meta, "block.close")
	if err != nil {
		return BlockResult{}, err
	}
	remark, e := cleanRemark(in.Remark)
	if e != nil {
		return BlockResult{}, e
	}
	if !validMemberID(in.BlockID) {
		return BlockResult{}, notFound(KeyBlockNotFound)
	}
	rec, err := execute(ctx, s, c, events.BlockStream(in.BlockID), func(b *blockState) ([]events.Payload, error) {
		switch {
		case b.listed == nil:
			return nil, notFound(KeyBlockNotFound)
		case b.closed:
			return nil, nil
		}
		return []events.Payload{events.BlockClosed{BlockID: in.BlockID, Remark: remark}}, nil
	})
	if err != nil {
		return BlockResult{}, err
	}
	return BlockResult{BlockID: in.BlockID, Status: "closed", Position: rec.position}, nil
}

// ApplyBlock is a member's application to a block: lots at a bid, with the block's password.
func (s *Service) ApplyBlock(ctx context.Context, meta Meta, memberID string, in ApplyBlockInput) (BlockResult, error) {
	c, err := s.begin(meta, "block.apply")
	if err != nil {
		return BlockResult{}, err
	}
	lots, bid, e := validateBlockApplication(in)
	if e != nil {
		return BlockResult{}, e
	}
	if !validMemberID(memberID) {
		return BlockResult{}, notFound(KeyAccountNotExist)
	}
	if !validMemberID(in.BlockID) || len(in.Password) > 64 {
		return BlockResult{}, notFound(KeyBlockNotFound)
	}
	blk, err := view(ctx, s, events.BlockStream(in.BlockID), func(b *blockState, _ *entry) *blockState {
		return &blockState{listed: b.listed, closed: b.closed}
	})
	if err != nil {
		return BlockResult{}, err
	}
	if blk.listed == nil {
		return BlockResult{}, notFound(KeyBlockNotFound)
	}
	// The password is checked before the account is locked (argon2id takes a while); a block's
	// password never changes, so the check cannot go stale.
	passwordOK := blk.listed.PasswordHash == "" ||
		in.Password != "" && s.channelMemo.check(blk.listed.PasswordHash, in.Password, s.verify)
	rec, err := execute(ctx, s, c, events.AccountStream(memberID), func(a *accountState) ([]events.Payload, error) {
		facts, err := s.tradeFacts(ctx, memberID)
		if err != nil {
			return nil, err
		}
		// Read again under the account's lock: a close that landed since the view refuses.
		open, err := view(ctx, s, events.BlockStream(in.BlockID), func(b *blockState, _ *entry) bool { return b.open(c.now) })
		if err != nil {
			return nil, err
		}
		return decideApplyBlock(a, blockApplication{lots: lots, bid: bid, block: *blk.listed, open: open, facts: facts, now: c.now,
			orderNo: c.orderNumbers(blockOrderPrefix, memberID), password: passwordOK})
	})
	if err != nil {
		return BlockResult{}, err
	}
	return blockAnswer(rec, events.ReviewPending)
}

// ApproveBlockApplication fills a pending application at the block's price (ops). Two approvals
// of one application are decided one after the other on the member's account stream: the second
// finds it approved and is refused with order_not_pending.
func (s *Service) ApproveBlockApplication(ctx context.Context, meta Meta, in ReviewOrder) (BlockResult, error) {
	return s.reviewBlock(ctx, meta, "block.approve", in, false, events.ReviewApproved, func(a *accountState, remark string, now time.Time) ([]events.Payload, error) {
		return decideApproveBlock(a, in.OrderNo, remark, now)
	})
}

// RejectBlockApplication gives a pending application's frozen cash back (ops); the remark is
// required.
func (s *Service) RejectBlockApplication(ctx context.Context, meta Meta, in ReviewOrder) (BlockResult, error) {
	return s.reviewBlock(ctx, meta, "block.reject", in, true, events.ReviewRejected, func(a *accountState, remark string, _ time.Time) ([]events.Payload, error) {
		return decideRejectBlock(a, in.OrderNo, remark)
	})
}

func (s *Service) reviewBlock(ctx context.Context, meta Meta, name string, in ReviewOrder, remarkRequired bool, outcome string,
	decide func(a *accountState, remark string, now time.Time) ([]events.Payload, error)) (BlockResult, error) {
	c, err := s.begin(meta, name)
	if err != nil {
		return BlockResult{}, err
	}
	remark, e := cleanRemark(in.Remark)
	if e != nil {
		return BlockResult{}, e
	}
	if remarkRequired && remark == "" {
		return BlockResult{}, invalid(KeyRemarkRequired)
	}
	if !validMemberID(in.MemberID) || in.OrderNo == "" || len(in.OrderNo) > 64 {
		return BlockResult{}, notFound(KeyOrderNotFound)
	}
	rec, err := execute(ctx, s, c, events.AccountStream(in.MemberID), func(a *accountState) ([]events.Payload, error) {
		return decide(a, remark, c.now)
	})
	if err != nil {
		return BlockResult{}, err
	}
	return blockAnswer(rec, outcome)
}

// blockAnswer is the answer of a block application command's record, whose first event must
// lead to status; otherwise the record belongs to another command under the same key.
func blockAnswer(rec *record, status string) (BlockResult, error) {
	out := BlockResult{Position: rec.position}
	if b, ok := rec.snapshot.(map[string]Balance); ok {
		out.Balances = b
	}
	for _, p := range rec.payloads {
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
		return BlockResult{}, keyReused()
	}
	return out, nil
}
