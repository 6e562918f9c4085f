// Package seed writes lotbook's demo data through the command side, idempotently: every command
// carries a deterministic idempotency key, so seeding twice (every `serve --demo`) writes nothing new.
package seed

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/lotbook/lotbook/commands"
	"github.com/lotbook/lotbook/commands/funds"
	"github.com/lotbook/lotbook/commands/siteconfig"
	"github.com/lotbook/lotbook/events"
)

// Demo credentials, also listed in README.md.
const (
	InviteCode      = "LOTBOOK"
	MemberAccount   = "0912345678"
	MemberPassword  = "demo1234"
	FundPassword    = "123456"
	OpsAccount      = "ops"
	OpsPassword     = "opsdemo1"
	AuditorAccount  = "audit"
	AuditorPassword = "auditdemo1"
	ChannelID       = "bank"
	ChannelPassword = "8888"
	Title           = "lotbook"
)

// LogoPath is the logo's path relative to the app's image base /api/ (the API serves it).
const LogoPath = "logo.svg"

// seedNamespace roots the demo commands' idempotency keys.
var seedNamespace = uuid.MustParse("3d0f7a4e-5b2c-5e18-8a61-9c7b2f4d1e03")

func meta(step string) commands.Meta {
	return commands.Meta{CommandID: uuid.NewSHA1(seedNamespace, []byte(step)).String(), Actor: "system"}
}

// alreadyDone tells the refusals that mean an earlier seed (or a person) already did the step.
func alreadyDone(err error, keys ...string) bool {
	var ce *commands.Error
	if !errors.As(err, &ce) {
		return false
	}
	for _, k := range keys {
		if ce.Key == k {
			return true
		}
	}
	return false
}

// Env is what a capability's demo step seeds with: the command kernel (a capability builds its own
// commands over it) and the time the demo is dated from.
type Env struct {
	Kernel *commands.Service
	Now    time.Time
}

// Meta is the metadata of a demo command: a deterministic idempotency key from step, so that a
// second start writes nothing again.
func Meta(step string) commands.Meta { return meta(step) }

// AlreadyDone tells the refusals that mean an earlier seed (or a person) already did the step.
func AlreadyDone(err error, keys ...string) bool { return alreadyDone(err, keys...) }

type step struct {
	name string
	run  func(ctx context.Context, env Env) error
}

var steps []step

// Register adds a capability's demo step, run after the platform's demo data (members, staff,
// channels, site config) in the order registered. A capability registers it from the init of its
// own file in this package (seed_<capability>.go).
func Register(name string, run func(ctx context.Context, env Env) error) {
	steps = append(steps, step{name, run})
}

// Demo seeds the root invite code, the demo member with a fund password, the ops and auditor
// users, the always-open `bank` deposit and withdrawal channels and the site config, then every
// capability's registered step. It is safe to call on every start.
func Demo(ctx context.Context, svc *commands.Service) error {
	if err := platform(ctx, svc); err != nil {
		return err
	}
	env := Env{Kernel: svc, Now: svc.Now()}
	for _, s := range steps {
		if err := s.run(ctx, env); err != nil {
			return fmt.Errorf("seed: %s: %w", s.name, err)
		}
	}
	return nil
}

func platform(ctx context.Context, svc *commands.Service) error {
	if _, err := svc.IssueRootInviteCode(ctx, meta("invite"), InviteCode); err != nil {
		return fmt.Errorf("seed: invite code: %w", err)
	}
	_, err := svc.Register(ctx, meta("member"), commands.RegisterInput{
		Account: MemberAccount, Password: MemberPassword, ConfirmPassword: MemberPassword, InviteCode: InviteCode,
	})
	if err != nil && !alreadyDone(err, "account_exists") {
		return fmt.Errorf("seed: member %s: %w", MemberAccount, err)
	}
	_, err = svc.SetFundPassword(ctx, meta("fund-password"), commands.SetFundPassword{MemberID: events.MemberID(MemberAccount), LoginPassword: MemberPassword, FundPassword: FundPassword, Confirm: FundPassword})
	if err != nil && !alreadyDone(err, "fund_password_already_set") {
		return fmt.Errorf("seed: fund password: %w", err)
	}
	for _, u := range []struct{ account, role, password string }{
		{OpsAccount, events.RoleOps, OpsPassword},
		{AuditorAccount, events.RoleAuditor, AuditorPassword},
	} {
		if _, err := svc.AddStaff(ctx, meta("staff:"+u.account), commands.AddStaff{Account: u.account, Role: u.role, Password: u.password}); err != nil {
			return fmt.Errorf("seed: %s user %s: %w", u.role, u.account, err)
		}
	}
	if _, err := funds.New(svc).ConfigureDepositChannel(ctx, meta("channel:"+ChannelID), Channel()); err != nil {
		return fmt.Errorf("seed: channel %s: %w", ChannelID, err)
	}
	if _, err := funds.New(svc).ConfigureWithdrawalChannel(ctx, meta("withdrawal-channel:"+ChannelID), WithdrawalChannel()); err != nil {
		return fmt.Errorf("seed: withdrawal channel %s: %w", ChannelID, err)
	}
	for _, c := range [][2]string{{"title", Title}, {"logo", LogoPath}} {
		if _, err := siteconfig.New(svc).SetSiteConfig(ctx, meta("config:"+c[0]), siteconfig.SiteConfig{Name: c[0], Value: c[1]}); err != nil {
			return fmt.Errorf("seed: site config %s: %w", c[0], err)
		}
	}
	return nil
}

// Channel is the demo deposit channel: bank transfer in TWD, 1,000 to 1,000,000, weekdays
// 09:30–19:30 Taipei time and closed on exchange holidays, but always open in the demo; members
// pay into the payee's account shown on the deposit screen.
func Channel() funds.ChannelInput {
	return funds.ChannelInput{
		ID: ChannelID, Name: "Bank transfer", Currency: "TWD", Min: "1000", Max: "1000000",
		Password: ChannelPassword, Enabled: true,
		Payee: events.Payee{Bank: "004 Bank of Taiwan", Branch: "0037 Guancian", Account: "037-001-234567", Name: "Lotbook Securities"},
		Window: events.TimeWindow{Weekdays: []int{1, 2, 3, 4, 5}, Open: "09:30", Close: "19:30",
			TZ: "Asia/Taipei", ClosedOnHolidays: true, AlwaysOpen: true},
	}
}

// WithdrawalChannel is the demo withdrawal channel: bank transfer in TWD, 100 to 500,000,
// weekdays 09:00–17:00 Taipei time and closed on exchange holidays, but always open in the demo.
func WithdrawalChannel() funds.ChannelInput {
	return funds.ChannelInput{
		ID: ChannelID, Name: "Bank transfer", Currency: "TWD", Min: "100", Max: "500000", Enabled: true,
		Window: events.TimeWindow{Weekdays: []int{1, 2, 3, 4, 5}, Open: "09:00", Close: "17:00",
			TZ: "Asia/Taipei", ClosedOnHolidays: true, AlwaysOpen: true},
	}
}
