package main

import (
	"bytes"
	"context"
	"errors"
	"io"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/uuid"

	"github.com/lotbook/lotbook/commands"
	"github.com/lotbook/lotbook/commands/funds"
	"github.com/lotbook/lotbook/commands/rules/secret"
	"github.com/lotbook/lotbook/events"
	"github.com/lotbook/lotbook/events/backend"
	"github.com/lotbook/lotbook/events/sqlite/sqlitedb"
	"github.com/lotbook/lotbook/ops/seed"
)

// freshLog opens the event log of a fresh data folder, lets fill write into it, closes it and
// returns the folder for the command under test.
func freshLog(t *testing.T, fill func(ctx context.Context, store events.Store)) string {
	t.Helper()
	ctx := context.Background()
	dir := t.TempDir()
	store, err := backend.Open(ctx, dir, "")
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	fill(ctx, store)
	return dir
}

// seeded writes the demo data and one approved deposit of 2500 TWD into a fresh data folder.
func seeded(t *testing.T) string {
	t.Helper()
	return freshLog(t, func(ctx context.Context, store events.Store) {
		sealer, err := secret.NewSealer(secret.DevKey()) // the demo's offerings derive their seeds from the server's key
		if err != nil {
			t.Fatal(err)
		}
		svc := commands.New(store, commands.Options{PasswordCost: secret.TestCost, Sealer: sealer})
		if err := seed.Demo(ctx, svc); err != nil {
			t.Fatal(err)
		}
		meta := func(actor string) commands.Meta { return commands.Meta{CommandID: uuid.NewString(), Actor: actor} }
		id := events.MemberID(seed.MemberAccount)
		file := events.FileUploaded{FileID: strings.Repeat("c0", 32), ContentType: "image/png", Size: 1, Width: 1, Height: 1}
		if _, err := svc.RecordUpload(ctx, meta("member:"+seed.MemberAccount), id, file); err != nil {
			t.Fatal(err)
		}
		order, err := funds.New(svc).RequestDeposit(ctx, meta("member:"+seed.MemberAccount), id, funds.DepositInput{
			ChannelID: seed.ChannelID, Amount: "2500", ProofFileID: file.FileID, ChannelPassword: seed.ChannelPassword})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := funds.New(svc).ApproveDeposit(ctx, meta("ops:ops"), funds.ReviewOrder{MemberID: id, OrderNo: order.OrderNo, Remark: "ok"}); err != nil {
			t.Fatal(err)
		}
	})
}

func lotbook(t *testing.T, stdin string, args ...string) (string, error) {
	t.Helper()
	var out, errOut bytes.Buffer
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	err := run(context.Background(), args, strings.NewReader(stdin), &out, &errOut, log)
	return out.String(), err
}

func TestCommands(t *testing.T) {
	dir := seeded(t)

	out, err := lotbook(t, "", "replay", "--account", seed.MemberAccount, "--data", dir)
	if err != nil {
		t.Fatal(err)
	}
	// (The balance after the deposit depends on the demo's dividends, dated from today.)
	for _, want := range []string{"DepositApproved.v1", "available +2500 TWD", "ops:ops", "FundPasswordSet.v1"} {
		if !strings.Contains(out, want) {
			t.Errorf("replay output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "argon2") {
		t.Errorf("replay prints a password hash:\n%s", out)
	}

	if out, err = lotbook(t, "", "verify", "--data", dir); err != nil || !strings.Contains(out, "OK:") {
		t.Fatalf("verify: %v\n%s", err, out)
	}
	if out, err = lotbook(t, "", "rebuild", "balances", "--data", dir); err != nil || !strings.Contains(out, "rebuilt balances: ") {
		t.Fatalf("rebuild: %v\n%s", err, out)
	}
	if out, err = lotbook(t, "auditor2pw\n", "user", "add", "--role", "auditor", "auditor2", "--password-stdin", "--data", dir); err != nil ||
		!strings.Contains(out, "auditor user auditor2 added") {
		t.Fatalf("user add: %v\n%s", err, out)
	}

	// A tampered balance row makes verify fail with a report naming it.
	raw := sqlitedb.Open(filepath.Join(dir, "read.db"), false, "busy_timeout=10000")
	defer raw.Close()
	if _, err := raw.Exec("UPDATE balances SET amount = '99999' WHERE member_id = ? AND kind = 'available'", events.MemberID(seed.MemberAccount)); err != nil {
		t.Fatal(err)
	}
	out, err = lotbook(t, "", "verify", "--data", dir)
	var f failed
	if !errors.As(err, &f) || !strings.Contains(out, "FAILED") || !strings.Contains(out, "99999") {
		t.Fatalf("verify of a tampered read model: %v\n%s", err, out)
	}
}

// TestUserManagesStaff: what ops cannot do to staff in the app, `lotbook user` does on the
// server: disable, enable and reset the password of an ops or auditor account.
func TestUserManagesStaff(t *testing.T) {
	dir := seeded(t)
	login := func(account, pw string) error {
		store, err := backend.Open(context.Background(), dir, "")
		if err != nil {
			t.Fatal(err)
		}
		defer store.Close()
		_, err = commands.New(store, commands.Options{PasswordCost: secret.TestCost}).Login(context.Background(), commands.Meta{CommandID: uuid.NewString(), Actor: "ops:" + account}, commands.Login{Account: account, Password: pw})
		return err
	}
	wantKey := func(err error, key string) {
		t.Helper()
		if e, ok := commands.AsError(err); key == "" && err != nil || key != "" && (!ok || e.Key != key) {
			t.Fatalf("login: %v, want %q", err, key)
		}
	}
	step := func(stdin string, args ...string) string {
		t.Helper()
		out, err := lotbook(t, stdin, append(args, "--data", dir)...)
		if err != nil {
			t.Fatalf("lotbook %v: %v", args, err)
		}
		return out
	}
	if out := step("", "user", "disable", seed.OpsAccount, "--reason", "left the company"); !strings.Contains(out, "user ops disabled") {
		t.Fatalf("disable said %q", out)
	}
	wantKey(login(seed.OpsAccount, seed.OpsPassword), commands.KeyAccountDisabled)
	step("", "user", "enable", seed.OpsAccount, "--reason", "back")
	wantKey(login(seed.OpsAccount, seed.OpsPassword), "")
	if out := step("fresh1234\n", "user", "password", seed.OpsAccount, "--password-stdin"); !strings.Contains(out, "new password") {
		t.Fatalf("password said %q", out)
	}
	wantKey(login(seed.OpsAccount, seed.OpsPassword), commands.KeyAccountOrPasswordWrong)
	wantKey(login(seed.OpsAccount, "fresh1234"), "")
	step("", "user", "disable", seed.AuditorAccount, "--reason", "audit over")
	wantKey(login(seed.AuditorAccount, seed.AuditorPassword), commands.KeyAccountDisabled)

	// Members stay with ops; a bad password changes nothing.
	if _, err := lotbook(t, "", "user", "disable", seed.MemberAccount, "--reason", "x", "--data", dir); err == nil ||
		!strings.Contains(err.Error(), "no ops or auditor account") {
		t.Fatalf("disable a member: %v", err)
	}
	if _, err := lotbook(t, "", "user", "password", seed.OpsAccount, "--password", "short", "--data", dir); err == nil ||
		!strings.Contains(err.Error(), "password_invalid") {
		t.Fatalf("short password: %v", err)
	}
	wantKey(login(seed.OpsAccount, "fresh1234"), "")
}

func TestUsageErrors(t *testing.T) {
	dir := t.TempDir()
	for _, args := range [][]string{
		{},
		{"nonsense"},
		{"replay", "--data", dir},
		{"rebuild", "no_such_model", "--data", dir},
		{"user", "add", "--role", "member", "x", "--password", "abcd1234", "--data", dir},
		{"user", "remove"},
		{"user"},
		{"user", "disable", "ops", "--data", dir},
		{"user", "enable", "--reason", "x", "--data", dir},
		{"user", "password", "--password", "abcd1234", "--data", dir},
		{"user", "password", "ops", "--password", "abcd1234", "--password-stdin", "--data", dir},
		{"serve", "extra"},
	} {
		if _, err := lotbook(t, "", args...); !errors.Is(err, errUsage) {
			t.Errorf("lotbook %q: %v, want a usage error", args, err)
		}
	}
}

func TestParseFlagsAnywhere(t *testing.T) {
	var e env
	fs := newFlags("x", &e)
	role := fs.String("role", "", "")
	pos, err := parse(fs, []string{"add", "--role", "ops", "alice", "--data", "/tmp/d"})
	if err != nil || strings.Join(pos, ",") != "add,alice" || *role != "ops" || e.data != "/tmp/d" {
		t.Fatalf("pos %v role %q data %q err %v", pos, *role, e.data, err)
	}
}
