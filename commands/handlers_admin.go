package commands

import (
	"context"
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
	rec, err := Execute(ctx, s, c, events.MemberStream(memberID), func(m *Member) ([]events.Payload, error) {
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
	})
	if err != nil {
		return Result{}, err
	}
	return Result{Position: rec.Position}, nil
}

// IssueRootInviteCode issues an invite code that names no inviter (the seed's LOTBOOK).
func (s *Service) IssueRootInviteCode(ctx context.Context, meta Meta, code string) (Result, error) {
	c, err := s.Begin(meta, "invite.root")
	if err != nil {
		return Result{}, err
	}
	code = strings.ToUpper(code)
	if !validInviteCode(code) {
		return Result{}, Invalid(KeyInvalidRequest)
	}
	rec, err := Execute(ctx, s, c, events.InviteStream(code), func(i *inviteState) ([]events.Payload, error) {
		return decideIssueInvite(i, code, "")
	})
	if err != nil {
		return Result{}, err
	}
	return Result{Position: rec.Position}, nil
}
