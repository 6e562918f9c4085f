package funds

import (
	"context"

	"github.com/lotbook/lotbook/commands"
	"github.com/lotbook/lotbook/commands/rules/credit"
	"github.com/lotbook/lotbook/commands/rules/window"
	"github.com/lotbook/lotbook/events"
)

// Commands are funds' commands over the kernel k: deposits, withdrawals, currency exchange and
// their channels.
type Commands struct {
	k *commands.Service
	// channelMemo spares deposits the argon2id of a channel password already checked.
	channelMemo *verifiedMemo
}

// New returns funds' commands over the kernel k. One per process serves every request (its
// memo of checked channel passwords is its own).
func New(k *commands.Service) *Commands { return &Commands{k: k, channelMemo: newVerifiedMemo()} }

// RequestDeposit records a member's deposit with its proof, for ops to review.
func (s *Commands) RequestDeposit(ctx context.Context, meta commands.Meta, memberID string, in DepositInput) (OrderResult, error) {
	c, err := s.k.Begin(meta, "deposit.request")
	if err != nil {
		return OrderResult{}, err
	}
	if !commands.ValidMemberID(memberID) {
		return OrderResult{}, commands.NotFound(commands.KeyAccountNotExist)
	}
	// The member's state and the channel are read inside the account's decision, after its
	// replay check: a retried command gets its earlier answer even if they changed since. (Lock
	// order: account, then member or config; no command takes them the other way round.)
	rec, err := commands.Execute(ctx, s.k, c, events.AccountStream(memberID), func(a *commands.Account) ([]events.Payload, error) {
		facts, err := commands.View(ctx, s.k, events.MemberStream(memberID), func(m *commands.Member, _ *commands.Entry) memberFacts {
			return memberFacts{
				registered: m.IsMember(),
				disabled:   m.Flag(events.FlagDisabled),
				frozen:     m.Flag(events.FlagFrozen),
				ownsProof:  in.ProofFileID != "" && m.OwnsFile(in.ProofFileID),
			}
		})
		if err != nil {
			return nil, err
		}
		channel, err := commands.View(ctx, s.k, events.ConfigStream, func(cfg *commands.Config, _ *commands.Entry) *events.DepositChannelConfigured {
			if ch, ok := channelsPart.Of(cfg).deposits[in.ChannelID]; ok {
				return &ch
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
		return decideDepositRequest(a, depositRequest{
			in: in, member: facts, channel: channel, now: c.Now, cal: s.k.Calendar(),
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
func (s *Commands) ApproveDeposit(ctx context.Context, meta commands.Meta, in ReviewOrder) (OrderResult, error) {
	return s.review(ctx, meta, "deposit.approve", in.MemberID, in.OrderNo, in.Remark, events.ReviewApproved,
		withCredit(decideApproveDeposit, credit.ReasonDepositApproved, actorOf(meta)))
}

// actorOf is who a command's events name (begin's default for an empty actor).
func actorOf(m commands.Meta) string {
	if m.Actor == "" {
		return "system"
	}
	return m.Actor
}

// RejectDeposit closes a pending deposit without moving money (ops); the remark is required.
func (s *Commands) RejectDeposit(ctx context.Context, meta commands.Meta, in ReviewOrder) (OrderResult, error) {
	r, e := commands.CleanRemark(in.Remark)
	if e != nil {
		return OrderResult{}, e
	}
	if r == "" {
		return OrderResult{}, commands.Invalid(commands.KeyRemarkRequired)
	}
	return s.review(ctx, meta, "deposit.reject", in.MemberID, in.OrderNo, r, events.ReviewRejected,
		withCredit(decideRejectDeposit, credit.ReasonDepositRejected, actorOf(meta)))
}

// review runs the ops decision name on a pending order of the member's account.
func (s *Commands) review(ctx context.Context, meta commands.Meta, name, memberID, orderNo, remark, outcome string,
	decide func(a *commands.Account, orderNo, remark string) ([]events.Payload, error)) (OrderResult, error) {
	c, err := s.k.Begin(meta, name)
	if err != nil {
		return OrderResult{}, err
	}
	remark, err = commands.CheckReview(memberID, orderNo, remark, false)
	if err != nil {
		return OrderResult{}, err
	}
	rec, err := commands.Execute(ctx, s.k, c, events.AccountStream(memberID), func(a *commands.Account) ([]events.Payload, error) {
		return decide(a, orderNo, remark)
	})
	if err != nil {
		return OrderResult{}, err
	}
	return orderAnswer(rec, outcome)
}

// orderAnswer is the answer of a deposit or withdrawal command's record, whose event must be the one that
// leads to status; otherwise the record belongs to another command under the same key.
func orderAnswer(rec *commands.Record, status string) (OrderResult, error) {
	out := OrderResult{Position: rec.Position}
	if b, ok := rec.Snapshot.(map[string]commands.Balance); ok {
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
		return OrderResult{}, commands.KeyReused()
	}
	return out, nil
}

// DepositWindowOpen tells whether a window is open now by this service's clock and calendar (for
// the channel list's openNow).
func (s *Commands) DepositWindowOpen(w events.TimeWindow) bool {
	return window.Open(w, s.k.Now(), s.k.Calendar())
}
