// Package identity is the identity capability's HTTP side: a member's verification of their real
// name (submitted, viewed, reviewed by ops) and their bank cards.
package identity

import (
	"context"
	"fmt"

	"github.com/lotbook/lotbook/api/httpx"
	"github.com/lotbook/lotbook/api/wire"
	"github.com/lotbook/lotbook/commands"
	identitycmd "github.com/lotbook/lotbook/commands/identity"
	"github.com/lotbook/lotbook/commands/rules/bank"
	"github.com/lotbook/lotbook/commands/rules/secret"
	"github.com/lotbook/lotbook/events"
	"github.com/lotbook/lotbook/projections"
	"github.com/lotbook/lotbook/projections/funds"
)

// Commands are the write side's operations this module sends (*identity.Commands of commands/identity).
type Commands interface {
	SubmitRealName(ctx context.Context, meta commands.Meta, memberID string, in identitycmd.RealNameInput) (commands.Result, error)
	ApproveRealName(ctx context.Context, meta commands.Meta, in identitycmd.ReviewRealName) (identitycmd.ReviewResult, error)
	RejectRealName(ctx context.Context, meta commands.Meta, in identitycmd.ReviewRealName) (identitycmd.ReviewResult, error)
	BindCard(ctx context.Context, meta commands.Meta, memberID string, in identitycmd.CardInput) (identitycmd.CardResult, error)
	UnbindCard(ctx context.Context, meta commands.Meta, in identitycmd.UnbindCard) (commands.Result, error)
	SetAvatar(ctx context.Context, meta commands.Meta, memberID, fileID string) (commands.Result, error)
}

// Module serves the identity routes.
type Module struct {
	cmd    Commands
	read   *projections.ReadDB
	sealer *secret.Sealer // opens ID numbers for ops reviewing them
}

// New is the identity module over the command service, the read models and the sealer of ID
// numbers.
func New(cmd Commands, read *projections.ReadDB, sealer *secret.Sealer) *Module {
	return &Module{cmd: cmd, read: read, sealer: sealer}
}

// Routes are the identity operations of openapi.yaml.
func (m *Module) Routes() []httpx.Route {
	return []httpx.Route{
		httpx.Op(httpx.Member, "GET", "/api/vue/user/realname", httpx.IdemNone, m.myRealName),
		httpx.Op(httpx.Member, "POST", "/api/vue/user/realname", httpx.IdemRequired, m.submitRealName),
		httpx.Op(httpx.Member, "GET", "/api/vue/user/cards", httpx.IdemNone, m.myCards),
		httpx.Op(httpx.Member, "POST", "/api/vue/user/cards", httpx.IdemRequired, m.bindCard),
		httpx.Op(httpx.Member, "DELETE", "/api/vue/user/cards/{id}", httpx.IdemRequired, m.unbindCard),
		httpx.Op(httpx.Member, "POST", "/api/vue/user/avatar", httpx.IdemRequired, m.setAvatar),
		httpx.Op(httpx.Ops, "GET", "/api/vue/ops/realname", httpx.IdemNone, m.opsRealNames),
		httpx.Op(httpx.Ops, "POST", "/api/vue/ops/realname/{account}/approve", httpx.IdemRequired, m.reviewRealName(true)),
		httpx.Op(httpx.Ops, "POST", "/api/vue/ops/realname/{account}/reject", httpx.IdemRequired, m.reviewRealName(false)),
	}
}

func (m *Module) submitRealName(c *httpx.Call) (httpx.Reply, error) {
	var req wire.RealNameRequest
	if err := c.Decode("RealNameRequest", &req); err != nil {
		return httpx.Reply{}, err
	}
	res, err := m.cmd.SubmitRealName(c.Ctx(), c.Meta(), c.Sess.MemberID, identitycmd.RealNameInput{
		Name: req.Name, IDNumber: req.IdNumber, FrontFileID: req.FrontFileId, BackFileID: req.BackFileId,
	})
	if err != nil {
		return httpx.Reply{}, err
	}
	return httpx.Reply{Key: wire.MessageKeyRealnameSubmitted, Data: wire.RealNameResult{Status: wire.RealNameStatusPending, Position: res.Position}}, nil
}

func (m *Module) myRealName(c *httpx.Call) (httpx.Reply, error) {
	rn, err := funds.RealNameOf(c.Ctx(), m.read.Reader, c.Sess.MemberID)
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

func (m *Module) opsRealNames(c *httpx.Call) (httpx.Reply, error) {
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
	subs, more, err := funds.RealNameQueue(c.Ctx(), m.read.Reader, status, page, size)
	if err != nil {
		return httpx.Reply{}, fmt.Errorf("realname queue: %w", err)
	}
	items := make([]wire.OpsRealName, 0, len(subs))
	for _, rn := range subs {
		// Ops review the number itself: opened here, for this answer only, never logged.
		id, err := m.sealer.Open(rn.IDCipher, identitycmd.SealContextIDNumber(rn.MemberID))
		if err != nil {
			return httpx.Reply{}, fmt.Errorf("open the ID number of %s: %w", rn.Account, err)
		}
		items = append(items, wire.OpsRealName{Account: rn.Account, Name: rn.Name, IdNumber: id, IdNumberMasked: rn.IDMasked,
			FrontFileId: rn.FrontFileID, BackFileId: rn.BackFileID, Status: wire.RealNameStatus(rn.Status), Remark: rn.Remark,
			ReviewedBy: rn.ReviewedBy, SubmittedAt: rn.SubmittedAt.UTC()})
	}
	return httpx.OK(wire.OpsRealNamePage{Items: items, Page: page, HasMore: more})
}

// reviewRealName is ops' decision on a member's identity: approve or reject.
func (m *Module) reviewRealName(approve bool) httpx.Handler {
	return func(c *httpx.Call) (httpx.Reply, error) {
		remark, err := c.ReviewRemark(approve)
		if err != nil {
			return httpx.Reply{}, err
		}
		review := m.cmd.RejectRealName
		if approve {
			review = m.cmd.ApproveRealName
		}
		account := c.Var("account")
		res, err := review(c.Ctx(), c.Meta(), identitycmd.ReviewRealName{Account: account, Remark: remark})
		if err != nil {
			return httpx.Reply{}, err
		}
		return httpx.OK(wire.RealNameReviewResult{Account: account, Status: wire.RealNameStatus(res.Status), Position: res.Position})
	}
}

func (m *Module) bindCard(c *httpx.Call) (httpx.Reply, error) {
	var req wire.BindCardRequest
	if err := c.Decode("BindCardRequest", &req); err != nil {
		return httpx.Reply{}, err
	}
	in := identitycmd.CardInput{HolderName: req.HolderName, BankName: httpx.Deref(req.BankName), Branch: req.Branch,
		CardNumber: req.CardNumber, BankCode: req.BankCode}
	if req.Ifsc != nil {
		in.IFSC = *req.Ifsc
	}
	if req.Upi != nil {
		in.UPI = *req.Upi
	}
	res, err := m.cmd.BindCard(c.Ctx(), c.Meta(), c.Sess.MemberID, in)
	if err != nil {
		return httpx.Reply{}, err
	}
	return httpx.OK(wire.CardResult{Id: res.CardID, Last4: res.Last4, Position: res.Position})
}

func cardOut(cd funds.Card) wire.BankCard {
	return wire.BankCard{Id: cd.CardID, HolderName: cd.HolderName, BankName: cd.BankName, Branch: cd.Branch, BankCode: cd.BankCode,
		CardNumberMasked: bank.Mask(cd.Last4), Last4: cd.Last4, Ifsc: cd.IFSC, Upi: cd.UPI, BoundAt: cd.BoundAt.UTC()}
}

func (m *Module) myCards(c *httpx.Call) (httpx.Reply, error) {
	cards, err := funds.CardsOf(c.Ctx(), m.read.Reader, c.Sess.MemberID)
	if err != nil {
		return httpx.Reply{}, fmt.Errorf("cards of %s: %w", c.Sess.MemberID, err)
	}
	out := make([]wire.BankCard, 0, len(cards))
	for _, cd := range cards {
		out = append(out, cardOut(cd))
	}
	return httpx.OK(out)
}

func (m *Module) unbindCard(c *httpx.Call) (httpx.Reply, error) {
	res, err := m.cmd.UnbindCard(c.Ctx(), c.Meta(), identitycmd.UnbindCard{MemberID: c.Sess.MemberID, CardID: c.Var("id")})
	if err != nil {
		return httpx.Reply{}, err
	}
	return httpx.Reply{Key: wire.MessageKeyCardUnbound, Data: wire.CommandResult{Position: res.Position}}, nil
}

func (m *Module) setAvatar(c *httpx.Call) (httpx.Reply, error) {
	var req wire.SetAvatarRequest
	if err := c.Decode("SetAvatarRequest", &req); err != nil {
		return httpx.Reply{}, err
	}
	res, err := m.cmd.SetAvatar(c.Ctx(), c.Meta(), c.Sess.MemberID, req.FileId)
	if err != nil {
		return httpx.Reply{}, err
	}
	return httpx.OK(wire.CommandResult{Position: res.Position})
}
