package main

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"io"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/uuid"
	_ "modernc.org/sqlite" // to tamper with the read model in a test

	"github.com/lotbook/lotbook/commands"
	"github.com/lotbook/lotbook/commands/rules/secret"
	"github.com/lotbook/lotbook/events"
	"github.com/lotbook/lotbook/events/backend"
	"github.com/lotbook/lotbook/ops/seed"
)

// seeded writes the demo data and one approved deposit of 2500 TWD into a fresh data folder.
func seeded(t *testing.T) string {
	t.Helper()
	ctx := context.Background()
	dir := t.TempDir()
	store, err := backend.Open(ctx, dir, "")
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	svc := commands.New(store, commands.Options{PasswordCost: secret.TestCost})
	if err := seed.Demo(ctx, svc); err != nil {
		t.Fatal(err)
	}
	meta := func(actor string) commands.Meta { return commands.Meta{CommandID: uuid.NewString(), Actor: actor} }
	id := events.MemberID(seed.MemberAccount)
	file := events.FileUploaded{FileID: strings.Repeat("c0", 32), ContentType: "image/png", Size: 1, Width: 1, Height: 1}
	if _, err := svc.RecordUpload(ctx, meta("member:"+seed.MemberAccount), id, file); err != nil {
		t.Fatal(err)
	}
	order, err := svc.RequestDeposit(ctx, meta("member:"+seed.MemberAccount), id, commands.DepositInput{
		ChannelID: seed.ChannelID, Amount: "2500", ProofFileID: file.FileID, ChannelPassword: seed.ChannelPassword})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := svc.ApproveDeposit(ctx, meta("ops:ops"), id, order.OrderNo, "ok"); err != nil {
		t.Fatal(err)
	}
	return dir
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
	for _, want := range []string{"DepositApproved.v1", "available +2500 TWD", "2500.00", "ops:ops", "FundPasswordSet.v1"} {
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
	raw, err := sql.Open("sqlite", "file:"+filepath.Join(dir, "read.db")+"?_pragma=busy_timeout(10000)")
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	if _, err := raw.Exec("UPDATE balances SET available = '99999' WHERE member_id = ?", events.MemberID(seed.MemberAccount)); err != nil {
		t.Fatal(err)
	}
	out, err = lotbook(t, "", "verify", "--data", dir)
	var f failed
	if !errors.As(err, &f) || !strings.Contains(out, "FAILED") || !strings.Contains(out, "99999") {
		t.Fatalf("verify of a tampered read model: %v\n%s", err, out)
	}
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
