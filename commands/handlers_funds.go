package commands

import (
	"context"

	"github.com/lotbook/lotbook/commands/rules/credit"
	"github.com/lotbook/lotbook/commands/rules/window"
	"github.com/lotbook/lotbook/events"
)

// RequestDeposit records a member's deposit with its proof, for ops to review.
func (s *Service) RequestDeposit(ctx context.Context, meta Meta, memberID string, in DepositInput) (OrderResult, error) {
	c, err := s.Begin(meta, "deposit.request")
	if err != nil {
		return OrderResult{}, err
	}
	if !ValidMemberID(memberID) {
		return OrderResult{}, NotFound(KeyAccountNotExist)
	}
	// The member's state and the channel are read inside the account's decision, after its
	// replay check: a retried command gets its earlier answer even if they changed since. (Lock
	// order: account, then member or config; no command takes them the other way round.)
	rec, err := Execute(ctx, s, c, events.AccountStream(memberID), func(a *Account) ([]events.Payload, error) {
		facts, err := View(ctx, s, events.MemberStream(memberID), func(m *Member, _ *Entry) memberFacts {
			return memberFacts{
				registered: m.registered && m.role == events.RoleMember,
				disabled:   m.flags[events.FlagDisabled],
				frozen:     m.flags[events.FlagFrozen],
				ownsProof:  in.ProofFileID != "" && m.files[in.ProofFileID],
			}
		})
		if err != nil {
			return nil, err
		}
		channel, err := View(ctx, s, events.ConfigStream, func(cfg *configState, _ *Entry) *events.DepositChannelConfigured {
			if ch, ok := cfg.channels[in.ChannelID]; ok {
				return &ch
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
		return decideDepositRequest(a, depositRequest{
			in: in, member: facts, channel: channel, now: c.Now, cal: s.cal,
			orderNo:         c.OrderNumbers(depositOrderPrefix, memberID),
			channelPassword: s.channelPasswordOK,
		})
	})
	if err != nil {
		return OrderResult{}, err
	}
	return orderAnswer(rec, events.ReviewPending)
}

// ReviewOrder is an ops decision on one member's deposit or withdrawal, with the ops remark.
type ReviewOrder struct{ MemberID, OrderNo, Remark string }

// ApproveDeposit credits a pending deposit to the member (ops).
func (s *Service) ApproveDeposit(ctx context.Context, meta Meta, in ReviewOrder) (OrderResult, error) {
	return s.review(ctx, meta, "deposit.approve", in.MemberID, in.OrderNo, in.Remark, events.ReviewApproved,
		withCredit(decideApproveDeposit, credit.ReasonDepositApproved, actorOf(meta)))
}

// actorOf is who a command's events name (begin's default for an empty actor).
func actorOf(m Meta) string {
	if m.Actor == "" {
		return "system"
	}
	return m.Actor
}

// RejectDeposit closes a pending deposit without moving money (ops); the remark is required.
func (s *Service) RejectDeposit(ctx context.Context, meta Meta, in ReviewOrder) (OrderResult, error) {
	r, e := CleanRemark(in.Remark)
	if e != nil {
		return OrderResult{}, e
	}
	if r == "" {
		return OrderResult{}, Invalid(KeyRemarkRequired)
	}
	return s.review(ctx, meta, "deposit.reject", in.MemberID, in.OrderNo, r, events.ReviewRejected,
		withCredit(decideRejectDeposit, credit.ReasonDepositRejected, actorOf(meta)))
}

// review runs the ops decision name on a pending order of the member's account.
func (s *Service) review(ctx context.Context, meta Meta, name, memberID, orderNo, remark, outcome string,
	decide func(a *Account, orderNo, remark string) ([]events.Payload, error)) (OrderResult, error) {
	c, err := s.Begin(meta, name)
	if err != nil {
		return OrderResult{}, err
	}
	remark, e := CleanRemark(remark)
	if e != nil {
		return OrderResult{}, e
	}
	if !ValidMemberID(memberID) || orderNo == "" || len(orderNo) > 64 {
		return OrderResult{}, NotFound(KeyOrderNotFound)
	}
	rec, err := Execute(ctx, s, c, events.AccountStream(memberID), func(a *Account) ([]events.Payload, error) {
		return decide(a, orderNo, remark)
	})
	if err != nil {
		return OrderResult{}, err
	}
	return orderAnswer(rec, outcome)
}

// orderAnswer is the answer of a deposit or withdrawal command's record, whose event must be the one that
// leads to status; otherwise the record belongs to another command under the same key.
func orderAnswer(rec *Record, status string) (OrderResult, error) {
	out := OrderResult{Position: rec.Position}
	if b, ok := rec.Snapshot.(map[string]Balance); ok {
		out.Balances = b
	}
	for _, p := range rec.Payloads {
		switch e := p.(type) {
		case events.DepositRequested:
			out.OrderNo, out.Status = e.OrderNo, events.ReviewPending
		case events.DepositApproved:
			out.OrderNo, out.Status = e.OrderNo, events.ReviewApproved
		case events.DepositRejected:
			out.OrderNo, out.Status = e.OrderNo, events.ReviewRejected
		case events.WithdrawalRequested:
			out.OrderNo, out.Status = e.OrderNo, events.ReviewPending
		case events.WithdrawalApproved:
			out.OrderNo, out.Status = e.OrderNo, events.ReviewApproved
		case events.WithdrawalRejected:
			out.OrderNo, out.Status = e.OrderNo, events.ReviewRejected
		}
	}
	if out.OrderNo == "" || out.Status != status {
		return OrderResult{}, KeyReused()
	}
	return out, nil
}

// DepositWindowOpen tells whether a window is open now by this service's clock and calendar (for
// the channel list's openNow).
func (s *Service) DepositWindowOpen(w events.TimeWindow) bool {
	return window.Open(w, s.clock(), s.cal)
}
