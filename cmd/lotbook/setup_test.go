package main

import (
	"context"
	"strings"
	"testing"

	"github.com/google/uuid"

	"github.com/lotbook/lotbook/commands"
	"github.com/lotbook/lotbook/commands/rules/secret"
	"github.com/lotbook/lotbook/events"
	"github.com/lotbook/lotbook/events/backend"
)

// TestFirstSetUp: on an empty data folder the CLI makes the first ops user, an invite code and a
// deposit channel with its payee; a member can then register with the code, which ops can close.
func TestFirstSetUp(t *testing.T) {
	dir := t.TempDir()
	step := func(stdin string, args ...string) string {
		t.Helper()
		out, err := lotbook(t, stdin, append(args, "--data", dir)...)
		if err != nil {
			t.Fatalf("lotbook %v: %v", args, err)
		}
		return out
	}
	if out := step("opsfirst1\n", "user", "add", "--role", "ops", "chief", "--password-stdin"); !strings.Contains(out, "ops user chief added") {
		t.Fatalf("user add said %q", out)
	}
	if out := step("", "invite", "create", "launch26"); !strings.Contains(out, "invite code LAUNCH26 issued") {
		t.Fatalf("invite create said %q", out)
	}
	if out := step("", "invite", "create"); !strings.Contains(out, "issued") {
		t.Fatalf("generated invite said %q", out)
	}
	if out := step("chan9876\n", "channel", "set", "bank", "--name", "Bank transfer", "--min", "1000", "--max", "500000",
		"--payee-bank", "台灣銀行", "--payee-branch", "館前分行", "--payee-account", "004-12345678", "--payee-name", "樂簿股份有限公司",
		"--password-stdin"); !strings.Contains(out, "deposit channel bank set") {
		t.Fatalf("channel set said %q", out)
	}
	if _, err := lotbook(t, "", "channel", "set", "bad", "--name", "x", "--min", "1", "--max", "2", "--payee-bank", "B", "--no-password", "--data", dir); err == nil ||
		!strings.Contains(err.Error(), "payee_invalid") {
		t.Fatalf("half a payee: %v", err)
	}
	if _, err := lotbook(t, "", "invite", "create", "no", "--data", dir); err == nil || !strings.Contains(err.Error(), "invite_code_invalid") {
		t.Fatalf("short code: %v", err)
	}

	ctx := context.Background()
	register := func(account string) error {
		store, err := backend.Open(ctx, dir, "")
		if err != nil {
			t.Fatal(err)
		}
		defer store.Close()
		_, err = commands.New(store, commands.Options{PasswordCost: secret.TestCost}).Register(ctx, commands.Meta{CommandID: uuid.NewString()},
			commands.RegisterInput{Account: account, Password: "member12", ConfirmPassword: "member12", InviteCode: "launch26"})
		return err
	}
	if err := register("0911111111"); err != nil {
		t.Fatalf("register with the code: %v", err)
	}
	step("", "invite", "disable", "LAUNCH26", "--reason", "launch over")
	if e, ok := commands.AsError(register("0922222222")); !ok || e.Key != commands.KeyInviterNotExist {
		t.Fatalf("register with a disabled code: %v", e)
	}
	store, err := backend.Open(ctx, dir, "")
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	recs, err := store.ReadStream(ctx, events.ConfigStream, 0)
	if err != nil || len(recs) != 1 {
		t.Fatalf("config stream: %d events, %v", len(recs), err)
	}
	ch, err := events.Decode(recs[0].Type, recs[0].Data)
	if err != nil || ch.(events.DepositChannelConfigured).Payee.Account != "004-12345678" || recs[0].Metadata.Actor != "system" {
		t.Fatalf("channel event %+v %v", ch, err)
	}
}
