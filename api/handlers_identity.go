package api

import (
	"context"
	"fmt"

	"github.com/gorilla/mux"

	"github.com/lotbook/lotbook/api/wire"
	"github.com/lotbook/lotbook/commands"
	"github.com/lotbook/lotbook/commands/rules/bank"
	"github.com/lotbook/lotbook/commands/rules/credit"
	"github.com/lotbook/lotbook/events"
	"github.com/lotbook/lotbook/projections"
	"github.com/lotbook/lotbook/projections/funds"
)

// Identity verification, bank cards and the credit-score rule.

func (s *server) submitRealName(c *call) (reply, error) {
	var req wire.RealNameRequest
	if err := c.decode("RealNameRequest", &req); err != nil {
		return reply{}, err
	}
	res, err := s.cmd.SubmitRealName(c.ctx(), c.meta(), c.sess.MemberID, commands.RealNameInput{
		Name: req.Name, IDNumber: req.IdNumber, FrontFileID: req.FrontFileId, BackFileID: req.BackFileId,
	})
	if err != nil {
		return reply{}, err
	}
	return reply{key: wire.MessageKeyRealnameSubmitted, data: wire.RealNameResult{Status: wire.RealNameStatusPending, Position: res.Position}}, nil
}

func (s *server) myRealName(c *call) (reply, error) {
	rn, err := funds.RealNameOf(c.ctx(), s.read.Reader, c.sess.MemberID)
	if isNotFound(err) {
		return ok(wire.RealNameView{Status: wire.RealNameStatusUnverified})
	}
	if err != nil {
		return reply{}, fmt.Errorf("realname of %s: %w", c.sess.MemberID, err)
	}
	out := wire.RealNameView{Status: wire.RealNameStatus(rn.Status), Name: rn.Name, IdNumberMasked: rn.IDMasked,
		FrontFileId: rn.FrontFileID, BackFileId: rn.BackFileID, Remark: rn.Remark}
	submitted := rn.SubmittedAt.UTC()
	out.SubmittedAt = &submitted
	if rn.Status != events.RealNameStatusPending {
		reviewed := rn.UpdatedAt.UTC()
		out.ReviewedAt = &reviewed
	}
	return ok(out)
}

// realNameStatus is a member's identity status for /user/info and the ops member list: the
// member_funds read model knows it once they submitted.
func realNameStatuses(ctx context.Context, rd *projections.Reader, memberIDs ...string) (map[string]wire.RealNameStatus, error) {
	st, err := funds.RealNameStatuses(ctx, rd, memberIDs)
	if err != nil {
		return nil, fmt.Errorf("realname statuses: %w", err)
	}
	out := make(map[string]wire.RealNameStatus, len(memberIDs))
	for _, id := range memberIDs {
		out[id] = wire.RealNameStatus(orDefault(st[id], events.RealNameStatusUnverified))
	}
	return out, nil
}

// creditScore is the member's score: the start value until an event changed it.
func creditScore(ctx context.Context, rd *projections.Reader, memberID string) (int, error) {
	score, found, err := funds.CreditScoreOf(ctx, rd, memberID)
	if err != nil {
		return 0, err
	}
	if !found {
		return credit.Start, nil
	}
	return score, nil
}

func (s *server) creditRule(c *call) (reply, error) {
	score, err := creditScore(c.ctx(), s.read.Reader, c.sess.MemberID)
	if err != nil {
		return reply{}, err
	}
	rule := commands.PublishedCreditRule()
	changes := make([]wire.CreditChange, 0, len(rule.Changes))
	for _, ch := range rule.Changes {
		changes = append(changes, wire.CreditChange{Reason: wire.CreditChangeReason(ch.Reason), Delta: ch.Delta})
	}
	return ok(wire.CreditRule{Score: score, Start: rule.Start, Min: rule.Min, Max: rule.Max,
		WithdrawThreshold: rule.WithdrawThreshold, Changes: changes})
}

func (s *server) opsRealNames(c *call) (reply, error) {
	status, page, size, err := queueQuery(c, events.RealNameStatusPending, func(status string) bool {
		switch status {
		case events.RealNameStatusPending, events.RealNameStatusVerified, events.RealNameStatusRejected:
			return true
		}
		return false
	})
	if err != nil {
		return reply{}, err
	}
	subs, more, err := funds.RealNameQueue(c.ctx(), s.read.Reader, status, page, size)
	if err != nil {
		return reply{}, fmt.Errorf("realname queue: %w", err)
	}
	items := make([]wire.OpsRealName, 0, len(subs))
	for _, rn := range subs {
		// Ops review the number itself: opened here, for this answer only, never logged.
		id, err := s.sealer.Open(rn.IDCipher, commands.SealContextIDNumber(rn.MemberID))
		if err != nil {
			return reply{}, fmt.Errorf("open the ID number of %s: %w", rn.Account, err)
		}
		items = append(items, wire.OpsRealName{Account: rn.Account, Name: rn.Name, IdNumber: id, IdNumberMasked: rn.IDMasked,
			FrontFileId: rn.FrontFileID, BackFileId: rn.BackFileID, Status: wire.RealNameStatus(rn.Status), Remark: rn.Remark,
			ReviewedBy: rn.ReviewedBy, SubmittedAt: rn.SubmittedAt.UTC()})
	}
	return ok(wire.OpsRealNamePage{Items: items, Page: page, HasMore: more})
}

func (s *server) approveRealName(c *call) (reply, error) {
	var req wire.ApproveRequest
	if err := c.decode("ApproveRequest", &req); err != nil {
		return reply{}, err
	}
	remark := ""
	if req.Remark != nil {
		remark = *req.Remark
	}
	return s.reviewRealName(c, remark, true)
}

func (s *server) rejectRealName(c *call) (reply, error) {
	var req wire.RejectRequest
	if err := c.decode("RejectRequest", &req); err != nil {
		return reply{}, err
	}
	return s.reviewRealName(c, req.Remark, false)
}

func (s *server) reviewRealName(c *call, remark string, approve bool) (reply, error) {
	account := mux.Vars(c.r)["account"]
	review := s.cmd.RejectRealName
	if approve {
		review = s.cmd.ApproveRealName
	}
	res, err := review(c.ctx(), c.meta(), commands.ReviewRealName{Account: account, Remark: remark})
	if err != nil {
		return reply{}, err
	}
	return ok(wire.RealNameReviewResult{Account: account, Status: wire.RealNameStatus(res.Status), Position: res.Position})
}

func (s *server) bindCard(c *call) (reply, error) {
	var req wire.BindCardRequest
	if err := c.decode("BindCardRequest", &req); err != nil {
		return reply{}, err
	}
	in := commands.CardInput{HolderName: req.HolderName, BankName: req.BankName, Branch: req.Branch,
		CardNumber: req.CardNumber, BankCode: req.BankCode}
	if req.Ifsc != nil {
		in.IFSC = *req.Ifsc
	}
	if req.Upi != nil {
		in.UPI = *req.Upi
	}
	res, err := s.cmd.BindCard(c.ctx(), c.meta(), c.sess.MemberID, in)
	if err != nil {
		return reply{}, err
	}
	return ok(wire.CardResult{Id: res.CardID, Last4: res.Last4, Position: res.Position})
}

func cardOut(cd funds.Card) wire.BankCard {
	return wire.BankCard{Id: cd.CardID, HolderName: cd.HolderName, BankName: cd.BankName, Branch: cd.Branch, BankCode: cd.BankCode,
		CardNumberMasked: bank.Mask(cd.Last4), Last4: cd.Last4, Ifsc: cd.IFSC, Upi: cd.UPI, BoundAt: cd.BoundAt.UTC()}
}

func (s *server) myCards(c *call) (reply, error) {
	cards, err := funds.CardsOf(c.ctx(), s.read.Reader, c.sess.MemberID)
	if err != nil {
		return reply{}, fmt.Errorf("cards of %s: %w", c.sess.MemberID, err)
	}
	out := make([]wire.BankCard, 0, len(cards))
	for _, cd := range cards {
		out = append(out, cardOut(cd))
	}
	return ok(out)
}

func (s *server) unbindCard(c *call) (reply, error) {
	res, err := s.cmd.UnbindCard(c.ctx(), c.meta(), commands.UnbindCard{MemberID: c.sess.MemberID, CardID: mux.Vars(c.r)["id"]})
	if err != nil {
		return reply{}, err
	}
	return reply{key: wire.MessageKeyCardUnbound, data: wire.CommandResult{Position: res.Position}}, nil
}
