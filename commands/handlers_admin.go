package commands

import (
	"context"
	"errors"
	"strings"

	"github.com/lotbook/lotbook/commands/rules/identity"
	"github.com/lotbook/lotbook/events"
)

// AddStaff is a new ops or auditor user: its account name, role and first password.
type AddStaff struct{ Account, Role, Password string }

// AddStaff creates an ops or auditor user. Staff accounts are plain names (not phone numbers);
// adding an existing user with the same role changes nothing, with another role is refused.
func (s *Service) AddStaff(ctx context.Context, meta Meta, in AddStaff) (Result, error) {
	account, role, password := in.Account, in.Role, in.Password
	c, err := s.Begin(meta, "staff.add")
	if err != nil {
		return Result{}, err
	}
	switch {
	case role != events.RoleOps && role != events.RoleAuditor:
		return Result{}, Invalid(KeyInvalidRequest)
	case account == "":
		return Result{}, Invalid(KeyAccountRequired)
	case password == "":
		return Result{}, Invalid(KeyPasswordRequired)
	case !identity.ValidStaffAccount(account):
		return Result{}, Invalid(KeyAccountInvalid)
	case !identity.ValidLoginPassword(password):
		return Result{}, Invalid(KeyPasswordInvalid)
	}
	memberID := events.MemberID(account)
	return answered(Execute(ctx, s, c, events.MemberStream(memberID), func(m *Member) ([]events.Payload, error) {
		reg := events.MemberRegistered{MemberID: memberID, Account: account, Role: role}
		if !m.registered {
			// Hashed only when needed: re-running the seed costs nothing.
			h, err := s.Hash(password)
			if err != nil {
				return nil, err
			}
			reg.PasswordHash = h
		}
		return decideAddStaff(m, reg)
	}))
}

// IssueRootInviteCode issues an invite code that names no inviter (the seed's LOTBOOK, ops'
// campaign codes).
func (s *Service) IssueRootInviteCode(ctx context.Context, meta Meta, code string) (Result, error) {
	_, res, err := s.CreateInviteCode(ctx, meta, code)
	return res, err
}

// CreateInviteCode issues a root invite code: code (upper-cased; 4 to 16 letters or digits), or
// one generated from the command id when code is empty, so that a retried command finds the code
// it made. It answers the code. A code held by a member is refused with invite_code_exists.
func (s *Service) CreateInviteCode(ctx context.Context, meta Meta, code string) (string, Result, error) {
	c, err := s.Begin(meta, "invite.root")
	if err != nil {
		return "", Result{}, err
	}
	code = strings.ToUpper(strings.TrimSpace(code))
	if code != "" {
		if !validInviteCode(code) {
			return "", Result{}, Invalid(KeyInviteCodeInvalid)
		}
		res, err := answered(Execute(ctx, s, c, events.InviteStream(code), func(i *inviteState) ([]events.Payload, error) {
			return decideIssueInvite(i, code, "")
		}))
		return code, res, err
	}
	for n := 0; n < 32; n++ {
		code = inviteCandidate("root#"+c.CommandID, n)
		res, err := answered(Execute(ctx, s, c, events.InviteStream(code), func(i *inviteState) ([]events.Payload, error) {
			return decideIssueInvite(i, code, "")
		}))
		if errors.Is(err, errCodeTaken) {
			continue
		}
		return code, res, err
	}
	return "", Result{}, errCodeTaken
}

// DisableInviteCode closes an invite code to new registrations, with ops' reason; registering
// with it is then refused as with an unknown code (inviter_not_exist).
func (s *Service) DisableInviteCode(ctx context.Context, meta Meta, code, reason string) (Result, error) {
	c, err := s.Begin(meta, "invite.disable")
	if err != nil {
		return Result{}, err
	}
	code = strings.ToUpper(strings.TrimSpace(code))
	if !validInviteCode(code) {
		return Result{}, Invalid(KeyInviteCodeInvalid)
	}
	reason, e := CleanRemark(reason)
	if e != nil {
		return Result{}, e
	}
	if reason == "" {
		return Result{}, Invalid(KeyRemarkRequired)
	}
	return answered(Execute(ctx, s, c, events.InviteStream(code), func(i *inviteState) ([]events.Payload, error) {
		return decideDisableInvite(i, code, reason)
	}))
}
