package credit

import (
	"context"

	"github.com/shopspring/decimal"

	"github.com/lotbook/lotbook/commands"
	"github.com/lotbook/lotbook/events"
)

// Commands are credit's commands over the kernel k.
type Commands struct{ k *commands.Service }

// New returns credit's commands over the kernel k.
func New(k *commands.Service) *Commands { return &Commands{k: k} }

// Result answers a loan, repayment or seat command: the order number, its status, and the global
// position of the command's last event.
type Result struct {
	OrderNo, RepayNo, Status string
	Position                 int64
}

// Borrow is a member's loan application: a whole NT$ amount, with the fund password.
type Borrow struct{ Amount, FundPassword string }

// Repay is a member's repayment of one loan: a whole NT$ amount, with the fund password.
type Repay struct{ OrderNo, Amount, FundPassword string }

// Review is an ops decision on one member's loan or seat application, with the ops remark.
type Review struct{ MemberID, OrderNo, Remark string }

// Accrue charges a loan's interest through a Taipei day (YYYY-MM-DD); the interest process sends
// it once a day.
type Accrue struct{ MemberID, OrderNo, Through string }

// memberMayMove refuses a member who may not move money on their word: not registered, disabled,
// frozen, no fund password.
func (s *Commands) memberMayMove(ctx context.Context, memberID string) error {
	e, err := commands.View(ctx, s.k, events.MemberStream(memberID), func(m *commands.Member, _ *commands.Entry) *commands.Error {
		switch {
		case !m.IsMember():
			return commands.NotFound(commands.KeyAccountNotExist)
		case !m.FundPasswordSet():
			if e := m.RefuseFlags(events.FlagDisabled, events.FlagFrozen); e != nil {
				return e
			}
			return commands.Rule(commands.KeyFundPasswordNotSet)
		}
		return m.RefuseFlags(events.FlagDisabled, events.FlagFrozen)
	})
	if err != nil {
		return err
	}
	if e != nil {
		return e
	}
	return nil
}

// moneyForm checks a borrow or repay form's fields: the amount, the fund password given, the member.
func moneyForm(memberID, amount, fundPassword string) (decimal.Decimal, error) {
	a, e := parseAmount(amount)
	switch {
	case e != nil:
		return decimal.Zero, e
	case fundPassword == "":
		return decimal.Zero, commands.Invalid(commands.KeyFundPasswordRequired)
	case !commands.ValidMemberID(memberID):
		return decimal.Zero, commands.NotFound(commands.KeyAccountNotExist)
	}
	return a, nil
}

// onMembersWord checks, within command c, that the member may move money and gave the right fund
// password (a wrong one is recorded on the member stream, as for withdrawals).
func (s *Commands) onMembersWord(ctx context.Context, c commands.Cmd, memberID, fundPassword string) error {
	if err := s.memberMayMove(ctx, memberID); err != nil {
		return err
	}
	return s.k.CheckFundPassword(ctx, c, memberID, fundPassword)
}

// Borrow applies for a loan within the available limit, valued with prices (the market's); ops
// review it. The fund password is checked as a withdrawal checks it.
func (s *Commands) Borrow(ctx context.Context, meta commands.Meta, memberID string, in Borrow, prices Prices) (Result, error) {
	c, err := s.k.Begin(meta, "credit.borrow")
	if err != nil {
		return Result{}, err
	}
	amount, err := moneyForm(memberID, in.Amount, in.FundPassword)
	if err != nil {
		return Result{}, err
	}
	rec, err := commands.Execute(ctx, s.k, c, events.AccountStream(memberID), func(a *commands.Account) ([]events.Payload, error) {
		if err := s.onMembersWord(ctx, c, memberID, in.FundPassword); err != nil {
			return nil, err
		}
		return decideApplyLoan(a, amount, prices, c.OrderNumbers(loanOrderPrefix, memberID))
	})
	if err != nil {
		return Result{}, err
	}
	return answer(rec, events.ReviewPending)
}

// Repay pays part or all of an outstanding loan from available cash.
func (s *Commands) Repay(ctx context.Context, meta commands.Meta, memberID string, in Repay) (Result, error) {
	c, err := s.k.Begin(meta, "credit.repay")
	if err != nil {
		return Result{}, err
	}
	amount, err := moneyForm(memberID, in.Amount, in.FundPassword)
	if err != nil {
		return Result{}, err
	}
	if in.OrderNo == "" || len(in.OrderNo) > 64 {
		return Result{}, commands.NotFound(commands.KeyOrderNotFound)
	}
	rec, err := commands.Execute(ctx, s.k, c, events.AccountStream(memberID), func(a *commands.Account) ([]events.Payload, error) {
		if err := s.onMembersWord(ctx, c, memberID, in.FundPassword); err != nil {
			return nil, err
		}
		return decideRepay(a, in.OrderNo, amount, c.OrderNumbers(repayPrefix, memberID))
	})
	if err != nil {
		return Result{}, err
	}
	return answer(rec, "")
}

// ApproveLoan approves and disburses a pending loan (ops). Two approvals of one loan are decided
// one after the other on the member's account stream: the second is refused with
// order_not_pending.
func (s *Commands) ApproveLoan(ctx context.Context, meta commands.Meta, in Review) (Result, error) {
	return s.review(ctx, meta, "credit.approve", in, false, LoanOutstanding, func(a *commands.Account, remark string, c commands.Cmd) ([]events.Payload, error) {
		return decideApproveLoan(a, in.OrderNo, remark, c.Now)
	})
}

// RejectLoan rejects a pending loan (ops); the remark is required.
func (s *Commands) RejectLoan(ctx context.Context, meta commands.Meta, in Review) (Result, error) {
	return s.review(ctx, meta, "credit.reject", in, true, events.ReviewRejected, func(a *commands.Account, remark string, _ commands.Cmd) ([]events.Payload, error) {
		return decideRejectLoan(a, in.OrderNo, remark)
	})
}

// ApplySeat applies for a seat account; ops review it.
func (s *Commands) ApplySeat(ctx context.Context, meta commands.Meta, memberID string) (Result, error) {
	c, err := s.k.Begin(meta, "credit.seat")
	if err != nil {
		return Result{}, err
	}
	if !commands.ValidMemberID(memberID) {
		return Result{}, commands.NotFound(commands.KeyAccountNotExist)
	}
	rec, err := commands.Execute(ctx, s.k, c, events.AccountStream(memberID), func(a *commands.Account) ([]events.Payload, error) {
		e, err := commands.View(ctx, s.k, events.MemberStream(memberID), func(m *commands.Member, _ *commands.Entry) *commands.Error {
			if !m.IsMember() {
				return commands.NotFound(commands.KeyAccountNotExist)
			}
			return m.RefuseFlags(events.FlagDisabled, events.FlagFrozen)
		})
		if err != nil {
			return nil, err
		}
		if e != nil {
			return nil, e
		}
		return decideApplySeat(a, c.OrderNumbers(seatPrefix, memberID))
	})
	if err != nil {
		return Result{}, err
	}
	return answer(rec, events.ReviewPending)
}

// ApproveSeat makes the member a seat account (ops).
func (s *Commands) ApproveSeat(ctx context.Context, meta commands.Meta, in Review) (Result, error) {
	return s.review(ctx, meta, "credit.seat.approve", in, false, events.ReviewApproved, func(a *commands.Account, remark string, _ commands.Cmd) ([]events.Payload, error) {
		return decideReviewSeat(a, in.OrderNo, remark, true)
	})
}

// RejectSeat refuses a seat application (ops); the remark is required.
func (s *Commands) RejectSeat(ctx context.Context, meta commands.Meta, in Review) (Result, error) {
	return s.review(ctx, meta, "credit.seat.reject", in, true, events.ReviewRejected, func(a *commands.Account, remark string, _ commands.Cmd) ([]events.Payload, error) {
		return decideReviewSeat(a, in.OrderNo, remark, false)
	})
}

func (s *Commands) review(ctx context.Context, meta commands.Meta, name string, in Review, remarkRequired bool, outcome string,
	decide func(a *commands.Account, remark string, c commands.Cmd) ([]events.Payload, error)) (Result, error) {
	c, err := s.k.Begin(meta, name)
	if err != nil {
		return Result{}, err
	}
	remark, err := commands.CheckReview(in.MemberID, in.OrderNo, in.Remark, remarkRequired)
	if err != nil {
		return Result{}, err
	}
	rec, err := commands.Execute(ctx, s.k, c, events.AccountStream(in.MemberID), func(a *commands.Account) ([]events.Payload, error) {
		return decide(a, remark, c)
	})
	if err != nil {
		return Result{}, err
	}
	return answer(rec, outcome)
}

// AccrueInterest charges a loan's daily interest through in.Through (the interest process).
// Days already charged are not charged again.
func (s *Commands) AccrueInterest(ctx context.Context, meta commands.Meta, in Accrue) (Result, error) {
	c, err := s.k.Begin(meta, "credit.accrue")
	if err != nil {
		return Result{}, err
	}
	if !commands.ValidMemberID(in.MemberID) {
		return Result{}, commands.NotFound(commands.KeyAccountNotExist)
	}
	rec, err := commands.Execute(ctx, s.k, c, events.AccountStream(in.MemberID), func(a *commands.Account) ([]events.Payload, error) {
		return decideAccrue(a, in.OrderNo, in.Through)
	})
	if err != nil {
		return Result{}, err
	}
	return Result{OrderNo: in.OrderNo, Position: rec.Position}, nil
}

// Quota is the limit rule's answer for the member now (what the borrow screen and the assets
// show), read from the account as the next application would be decided on it.
func (s *Commands) Quota(ctx context.Context, memberID string, prices Prices) (Quota, error) {
	if !commands.ValidMemberID(memberID) {
		return Quota{}, commands.NotFound(commands.KeyAccountNotExist)
	}
	return commands.View(ctx, s.k, events.AccountStream(memberID), func(a *commands.Account, _ *commands.Entry) Quota {
		return quota(creditPart.Of(a), prices)
	})
}

// answer is the answer of a command's record, whose events must lead to status (any status when
// status is ""); otherwise the record belongs to another command under the same key.
func answer(rec *commands.Record, status string) (Result, error) {
	out := Result{Position: rec.Position}
	for _, p := range rec.Payloads {
		switch e := p.(type) {
		case events.LoanApplied:
			out.OrderNo, out.Status = e.OrderNo, events.ReviewPending
		case events.LoanDisbursed:
			out.OrderNo, out.Status = e.OrderNo, LoanOutstanding
		case events.LoanRejected:
			out.OrderNo, out.Status = e.OrderNo, events.ReviewRejected
		case events.LoanRepaid:
			out.OrderNo, out.RepayNo, out.Status = e.OrderNo, e.RepayNo, LoanOutstanding
			if !e.Outstanding.IsPositive() {
				out.Status = LoanRepaid
			}
		case events.SeatApplied:
			out.OrderNo, out.Status = e.OrderNo, events.ReviewPending
		case events.SeatApproved:
			out.OrderNo, out.Status = e.OrderNo, events.ReviewApproved
		case events.SeatRejected:
			out.OrderNo, out.Status = e.OrderNo, events.ReviewRejected
		}
	}
	if out.OrderNo == "" || status != "" && out.Status != status {
		return Result{}, commands.KeyReused()
	}
	return out, nil
}
