package api

import (
	"context"
	"fmt"

	"github.com/gorilla/mux"

	"github.com/lotbook/lotbook/api/httpx"
	"github.com/lotbook/lotbook/api/wire"
	"github.com/lotbook/lotbook/commands"
	"github.com/lotbook/lotbook/commands/rules/bank"
	"github.com/lotbook/lotbook/commands/rules/credit"
	"github.com/lotbook/lotbook/events"
	"github.com/lotbook/lotbook/projections"
)

// Identity verification, bank cards and the credit-score rule.

func (s *server) submitRealName(c *httpx.Call) (httpx.Reply, error) {
	var req wire.RealNameRequest
	if err := c.Decode("RealNameRequest", &req); err != nil {
		return httpx.Reply{}, err
	}
	res, err := s.cmd.SubmitRealName(c.Ctx(), c.Meta(), c.Sess.MemberID, commands.RealNameInput{
		Name: req.Name, IDNumber: req.IdNumber, FrontFileID: req.FrontFileId, BackFileID: req.BackFileId,
	})
	if err != nil {
		return httpx.Reply{}, err
	}
	return httpx.Reply{Key: wire.MessageKeyRealnameSubmitted, Data: wire.RealNameResult{Status: wire.RealNameStatusPending, Position: res.Position}}, nil
}

func (s *server) myRealName(c *httpx.Call) (httpx.Reply, error) {
	rn, err := s.read.RealNameOf(c.Ctx(), c.Sess.MemberID)
	if httpx.IsNotFound(err) {
		return httpx.OK(wire.RealNameView{Status: wire.RealNameStatusUnverified})
	}
	if err != nil {
		return httpx.Reply{}, fmt.Errorf("realname of %s: %w", c.Sess.MemberID, err)
	}
	out := wire.RealNameView{Status: wire.RealNameStatus(rn.Status), Name: rn.Name, IdNumberMasked: rn.IDMasked,
		FrontFileId: rn.FrontFileID, BackFileId: rn.BackFileID, Remark: rn.Remark}
	submitted := rn.SubmittedAt.UTC()
	out.SubmittedAt = &submitted
	if rn.Status != events.RealNameStatusPending {
		reviewed := rn.UpdatedAt.UTC()
		out.ReviewedAt = &reviewed
	}
	return httpx.OK(out)
}

// realNameStatus is a member's identity status for /user/info and the ops member list: the
// member_funds read model knows it once they submitted.
func realNameStatuses(ctx context.Context, rd *projections.Reader, memberIDs ...string) (map[string]wire.RealNameStatus, error) {
	st, err := rd.RealNameStatuses(ctx, memberIDs)
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
	score, found, err := rd.CreditScoreOf(ctx, memberID)
	if err != nil {
		return 0, err
	}
	if !found {
		return credit.Start, nil
	}
	return score, nil
}

func (s *server) creditRule(c *httpx.Call) (httpx.Reply, error) {
	score, err := creditScore(c.Ctx(), s.read.Reader, c.Sess.MemberID)
	if err != nil {
		return httpx.Reply{}, err
	}
	rule := commands.PublishedCreditRule()
	changes := make([]wire.CreditChange, 0, len(rule.Changes))
	for _, ch := range rule.Changes {
		changes = append(changes, wire.CreditChange{Reason: wire.CreditChangeReason(ch.Reason), Delta: ch.Delta})
	}
	return httpx.OK(wire.CreditRule{Score: score, Start: rule.Start, Min: rule.Min, Max: rule.Max,
		WithdrawThreshold: rule.WithdrawThreshold, Changes: changes})
}

func (s *server) opsRealNames(c *httpx.Call) (httpx.Reply, error) {
	status, page, size, err := httpx.QueueQuery(c, events.RealNameStatusPending, func(status string) bool {
		switch status {
		case events.RealNameStatusPending, events.RealNameStatusVerified, events.RealNameStatusRejected:
			return true
		}
		return false
	})
	if err != nil {
		return httpx.Reply{}, err
	}
	subs, more, err := s.read.RealNameQueue(c.Ctx(), status, page, size)
	if err != nil {
		return httpx.Reply{}, fmt.Errorf("realname queue: %w", err)
	}
	items := make([]wire.OpsRealName, 0, len(subs))
	for _, rn := range subs {
		// Ops review the number itself: opened here, for this answer only, never logged.
		id, err := s.sealer.Open(rn.IDCipher, commands.SealContextIDNumber(rn.MemberID))
		if err != nil {
			return httpx.Reply{}, fmt.Errorf("open the ID number of %s: %w", rn.Account, err)
		}
		items = append(items, wire.OpsRealName{Account: rn.Account, Name: rn.Name, IdNumber: id, IdNumberMasked: rn.IDMasked,
			FrontFileId: rn.FrontFileID, BackFileId: rn.BackFileID, Status: wire.RealNameStatus(rn.Status), Remark: rn.Remark,
			ReviewedBy: rn.ReviewedBy, SubmittedAt: rn.SubmittedAt.UTC()})
	}
	return httpx.OK(wire.OpsRealNamePage{Items: items, Page: page, HasMore: more})
}

func (s *server) approveRealName(c *httpx.Call) (httpx.Reply, error) {
	var req wire.ApproveRequest
	if err := c.Decode("ApproveRequest", &req); err != nil {
		return httpx.Reply{}, err
	}
	remark := ""
	if req.Remark != nil {
		remark = *req.Remark
	}
	return s.reviewRealName(c, remark, true)
}

func (s *server) rejectRealName(c *httpx.Call) (httpx.Reply, error) {
	var req wire.RejectRequest
	if err := c.Decode("RejectRequest", &req); err != nil {
		return httpx.Reply{}, err
	}
	return s.reviewRealName(c, req.Remark, false)
}

func (s *server) reviewRealName(c *httpx.Call, remark string, approve bool) (httpx.Reply, error) {
	account := mux.Vars(c.R)["account"]
	review := s.cmd.RejectRealName
	if approve {
		review = s.cmd.ApproveRealName
	}
	res, err := review(c.Ctx(), c.Meta(), account, remark)
	if err != nil {
		return httpx.Reply{}, err
	}
	return httpx.OK(wire.RealNameReviewResult{Account: account, Status: wire.RealNameStatus(res.Status), Position: res.Position})
}

func (s *server) bindCard(c *httpx.Call) (httpx.Reply, error) {
	var req wire.BindCardRequest
	if err := c.Decode("BindCardRequest", &req); err != nil {
		return httpx.Reply{}, err
	}
	in := commands.CardInput{HolderName: req.HolderName, BankName: req.BankName, Branch: req.Branch,
		CardNumber: req.CardNumber, BankCode: req.BankCode}
	if req.Ifsc != nil {
		in.IFSC = *req.Ifsc
	}
	if req.Upi != nil {
		in.UPI = *req.Upi
	}
	res, err := s.cmd.BindCard(c.Ctx(), c.Meta(), c.Sess.MemberID, in)
	if err != nil {
		return httpx.Reply{}, err
	}
	return httpx.OK(wire.CardResult{Id: res.CardID, Last4: res.Last4, Position: res.Position})
}

func cardOut(cd projections.Card) wire.BankCard {
	return wire.BankCard{Id: cd.CardID, HolderName: cd.HolderName, BankName: cd.BankName, Branch: cd.Branch, BankCode: cd.BankCode,
		CardNumberMasked: bank.Mask(cd.Last4), Last4: cd.Last4, Ifsc: cd.IFSC, Upi: cd.UPI, BoundAt: cd.BoundAt.UTC()}
}

func (s *server) myCards(c *httpx.Call) (httpx.Reply, error) {
	cards, err := s.read.CardsOf(c.Ctx(), c.Sess.MemberID)
	if err != nil {
		return httpx.Reply{}, fmt.Errorf("cards of %s: %w", c.Sess.MemberID, err)
	}
	out := make([]wire.BankCard, 0, len(cards))
	for _, cd := range cards {
		out = append(out, cardOut(cd))
	}
	return httpx.OK(out)
}

func (s *server) unbindCard(c *httpx.Call) (httpx.Reply, error) {
	res, err := s.cmd.UnbindCard(c.Ctx(), c.Meta(), c.Sess.MemberID, mux.Vars(c.R)["id"])
	if err != nil {
		return httpx.Reply{}, err
	}
	return httpx.Reply{Key: wire.MessageKeyCardUnbound, Data: wire.CommandResult{Position: res.Position}}, nil
}
