package seed_test

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/lotbook/lotbook/commands"
	"github.com/lotbook/lotbook/commands/funds"
	"github.com/lotbook/lotbook/commands/rules/ipo"
	"github.com/lotbook/lotbook/commands/rules/secret"
	"github.com/lotbook/lotbook/events"
	"github.com/lotbook/lotbook/events/sqlite"
	"github.com/lotbook/lotbook/ops/seed"
)

// demoOptions are a kernel's options as serve --demo has them: the demo's sealer (the draw seeds of
// the new-share issues derive from it) and the clock, when given, the demo is dated from.
func demoOptions(clock func() time.Time) commands.Options {
	sealer, err := secret.NewSealer(secret.DevKey())
	if err != nil {
		panic(err)
	}
	return commands.Options{PasswordCost: secret.TestCost, Sealer: sealer, Clock: clock}
}

func TestDemoIsIdempotentAndLogsIn(t *testing.T) {
	ctx := context.Background()
	store, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "events.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	svc := commands.New(store, demoOptions(nil))
	if err := seed.Demo(ctx, svc); err != nil {
		t.Fatal(err)
	}
	head, err := store.Head(ctx)
	if err != nil {
		t.Fatal(err)
	}
	// A second start (and a fresh Service with a cold cache, as after a restart) writes nothing.
	for _, s := range []*commands.Service{svc, commands.New(store, demoOptions(nil))} {
		if err := seed.Demo(ctx, s); err != nil {
			t.Fatalf("second seed: %v", err)
		}
		if again, _ := store.Head(ctx); again != head {
			t.Fatalf("second seed wrote events: head %d -> %d", head, again)
		}
	}

	meta := func() commands.Meta { return commands.Meta{CommandID: uuid.NewString(), Actor: "system"} }
	for _, u := range []struct{ account, password, role string }{
		{seed.MemberAccount, seed.MemberPassword, events.RoleMember},
		{seed.OpsAccount, seed.OpsPassword, events.RoleOps},
		{seed.AuditorAccount, seed.AuditorPassword, events.RoleAuditor},
	} {
		s, err := svc.Login(ctx, meta(), commands.Login{Account: u.account, Password: u.password})
		if err != nil {
			t.Fatalf("login %s: %v", u.account, err)
		}
		if s.Role != u.role {
			t.Fatalf("%s has role %s, want %s", u.account, s.Role, u.role)
		}
	}
	if _, err := svc.VerifyFundPassword(ctx, meta(), commands.VerifyFundPassword{MemberID: events.MemberID(seed.MemberAccount), FundPassword: seed.FundPassword}); err != nil {
		t.Fatalf("fund password: %v", err)
	}
	// The withdrawal channel is seeded with its published limits, open at any hour in the demo.
	cfg, err := store.ReadStream(ctx, events.ConfigStream, 0)
	if err != nil {
		t.Fatal(err)
	}
	var withdrawals []events.WithdrawalChannelConfigured
	for _, r := range cfg {
		p, err := events.DecodeRecorded(r)
		if err != nil {
			t.Fatal(err)
		}
		if w, ok := p.(events.WithdrawalChannelConfigured); ok {
			withdrawals = append(withdrawals, w)
		}
	}
	if len(withdrawals) != 1 || withdrawals[0].ID != seed.ChannelID || withdrawals[0].Min.String() != "100" ||
		withdrawals[0].Max.String() != "500000" || !withdrawals[0].Window.AlwaysOpen || !withdrawals[0].Enabled {
		t.Fatalf("withdrawal channels %+v", withdrawals)
	}
	// The channel takes a demo deposit at any hour (AlwaysOpen) with its password.
	file := events.FileUploaded{FileID: strings.Repeat("ab", 32), ContentType: "image/png", Size: 10, Width: 1, Height: 1}
	memberID := events.MemberID(seed.MemberAccount)
	if _, err := svc.RecordUpload(ctx, meta(), memberID, file); err != nil {
		t.Fatal(err)
	}
	if _, err := funds.New(svc).RequestDeposit(ctx, meta(), memberID, funds.DepositInput{
		ChannelID: seed.ChannelID, Amount: "1000", ProofFileID: file.FileID, ChannelPassword: seed.ChannelPassword,
	}); err != nil {
		t.Fatalf("deposit on the demo channel: %v", err)
	}
}

func TestCapabilityStepsRunAfterThePlatformInOrder(t *testing.T) {
	ctx := context.Background()
	store, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "events.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	day := time.Date(2026, 11, 24, 2, 0, 0, 0, time.UTC)
	svc := commands.New(store, demoOptions(func() time.Time { return day }))
	var ran []string
	saved := seed.Steps()
	t.Cleanup(func() { seed.SetSteps(saved) })
	seed.SetSteps(nil) // the capabilities' own steps are theirs to test
	seed.Register("first", func(ctx context.Context, env seed.Env) error {
		// The platform's demo is there: the member can log in.
		if _, err := env.Kernel.Login(ctx, commands.Meta{CommandID: uuid.NewString()}, commands.Login{Account: seed.MemberAccount, Password: seed.MemberPassword}); err != nil {
			return err
		}
		if !env.Now.Equal(day) {
			t.Errorf("env.Now = %v, want the service's clock %v", env.Now, day)
		}
		ran = append(ran, "first")
		return nil
	})
	seed.Register("second", func(context.Context, seed.Env) error { ran = append(ran, "second"); return errors.New("no room") })
	err = seed.Demo(ctx, svc)
	if err == nil || !strings.Contains(err.Error(), "second: no room") {
		t.Fatalf("Demo = %v, want the failing step named", err)
	}
	if strings.Join(ran, ",") != "first,second" {
		t.Fatalf("steps ran %v", ran)
	}
}

// TestIssuesCoverEveryStateOnceADay: the demo's new-share issues are in every state on the day it
// is seeded, and seeding again the same day writes nothing.
func TestIssuesCoverEveryStateOnceADay(t *testing.T) {
	ctx := context.Background()
	store, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "events.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	now := time.Date(2026, 11, 24, 2, 0, 0, 0, time.UTC)
	if err := seed.Demo(ctx, commands.New(store, demoOptions(func() time.Time { return now }))); err != nil {
		t.Fatal(err)
	}
	head, _ := store.Head(ctx)
	later := now.Add(3 * time.Hour)
	if err := seed.Demo(ctx, commands.New(store, demoOptions(func() time.Time { return later }))); err != nil {
		t.Fatal(err)
	}
	if again, _ := store.Head(ctx); again != head {
		t.Fatalf("seeding again the same day wrote events: %d -> %d", head, again)
	}
	all, err := store.ReadAll(ctx, 0, 1000)
	if err != nil {
		t.Fatal(err)
	}
	states := map[string]int{}
	for _, r := range all {
		p, err := events.DecodeRecorded(r)
		if err != nil {
			t.Fatal(err)
		}
		if e, ok := p.(events.SubscriptionIssueListed); ok {
			cal := ipo.Calendar{OpensAt: e.OpensAt, ClosesAt: e.ClosesAt, DrawDate: e.DrawDate, DeductionDate: e.DeductionDate,
				RefundDate: e.RefundDate, ListingDate: e.ListingDate}
			states[cal.State(now)]++
		}
	}
	for _, s := range []string{ipo.NotStarted, ipo.ToSubscribe, ipo.Subscribing, ipo.Ended} {
		if states[s] == 0 {
			t.Errorf("no demo issue is %s today: %v", s, states)
		}
	}
}
