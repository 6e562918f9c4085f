package commands

import (
	"context"
	"strings"

	"github.com/lotbook/lotbook/commands/rules/identity"
	"github.com/lotbook/lotbook/commands/rules/money"
	"github.com/lotbook/lotbook/commands/rules/window"
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
			h, err := s.hash(password)
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

// ConfigureDepositChannel defines or redefines a deposit channel on the config stream.
func (s *Service) ConfigureDepositChannel(ctx context.Context, meta Meta, in ChannelInput) (Result, error) {
	c, err := s.Begin(meta, "config.deposit-channel")
	if err != nil {
		return Result{}, err
	}
	ch, e := channelFrom(in)
	if e != nil {
		return Result{}, e
	}
	var newHash string
	if in.Password != "" {
		if newHash, err = s.hash(in.Password); err != nil {
			return Result{}, err
		}
	}
	rec, err := Execute(ctx, s, c, events.ConfigStream, func(cfg *configState) ([]events.Payload, error) {
		return decideConfigureChannel(cfg, ch, in.Password, newHash, s.channelPasswordOK)
	})
	if err != nil {
		return Result{}, err
	}
	return Result{Position: rec.Position}, nil
}

// channelFrom validates a channel definition: id of lower-case letters, digits, '_' or '-'
// (1-32), a name, a three-letter currency, positive min <= max within the currency's minor unit,
// a valid window. The password is not part of it: ConfigureDepositChannel hashes it.
func channelFrom(in ChannelInput) (events.DepositChannelConfigured, *Error) {
	bad := Invalid(KeyInvalidRequest)
	if !validChannelID(in.ID) || strings.TrimSpace(in.Name) == "" || len([]rune(in.Name)) > 64 || !validCurrency(in.Currency) {
		return events.DepositChannelConfigured{}, bad
	}
	lo, err := money.ParseAmount(in.Min, in.Currency)
	if err != nil {
		return events.DepositChannelConfigured{}, bad
	}
	hi, err := money.ParseAmount(in.Max, in.Currency)
	if err != nil || hi.LessThan(lo) {
		return events.DepositChannelConfigured{}, bad
	}
	if window.Validate(in.Window) != nil {
		return events.DepositChannelConfigured{}, bad
	}
	ch := events.DepositChannelConfigured{
		ID: in.ID, Name: strings.TrimSpace(in.Name), Currency: in.Currency, Min: lo, Max: hi,
		Window: in.Window, Enabled: in.Enabled,
	}
	return ch, nil
}

func validChannelID(id string) bool {
	if len(id) == 0 || len(id) > 32 {
		return false
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

func validCurrency(cur string) bool {
	if len(cur) != 3 {
		return false
	}
	for i := 0; i < 3; i++ {
		if cur[i] < 'A' || cur[i] > 'Z' {
			return false
		}
	}
	return true
}

// SiteConfig is one entry of the public site config.
type SiteConfig struct{ Name, Value string }

// SetSiteConfig sets one entry of the public site config (logo, title, demo, ...).
func (s *Service) SetSiteConfig(ctx context.Context, meta Meta, in SiteConfig) (Result, error) {
	name, value := in.Name, in.Value
	c, err := s.Begin(meta, "config.site")
	if err != nil {
		return Result{}, err
	}
	if !validConfigName(name) || len(value) > 4096 {
		return Result{}, Invalid(KeyInvalidRequest)
	}
	rec, err := Execute(ctx, s, c, events.ConfigStream, func(cfg *configState) ([]events.Payload, error) {
		return decideSiteConfig(cfg, name, value)
	})
	if err != nil {
		return Result{}, err
	}
	return Result{Position: rec.Position}, nil
}

func validConfigName(n string) bool {
	if len(n) == 0 || len(n) > 64 {
		return false
	}
	for i := 0; i < len(n); i++ {
		c := n[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-' || c == '.') {
			return false
		}
	}
	return true
}

// ConfigureWithdrawalChannel defines or redefines a withdrawal channel (limits and window as
// data) on the config stream. The channel's Password is not used: withdrawals need the fund
// password instead.
func (s *Service) ConfigureWithdrawalChannel(ctx context.Context, meta Meta, in ChannelInput) (Result, error) {
	c, err := s.Begin(meta, "config.withdrawal-channel")
	if err != nil {
		return Result{}, err
	}
	dc, e := channelFrom(in)
	if e != nil {
		return Result{}, e
	}
	ch := events.WithdrawalChannelConfigured{ID: dc.ID, Name: dc.Name, Currency: dc.Currency, Min: dc.Min, Max: dc.Max,
		Window: dc.Window, Enabled: dc.Enabled}
	rec, err := Execute(ctx, s, c, events.ConfigStream, func(cfg *configState) ([]events.Payload, error) {
		return decideConfigureWithdrawalChannel(cfg, ch)
	})
	if err != nil {
		return Result{}, err
	}
	return Result{Position: rec.Position}, nil
}
