package commands_test

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/lotbook/lotbook/commands"
	"github.com/lotbook/lotbook/commands/commandstest"
	"github.com/lotbook/lotbook/commands/commandstest/scenario"
	"github.com/lotbook/lotbook/commands/funds"
	"github.com/lotbook/lotbook/commands/rules/secret"
	"github.com/lotbook/lotbook/events"
)

func TestJourney(t *testing.T) {
	f := scenario.New(t)
	f.Seed(false)

	s := f.Register("0912345678", "lotbook") // codes are case-insensitive
	if s.Token == "" || s.MemberID != events.MemberID("0912345678") || s.Role != events.RoleMember || s.Position == 0 || !s.ExpiresAt.Equal(commandstest.T0.Add(24*time.Hour)) {
		t.Fatalf("session %+v", s)
	}
	// The member's own invite code exists and names them; a second member registers with it.
	var own string
	for _, r := range f.All() {
		if r.Stream == events.MemberStream(s.MemberID) && strings.HasPrefix(r.Type, "MemberRegistered.") {
			p, _ := events.DecodeRecorded(r)
			reg := p.(events.MemberRegistered)
			own = reg.OwnInviteCode
			if reg.InviteCode != "LOTBOOK" || reg.InviterID != "" || len(own) != 7 {
				t.Fatalf("registration %+v", reg)
			}
		}
	}
	s2, err := f.Svc.Register(f.Ctx, commandstest.Meta("member"), commands.RegisterInput{Account: "a123456789", Password: "abcd1234", ConfirmPassword: "abcd1234", InviteCode: own})
	f.Must(err)
	if s2.Account != "A123456789" {
		t.Fatalf("ID account not normalised: %+v", s2)
	}

	// Registration refusals that need the store.
	_, err = f.Svc.Register(f.Ctx, commandstest.Meta("member"), commands.RegisterInput{Account: "0912345678", Password: "demo1234", ConfirmPassword: "demo1234", InviteCode: "LOTBOOK"})
	commandstest.WantKey(t, err, commands.KeyAccountExists)
	_, err = f.Svc.Register(f.Ctx, commandstest.Meta("member"), commands.RegisterInput{Account: "0912345679", Password: "demo1234", ConfirmPassword: "demo1234", InviteCode: "NOSUCH"})
	commandstest.WantKey(t, err, commands.KeyInviterNotExist)
	_, err = f.Svc.Register(f.Ctx, commandstest.Meta("member"), commands.RegisterInput{Account: "0912345679", Password: "demo1234", ConfirmPassword: "demo1234", InviteCode: "../config"})
	commandstest.WantKey(t, err, commands.KeyInviterNotExist)

	// Login: member and staff; refusals.
	l, err := f.Svc.Login(f.Ctx, commandstest.Meta("member"), commands.Login{Account: "0912345678", Password: "demo1234"})
	f.Must(err)
	if l.Token == "" || l.Token == s.Token || l.Role != events.RoleMember {
		t.Fatalf("login %+v", l)
	}
	ops, err := f.Svc.Login(f.Ctx, commandstest.Meta("ops"), commands.Login{Account: "ops", Password: "opsdemo1"})
	f.Must(err)
	if ops.Role != events.RoleOps {
		t.Fatalf("ops login %+v", ops)
	}
	_, err = f.Svc.Login(f.Ctx, commandstest.Meta("member"), commands.Login{Account: "0900000000", Password: "demo1234"})
	commandstest.WantKey(t, err, commands.KeyAccountOrPasswordWrong) // the same answer as a wrong password: no account enumeration
	_, err = f.Svc.Login(f.Ctx, commandstest.Meta("member"), commands.Login{Account: "0912345678", Password: "demo12345"})
	commandstest.WantKey(t, err, commands.KeyAccountOrPasswordWrong)
	_, err = f.Svc.Login(f.Ctx, commandstest.Meta("member"), commands.Login{Account: "", Password: "demo1234"})
	commandstest.WantKey(t, err, commands.KeyAccountRequired)

	// Deposit inside the window (Monday 11:00 Taipei), approve, balance.
	d := f.Deposit(s.MemberID, "5000.50")
	if d.Status != events.ReviewPending || !strings.HasPrefix(d.OrderNo, "D20261123") || d.Position == 0 {
		t.Fatalf("deposit %+v", d)
	}
	a, err := f.Funds.ApproveDeposit(f.Ctx, commandstest.Meta("ops:ops"), funds.ReviewOrder{MemberID: s.MemberID, OrderNo: d.OrderNo, Remark: "received"})
	f.Must(err)
	if a.Status != events.ReviewApproved || a.OrderNo != d.OrderNo || a.Position <= d.Position || !a.Balances["TWD"].Available.Equal(decimal.RequireFromString("5000.5")) {
		t.Fatalf("approve %+v", a)
	}
	_, err = f.Funds.ApproveDeposit(f.Ctx, commandstest.Meta("ops:ops"), funds.ReviewOrder{MemberID: s.MemberID, OrderNo: d.OrderNo, Remark: ""})
	commandstest.WantKey(t, err, commands.KeyOrderNotPending)
	_, err = f.Funds.ApproveDeposit(f.Ctx, commandstest.Meta("ops:ops"), funds.ReviewOrder{MemberID: s.MemberID, OrderNo: "D000", Remark: ""})
	commandstest.WantKey(t, err, commands.KeyOrderNotFound)

	// Reject needs a remark and moves nothing.
	d2 := f.Deposit(s.MemberID, "2000")
	_, err = f.Funds.RejectDeposit(f.Ctx, commandstest.Meta("ops:ops"), funds.ReviewOrder{MemberID: s.MemberID, OrderNo: d2.OrderNo, Remark: "  "})
	commandstest.WantKey(t, err, commands.KeyRemarkRequired)
	rj, err := f.Funds.RejectDeposit(f.Ctx, commandstest.Meta("ops:ops"), funds.ReviewOrder{MemberID: s.MemberID, OrderNo: d2.OrderNo, Remark: "proof unreadable"})
	f.Must(err)
	if rj.Status != events.ReviewRejected || !rj.Balances["TWD"].Available.Equal(decimal.RequireFromString("5000.5")) {
		t.Fatalf("reject %+v", rj)
	}

	// Outside the window: 20:00 Taipei.
	f.Clock.Add(9 * time.Hour)
	_, err = f.Funds.RequestDeposit(f.Ctx, commandstest.Meta("member"), s.MemberID, funds.DepositInput{ChannelID: "bank", Amount: "5000", ProofFileID: f.Upload(s.MemberID), ChannelPassword: "8888"})
	commandstest.WantKey(t, err, commands.KeyDepositWindowClosed)

	// Logout closes the session.
	out, err := f.Svc.Logout(f.Ctx, commandstest.Meta("member"), commands.Logout{MemberID: s.MemberID, Token: l.Token})
	f.Must(err)
	if out.Position == 0 {
		t.Fatal("logout position")
	}

	all := f.CheckLog()
	for typ, want := range map[string]int{"MemberRegistered": 4, "InviteCodeIssued": 3, "SessionOpened": 4, "SessionClosed": 1, "DepositRequested": 2, "DepositApproved": 1, "DepositRejected": 1, "FileUploaded": 3, "DepositChannelConfigured": 1} {
		if got := commandstest.Count(all, typ); got != want {
			t.Errorf("%d %s events, want %d", got, typ, want)
		}
	}
	// The ops decision names its actor.
	for _, r := range all {
		if strings.HasPrefix(r.Type, "DepositApproved.") && r.Metadata.Actor != "ops:ops" {
			t.Errorf("approval actor %q", r.Metadata.Actor)
		}
	}
}

func TestDepositRefusalsAgainstTheStore(t *testing.T) {
	f := scenario.New(t)
	f.Seed(false)
	s := f.Register("0912345678", "LOTBOOK")
	other := f.Register("0922222222", "LOTBOOK")
	proof := f.Upload(s.MemberID)
	theirs := f.Upload(other.MemberID)
	ok := funds.DepositInput{ChannelID: "bank", Amount: "5000", ProofFileID: proof, ChannelPassword: "8888"}
	with := func(fn func(*funds.DepositInput)) funds.DepositInput { in := ok; fn(&in); return in }
	tests := []struct {
		name string
		in   funds.DepositInput
		key  string
	}{
		{"unknown channel", with(func(in *funds.DepositInput) { in.ChannelID = "cash" }), commands.KeyChannelNotFound},
		{"no amount", with(func(in *funds.DepositInput) { in.Amount = "" }), commands.KeyAmountRequired},
		{"exponent", with(func(in *funds.DepositInput) { in.Amount = "1e4" }), commands.KeyAmountInvalid},
		{"below", with(func(in *funds.DepositInput) { in.Amount = "999" }), commands.KeyAmountBelowMinimum},
		{"above", with(func(in *funds.DepositInput) { in.Amount = "1000001" }), commands.KeyAmountAboveMaximum},
		{"no proof", with(func(in *funds.DepositInput) { in.ProofFileID = "" }), commands.KeyDepositProofRequired},
		{"someone else's proof", with(func(in *funds.DepositInput) { in.ProofFileID = theirs }), commands.KeyFileNotFound},
		{"wrong channel password", with(func(in *funds.DepositInput) { in.ChannelPassword = "1234" }), commands.KeyChannelPasswordWrong},
	}
	for _, tc := range tests {
		_, err := f.Funds.RequestDeposit(f.Ctx, commandstest.Meta("member"), s.MemberID, tc.in)
		if e, _ := commands.AsError(err); e == nil || e.Key != tc.key {
			t.Errorf("%s: %v, want %s", tc.name, err, tc.key)
		}
	}
	// Staff cannot deposit; unknown member ids are refused before any stream is named.
	ops := events.MemberID("ops")
	_, err := f.Funds.RequestDeposit(f.Ctx, commandstest.Meta("ops"), ops, ok)
	commandstest.WantKey(t, err, commands.KeyAccountNotExist)
	_, err = f.Funds.RequestDeposit(f.Ctx, commandstest.Meta("x"), "../config", ok)
	commandstest.WantKey(t, err, commands.KeyAccountNotExist)

	// A closed channel, then flags.
	_, err = f.Funds.ConfigureDepositChannel(f.Ctx, commandstest.Meta("ops:ops"), funds.ChannelInput{ID: "bank", Name: "Bank transfer", Currency: "TWD", Min: "1000", Max: "1000000",
		Window: events.TimeWindow{AlwaysOpen: true}, Enabled: false})
	f.Must(err)
	_, err = f.Funds.RequestDeposit(f.Ctx, commandstest.Meta("member"), s.MemberID, ok)
	commandstest.WantKey(t, err, commands.KeyChannelClosed)
	_, err = f.Funds.ConfigureDepositChannel(f.Ctx, commandstest.Meta("ops:ops"), funds.ChannelInput{ID: "bank", Name: "Bank transfer", Currency: "TWD", Min: "1000", Max: "1000000",
		Window: events.TimeWindow{AlwaysOpen: true}, Enabled: true})
	f.Must(err)
	f.Clock.Add(12 * time.Hour) // 23:00 Taipei: the window is now always open
	if _, err := f.Funds.RequestDeposit(f.Ctx, commandstest.Meta("member"), s.MemberID, ok); err != nil {
		t.Fatalf("always-open channel (password kept from before): %v", err)
	}
	_, err = f.Svc.SetAccountFlag(f.Ctx, commandstest.Meta("ops:ops"), commands.SetFlag{Account: "0912345678", Flag: events.FlagFrozen, On: true, Reason: "review"})
	f.Must(err)
	_, err = f.Funds.RequestDeposit(f.Ctx, commandstest.Meta("member"), s.MemberID, ok)
	commandstest.WantKey(t, err, commands.KeyAccountFrozen)
	_, err = f.Svc.SetAccountFlag(f.Ctx, commandstest.Meta("ops:ops"), commands.SetFlag{Account: "0912345678", Flag: events.FlagDisabled, On: true, Reason: "closed"})
	f.Must(err)
	_, err = f.Funds.RequestDeposit(f.Ctx, commandstest.Meta("member"), s.MemberID, ok)
	commandstest.WantKey(t, err, commands.KeyAccountDisabled)
	f.CheckLog()
}

func TestFlags(t *testing.T) {
	f := scenario.New(t)
	f.Seed(true)
	f.Register("0912345678", "LOTBOOK")
	login := func() error {
		_, err := f.Svc.Login(f.Ctx, commandstest.Meta("member"), commands.Login{Account: "0912345678", Password: "demo1234"})
		return err
	}
	set := func(flag string, on bool) {
		_, err := f.Svc.SetAccountFlag(f.Ctx, commandstest.Meta("ops:ops"), commands.SetFlag{Account: "0912345678", Flag: flag, On: on, Reason: "because"})
		f.Must(err)
	}
	tests := []struct {
		flag, key string
	}{
		{events.FlagLoginBanned, commands.KeyLoginBanned},
		{events.FlagFrozen, commands.KeyAccountFrozen},
		{events.FlagDisabled, commands.KeyAccountDisabled},
		{events.FlagTradeBanned, ""},
		{events.FlagWithdrawalBanned, ""},
	}
	for _, tc := range tests {
		set(tc.flag, true)
		commandstest.WantKey(t, login(), tc.key)
		set(tc.flag, false)
		commandstest.WantKey(t, login(), "")
	}
	_, err := f.Svc.SetAccountFlag(f.Ctx, commandstest.Meta("ops:ops"), commands.SetFlag{Account: "0912345678", Flag: "banned", On: true, Reason: "x"})
	commandstest.WantKey(t, err, commands.KeyFlagInvalid)
	_, err = f.Svc.SetAccountFlag(f.Ctx, commandstest.Meta("ops:ops"), commands.SetFlag{Account: "0912345678", Flag: events.FlagFrozen, On: true, Reason: ""})
	commandstest.WantKey(t, err, commands.KeyRemarkRequired)
	_, err = f.Svc.SetAccountFlag(f.Ctx, commandstest.Meta("ops:ops"), commands.SetFlag{Account: "0900000000", Flag: events.FlagFrozen, On: true, Reason: "x"})
	commandstest.WantKey(t, err, commands.KeyAccountNotExist)
	// Setting a flag to what it is writes nothing.
	before := len(f.All())
	set(events.FlagFrozen, false)
	if len(f.All()) != before {
		t.Error("no-op flag change wrote an event")
	}
}

// TestStaffManagedOnlyOnTheServer: ops cannot flag staff; the server operator's commands
// disable, enable and reset them, and a reset ends the user's sessions.
func TestStaffManagedOnlyOnTheServer(t *testing.T) {
	f := scenario.New(t)
	f.Seed(true)
	before := len(f.All())
	for _, account := range []string{"ops", "audit"} {
		for _, flag := range events.AllFlags {
			_, err := f.Svc.SetAccountFlag(f.Ctx, commandstest.Meta("ops:ops"), commands.SetFlag{Account: account, Flag: flag, On: true, Reason: "takeover"})
			commandstest.WantKey(t, err, commands.KeyStaffAccountProtected)
		}
	}
	if len(f.All()) != before {
		t.Fatal("a refused flag change wrote events")
	}
	login := func(pw string) error {
		_, err := f.Svc.Login(f.Ctx, commandstest.Meta("ops:ops"), commands.Login{Account: "ops", Password: pw})
		return err
	}
	_, err := f.Svc.SetStaffFlag(f.Ctx, commandstest.Meta("system"), commands.SetFlag{Account: "ops", Flag: events.FlagDisabled, On: true, Reason: "left the company"})
	f.Must(err)
	commandstest.WantKey(t, login("opsdemo1"), commands.KeyAccountDisabled)
	_, err = f.Svc.SetStaffFlag(f.Ctx, commandstest.Meta("system"), commands.SetFlag{Account: "ops", Flag: events.FlagDisabled, On: false, Reason: "back"})
	f.Must(err)
	f.Must(login("opsdemo1"))
	_, err = f.Svc.ResetStaffPassword(f.Ctx, commandstest.Meta("system"), commands.StaffPassword{Account: "ops", Password: "fresh1234"})
	f.Must(err)
	commandstest.WantKey(t, login("opsdemo1"), commands.KeyAccountOrPasswordWrong)
	f.Must(login("fresh1234"))
	_, err = f.Svc.ResetStaffPassword(f.Ctx, commandstest.Meta("system"), commands.StaffPassword{Account: "ops", Password: "short"})
	commandstest.WantKey(t, err, commands.KeyPasswordInvalid)
	f.Register("0912345678", "LOTBOOK")
	_, err = f.Svc.SetStaffFlag(f.Ctx, commandstest.Meta("system"), commands.SetFlag{Account: "0912345678", Flag: events.FlagDisabled, On: true, Reason: "x"})
	commandstest.WantKey(t, err, commands.KeyAccountNotExist)
	_, err = f.Svc.ResetStaffPassword(f.Ctx, commandstest.Meta("system"), commands.StaffPassword{Account: "0912345678", Password: "fresh1234"})
	commandstest.WantKey(t, err, commands.KeyAccountNotExist)
	f.CheckLog()
}

// TestChannelPasswordsAreArgon2id: a channel's event carries an argon2id hash, never the
// password nor its plain SHA-256; a channel configured before (SHA-256 in a stored event) still
// takes deposits, and giving its password again re-hashes it.
func TestChannelPasswordsAreArgon2id(t *testing.T) {
	f := scenario.New(t)
	f.Seed(true)
	s := f.Register("0912345678", "LOTBOOK")
	deposit := func(channel, pw string) error {
		_, err := f.Funds.RequestDeposit(f.Ctx, commandstest.Meta("member"), s.MemberID, funds.DepositInput{ChannelID: channel, Amount: "1000", ProofFileID: f.Upload(s.MemberID), ChannelPassword: pw})
		return err
	}
	channelEvents := func() []string {
		var out []string
		for _, r := range f.All() {
			if strings.HasPrefix(r.Type, "DepositChannelConfigured.") {
				out = append(out, string(r.Data))
			}
		}
		return out
	}
	for _, data := range channelEvents() {
		if !strings.Contains(data, `"passwordHash":"$argon2id$`) || strings.Contains(data, "8888") || strings.Contains(data, secret.SHA256Hex("8888")) {
			t.Fatalf("channel event %s", data)
		}
	}
	f.Must(deposit("bank", "8888"))
	commandstest.WantKey(t, deposit("bank", "8889"), commands.KeyChannelPasswordWrong)
	commandstest.WantKey(t, deposit("bank", ""), commands.KeyChannelPasswordWrong)
	f.Must(deposit("bank", "8888")) // from the memo this time, same answer

	// The same password again is the same definition: nothing written.
	bank := funds.ChannelInput{ID: "bank", Name: "Bank transfer", Currency: "TWD", Min: "1000", Max: "1000000", Password: "8888", Enabled: true,
		Window: events.TimeWindow{Weekdays: []int{1, 2, 3, 4, 5}, Open: "09:30", Close: "19:30", TZ: "Asia/Taipei", ClosedOnHolidays: true, AlwaysOpen: true}}
	before := len(channelEvents())
	_, err := f.Funds.ConfigureDepositChannel(f.Ctx, commandstest.Meta("ops:ops"), bank)
	f.Must(err)
	if n := len(channelEvents()); n != before {
		t.Fatalf("reconfiguring with the same password wrote %d events", n-before)
	}

	// A channel stored before argon2id, with the SHA-256 of its password.
	w := events.TimeWindow{AlwaysOpen: true}
	old := events.DepositChannelConfigured{ID: "legacy", Name: "Old desk", Currency: "TWD", Min: decimal.NewFromInt(1000), Max: decimal.NewFromInt(5000),
		PasswordHash: secret.SHA256Hex("1234"), Window: w, Enabled: true}
	typ, data, err := events.Encode(old)
	f.Must(err)
	_, err = f.Store.Append(f.Ctx, events.ConfigStream, events.AnyVersion, []events.EventData{{ID: events.EventID("legacy", events.ConfigStream, 0), Type: typ, Data: data,
		Metadata: events.Metadata{CommandID: "legacy", Actor: "system", CorrelationID: "legacy", CausationID: "legacy", ServerTime: commandstest.T0}}})
	f.Must(err)
	f.Svc = f.Service() // a process that reads the log anew
	f.Funds = funds.New(f.Svc)
	f.Must(deposit("legacy", "1234"))
	commandstest.WantKey(t, deposit("legacy", "1235"), commands.KeyChannelPasswordWrong)
	_, err = f.Funds.ConfigureDepositChannel(f.Ctx, commandstest.Meta("ops:ops"), funds.ChannelInput{ID: "legacy", Name: "Old desk", Currency: "TWD", Min: "1000", Max: "5000", Password: "1234", Window: w, Enabled: true})
	f.Must(err)
	all := channelEvents()
	if last := all[len(all)-1]; !strings.Contains(last, `"id":"legacy"`) || !strings.Contains(last, `"passwordHash":"$argon2id$`) {
		t.Fatalf("giving the password again kept the SHA-256: %s", last)
	}
	f.Must(deposit("legacy", "1234"))
	commandstest.WantKey(t, deposit("legacy", "1235"), commands.KeyChannelPasswordWrong)
	f.CheckLog()
}

func TestPasswords(t *testing.T) {
	f := scenario.New(t)
	f.Seed(true)
	s := f.Register("0912345678", "LOTBOOK")
	_, err := f.Svc.ChangeLoginPassword(f.Ctx, commandstest.Meta("member"), commands.ChangePassword{MemberID: s.MemberID, Old: "wrong123", New: "new12345", Confirm: "new12345"})
	commandstest.WantKey(t, err, commands.KeyOldPasswordWrong)
	_, err = f.Svc.ChangeLoginPassword(f.Ctx, commandstest.Meta("member"), commands.ChangePassword{MemberID: s.MemberID, Old: "demo1234", New: "new12345", Confirm: "new12346"})
	commandstest.WantKey(t, err, commands.KeyPasswordsInconsistent)
	_, err = f.Svc.ChangeLoginPassword(f.Ctx, commandstest.Meta("member"), commands.ChangePassword{MemberID: s.MemberID, Old: "demo1234", New: "new12345", Confirm: "new12345"})
	f.Must(err)
	// Every session ended.
	n, err := commands.View(f.Ctx, f.Svc, events.MemberStream(s.MemberID), func(m *commands.Member, _ *commands.Entry) int { return commands.OpenSessions(m) })
	f.Must(err)
	if n != 0 {
		t.Fatalf("%d sessions survive a password change", n)
	}
	_, err = f.Svc.Login(f.Ctx, commandstest.Meta("member"), commands.Login{Account: "0912345678", Password: "demo1234"})
	commandstest.WantKey(t, err, commands.KeyAccountOrPasswordWrong)
	_, err = f.Svc.Login(f.Ctx, commandstest.Meta("member"), commands.Login{Account: "0912345678", Password: "new12345"})
	f.Must(err)

	// Fund password: set once with the login password.
	_, err = f.Svc.SetFundPassword(f.Ctx, commandstest.Meta("member"), commands.SetFundPassword{MemberID: s.MemberID, LoginPassword: "demo1234", FundPassword: "123456", Confirm: "123456"})
	commandstest.WantKey(t, err, commands.KeyAccountOrPasswordWrong)
	_, err = f.Svc.VerifyFundPassword(f.Ctx, commandstest.Meta("member"), commands.VerifyFundPassword{MemberID: s.MemberID, FundPassword: "123456"})
	commandstest.WantKey(t, err, commands.KeyFundPasswordNotSet)
	_, err = f.Svc.SetFundPassword(f.Ctx, commandstest.Meta("member"), commands.SetFundPassword{MemberID: s.MemberID, LoginPassword: "new12345", FundPassword: "123456", Confirm: "123456"})
	f.Must(err)
	_, err = f.Svc.SetFundPassword(f.Ctx, commandstest.Meta("member"), commands.SetFundPassword{MemberID: s.MemberID, LoginPassword: "new12345", FundPassword: "654321", Confirm: "654321"})
	commandstest.WantKey(t, err, commands.KeyFundPasswordAlreadySet)
	_, err = f.Svc.VerifyFundPassword(f.Ctx, commandstest.Meta("member"), commands.VerifyFundPassword{MemberID: s.MemberID, FundPassword: "123456"})
	f.Must(err)

	// Four wrong tries, the fifth locks; then even the right one is refused for 24 hours.
	for i := 1; i <= 4; i++ {
		f.Clock.Add(time.Minute)
		_, err = f.Svc.VerifyFundPassword(f.Ctx, commandstest.Meta("member"), commands.VerifyFundPassword{MemberID: s.MemberID, FundPassword: "000000"})
		commandstest.WantKey(t, err, commands.KeyFundPasswordWrong)
	}
	// The same command replayed is the same answer and writes nothing more.
	m := commandstest.Meta("member")
	_, err = f.Svc.VerifyFundPassword(f.Ctx, m, commands.VerifyFundPassword{MemberID: s.MemberID, FundPassword: "000000"})
	commandstest.WantKey(t, err, commands.KeyFundPasswordLocked)
	_, err = f.Svc.VerifyFundPassword(f.Ctx, m, commands.VerifyFundPassword{MemberID: s.MemberID, FundPassword: "000000"})
	commandstest.WantKey(t, err, commands.KeyFundPasswordLocked)
	_, err = f.Svc.VerifyFundPassword(f.Ctx, commandstest.Meta("member"), commands.VerifyFundPassword{MemberID: s.MemberID, FundPassword: "123456"})
	commandstest.WantKey(t, err, commands.KeyFundPasswordLocked)
	_, err = f.Svc.ChangeFundPassword(f.Ctx, commandstest.Meta("member"), commands.ChangePassword{MemberID: s.MemberID, Old: "123456", New: "654321", Confirm: "654321"})
	commandstest.WantKey(t, err, commands.KeyFundPasswordLocked)
	if got := commandstest.Count(f.All(), "FundPasswordRejected"); got != 5 {
		t.Fatalf("%d rejections recorded, want 5", got)
	}
	f.Clock.Add(24 * time.Hour)
	_, err = f.Svc.VerifyFundPassword(f.Ctx, commandstest.Meta("member"), commands.VerifyFundPassword{MemberID: s.MemberID, FundPassword: "123456"})
	f.Must(err)
	_, err = f.Svc.ChangeFundPassword(f.Ctx, commandstest.Meta("member"), commands.ChangePassword{MemberID: s.MemberID, Old: "111111", New: "654321", Confirm: "654321"})
	commandstest.WantKey(t, err, commands.KeyFundPasswordWrong)
	_, err = f.Svc.ChangeFundPassword(f.Ctx, commandstest.Meta("member"), commands.ChangePassword{MemberID: s.MemberID, Old: "123456", New: "654321", Confirm: "654321"})
	f.Must(err)
	_, err = f.Svc.VerifyFundPassword(f.Ctx, commandstest.Meta("member"), commands.VerifyFundPassword{MemberID: s.MemberID, FundPassword: "654321"})
	f.Must(err)
	f.CheckLog()
}

func TestIdempotentReplay(t *testing.T) {
	f := scenario.New(t)
	f.Seed(true)
	m := commandstest.Meta("member")
	in := commands.RegisterInput{Account: "0912345678", Password: "demo1234", ConfirmPassword: "demo1234", InviteCode: "LOTBOOK"}
	first, err := f.Svc.Register(f.Ctx, m, in)
	f.Must(err)
	again, err := f.Svc.Register(f.Ctx, m, in)
	f.Must(err)
	// Another instance (empty cache) gives the same answer too.
	fresh, err := f.Service().Register(f.Ctx, m, in)
	f.Must(err)
	for _, s := range []commands.Session{again, fresh} {
		if s.MemberID != first.MemberID || s.Position != first.Position || !s.ExpiresAt.Equal(first.ExpiresAt) || s.Token != "" {
			t.Fatalf("replayed registration %+v, first %+v", s, first)
		}
	}

	proof := f.Upload(first.MemberID)
	dm := commandstest.Meta("member")
	din := funds.DepositInput{ChannelID: "bank", Amount: "5000", ProofFileID: proof, ChannelPassword: "8888"}
	d1, err := f.Funds.RequestDeposit(f.Ctx, dm, first.MemberID, din)
	f.Must(err)
	f.Clock.Add(48 * time.Hour) // a retry days later still answers with the same order
	d2, err := f.Funds.RequestDeposit(f.Ctx, dm, first.MemberID, din)
	f.Must(err)
	d3, err := funds.New(f.Service()).RequestDeposit(f.Ctx, dm, first.MemberID, din)
	f.Must(err)
	if d1.OrderNo != d2.OrderNo || d1.Position != d2.Position || d1.OrderNo != d3.OrderNo || d1.Position != d3.Position {
		t.Fatalf("replayed deposit %+v %+v %+v", d1, d2, d3)
	}

	am := commandstest.Meta("ops:ops")
	a1, err := f.Funds.ApproveDeposit(f.Ctx, am, funds.ReviewOrder{MemberID: first.MemberID, OrderNo: d1.OrderNo, Remark: "ok"})
	f.Must(err)
	a2, err := funds.New(f.Service()).ApproveDeposit(f.Ctx, am, funds.ReviewOrder{MemberID: first.MemberID, OrderNo: d1.OrderNo, Remark: "ok"})
	f.Must(err)
	if a1.Position != a2.Position || a2.Status != events.ReviewApproved || !a2.Balances["TWD"].Available.Equal(decimal.NewFromInt(5000)) {
		t.Fatalf("replayed approval %+v vs %+v", a2, a1)
	}
	// A key reused for another kind of command does not pretend to be a deposit.
	_, err = f.Funds.RequestDeposit(f.Ctx, am, first.MemberID, din)
	if err == nil {
		t.Fatal("approval key reused for a request answered as a deposit")
	}

	all := f.CheckLog()
	for typ, want := range map[string]int{"MemberRegistered": 3, "DepositRequested": 1, "DepositApproved": 1} {
		if got := commandstest.Count(all, typ); got != want {
			t.Errorf("%d %s events, want %d", got, typ, want)
		}
	}
}

// TestConcurrentDoubleApprove: 20 approvals of one deposit race, on two service instances over
// one store (so conflicts go through the store's expected-version check too); it credits once.
func TestConcurrentDoubleApprove(t *testing.T) {
	f := scenario.New(t)
	f.Seed(true)
	s := f.Register("0912345678", "LOTBOOK")
	d := f.Deposit(s.MemberID, "5000")
	kernels := []*commands.Service{f.Svc, f.Service(), f.Service(func(o *commands.Options) { o.MaxAttempts = 50 })}
	instances := []*funds.Commands{f.Funds, funds.New(kernels[1]), funds.New(kernels[2])}

	var ok, notPending atomic.Int32
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := 0; i < 20; i++ {
		wg.Add(1)
		go func(svc *funds.Commands) {
			defer wg.Done()
			<-start
			_, err := svc.ApproveDeposit(f.Ctx, commandstest.Meta("ops:ops"), funds.ReviewOrder{MemberID: s.MemberID, OrderNo: d.OrderNo, Remark: ""})
			switch e, _ := commands.AsError(err); {
			case err == nil:
				ok.Add(1)
			case e != nil && e.Key == commands.KeyOrderNotPending:
				notPending.Add(1)
			default:
				t.Errorf("approve: %v", err)
			}
		}(instances[i%len(instances)])
	}
	close(start)
	wg.Wait()
	t.Logf("write conflicts retried: %d", kernels[0].Conflicts()+kernels[1].Conflicts()+kernels[2].Conflicts())
	if ok.Load() != 1 || notPending.Load() != 19 {
		t.Fatalf("%d approvals succeeded, %d refused as not pending", ok.Load(), notPending.Load())
	}
	all := f.CheckLog()
	if got := commandstest.Count(all, "DepositApproved"); got != 1 {
		t.Fatalf("%d DepositApproved events", got)
	}
	var credited decimal.Decimal
	for _, r := range all {
		p, _ := events.DecodeRecorded(r)
		if m, ok := p.(events.MovesMoney); ok {
			for _, leg := range m.MoneyPostings() {
				if leg.Account == events.MemberAvailable(s.MemberID) {
					credited = credited.Add(leg.Amount)
				}
			}
		}
	}
	if !credited.Equal(decimal.NewFromInt(5000)) {
		t.Fatalf("credited %s", credited)
	}
}

// TestConcurrentDepositsAcrossInstances: many deposits of one member from two instances all land,
// each once, and the write-side balance equals the sum.
func TestConcurrentDepositsAcrossInstances(t *testing.T) {
	f := scenario.New(t)
	f.Seed(true)
	s := f.Register("0912345678", "LOTBOOK")
	patient := func(o *commands.Options) { o.MaxAttempts = 100 }
	k1, k2 := f.Service(patient), f.Service(patient)
	first, other := funds.New(k1), funds.New(k2)
	var wg sync.WaitGroup
	orders := make([]string, 40)
	proofs := make([]string, len(orders)) // one proof backs one deposit
	for i := range proofs {
		proofs[i] = f.Upload(s.MemberID)
	}
	for i := range orders {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			svc := first
			if i%2 == 1 {
				svc = other
			}
			r, err := svc.RequestDeposit(f.Ctx, commandstest.Meta("member"), s.MemberID, funds.DepositInput{ChannelID: "bank", Amount: "1000", ProofFileID: proofs[i], ChannelPassword: "8888"})
			if err != nil {
				t.Errorf("deposit %d: %v", i, err)
				return
			}
			a, err := svc.ApproveDeposit(f.Ctx, commandstest.Meta("ops:ops"), funds.ReviewOrder{MemberID: s.MemberID, OrderNo: r.OrderNo, Remark: ""})
			if err != nil {
				t.Errorf("approve %d: %v", i, err)
				return
			}
			orders[i] = a.OrderNo
		}(i)
	}
	wg.Wait()
	seen := map[string]bool{}
	for _, o := range orders {
		if seen[o] {
			t.Fatalf("order number %s twice", o)
		}
		seen[o] = true
	}
	t.Logf("write conflicts retried: %d", k1.Conflicts()+k2.Conflicts())
	bal, err := commands.View(f.Ctx, f.Service(), events.AccountStream(s.MemberID), func(a *commands.Account, _ *commands.Entry) commands.Balance { return a.Balances["TWD"] })
	f.Must(err)
	if !bal.Available.Equal(decimal.NewFromInt(40000)) {
		t.Fatalf("balance %s, want 40000", bal.Available)
	}
	f.CheckLog()
}

func TestSmallCacheEvicts(t *testing.T) {
	f := scenario.New(t, func(o *commands.Options) { o.CacheStreams = 2 })
	f.Seed(true)
	var members []commands.Session
	for i := 0; i < 5; i++ {
		members = append(members, f.Register(fmt.Sprintf("09%08d", i), "LOTBOOK"))
	}
	for _, m := range members {
		d := f.Deposit(m.MemberID, "1500")
		if _, err := f.Funds.ApproveDeposit(f.Ctx, commandstest.Meta("ops:ops"), funds.ReviewOrder{MemberID: m.MemberID, OrderNo: d.OrderNo, Remark: ""}); err != nil {
			t.Fatal(err)
		}
	}
	if n := commands.CachedStreams(f.Svc); n > 2 {
		t.Fatalf("cache holds %d streams, cap 2", n)
	}
	f.CheckLog()
}

// The cache's event budget bounds its memory however few streams it holds: loading streams past
// the budget evicts the least recently used, and its count stays the sum of what its entries hold.
func TestCacheEventBudgetEvicts(t *testing.T) {
	const budget = 40
	f := scenario.New(t, func(o *commands.Options) { o.CacheEvents = budget })
	f.Seed(true)
	for i := range 8 {
		m := f.Register(fmt.Sprintf("09%08d", i), "LOTBOOK")
		d := f.Deposit(m.MemberID, "1500")
		if _, err := f.Funds.ApproveDeposit(f.Ctx, commandstest.Meta("ops:ops"), funds.ReviewOrder{MemberID: m.MemberID, OrderNo: d.OrderNo, Remark: ""}); err != nil {
			t.Fatal(err)
		}
	}
	counted, held := commands.CachedEvents(f.Svc)
	if counted != held {
		t.Fatalf("cache counts %d events, its entries hold %d", counted, held)
	}
	if counted > budget {
		t.Fatalf("cache holds %d events, budget %d", counted, budget)
	}
	if counted == 0 || commands.CachedStreams(f.Svc) < 2 {
		t.Fatalf("cache holds %d events in %d streams: the budget evicted everything", counted, commands.CachedStreams(f.Svc))
	}
	f.CheckLog()
}

func TestStaffAndConfig(t *testing.T) {
	f := scenario.New(t)
	f.Seed(true)
	f.Seed(true) // the seed is idempotent even with fresh command ids
	all := f.All()
	for typ, want := range map[string]int{"MemberRegistered": 2, "InviteCodeIssued": 1, "DepositChannelConfigured": 1} {
		if got := commandstest.Count(all, typ); got != want {
			t.Errorf("%d %s after seeding twice, want %d", got, typ, want)
		}
	}
	_, err := f.Svc.AddStaff(f.Ctx, commandstest.Meta("system"), commands.AddStaff{Account: "ops", Role: events.RoleAuditor, Password: "opsdemo1"})
	commandstest.WantKey(t, err, commands.KeyAccountExists)
	_, err = f.Svc.AddStaff(f.Ctx, commandstest.Meta("system"), commands.AddStaff{Account: "0912345678", Role: events.RoleOps, Password: "opsdemo1"})
	commandstest.WantKey(t, err, commands.KeyAccountInvalid)
	_, err = f.Svc.AddStaff(f.Ctx, commandstest.Meta("system"), commands.AddStaff{Account: "boss", Role: "admin", Password: "opsdemo1"})
	commandstest.WantKey(t, err, commands.KeyInvalidRequest)
	_, err = f.Svc.AddStaff(f.Ctx, commandstest.Meta("system"), commands.AddStaff{Account: "boss", Role: events.RoleOps, Password: "short"})
	commandstest.WantKey(t, err, commands.KeyPasswordInvalid)

	s := f.Register("0912345678", "LOTBOOK")
	var own string
	for _, r := range f.All() {
		if r.Stream == events.MemberStream(s.MemberID) {
			if p, _ := events.DecodeRecorded(r); p != nil {
				if reg, ok := p.(events.MemberRegistered); ok {
					own = reg.OwnInviteCode
				}
			}
		}
	}
	_, err = f.Svc.IssueRootInviteCode(f.Ctx, commandstest.Meta("system"), own)
	commandstest.WantKey(t, err, commands.KeyInviteCodeExists)
	_, err = f.Svc.IssueRootInviteCode(f.Ctx, commandstest.Meta("system"), "no")
	commandstest.WantKey(t, err, commands.KeyInviteCodeInvalid)

	bad := []funds.ChannelInput{
		{ID: "Bank", Name: "x", Currency: "TWD", Min: "1", Max: "2", Window: events.TimeWindow{AlwaysOpen: true}},
		{ID: "bank", Name: "", Currency: "TWD", Min: "1", Max: "2", Window: events.TimeWindow{AlwaysOpen: true}},
		{ID: "bank", Name: "x", Currency: "twd", Min: "1", Max: "2", Window: events.TimeWindow{AlwaysOpen: true}},
		{ID: "bank", Name: "x", Currency: "TWD", Min: "3", Max: "2", Window: events.TimeWindow{AlwaysOpen: true}},
		{ID: "bank", Name: "x", Currency: "TWD", Min: "0", Max: "2", Window: events.TimeWindow{AlwaysOpen: true}},
		{ID: "bank", Name: "x", Currency: "JPY", Min: "1.5", Max: "2", Window: events.TimeWindow{AlwaysOpen: true}},
		{ID: "bank", Name: "x", Currency: "TWD", Min: "1", Max: "2", Window: events.TimeWindow{Open: "09:00", Close: "10:00", TZ: "Asia/Taipei"}},
	}
	for i, in := range bad {
		_, err := f.Funds.ConfigureDepositChannel(f.Ctx, commandstest.Meta("ops:ops"), in)
		if e, _ := commands.AsError(err); e == nil || e.Key != commands.KeyInvalidRequest {
			t.Errorf("bad channel %d accepted: %v", i, err)
		}
	}

	f.Clock.Set(time.Date(2026, 11, 23, 1, 29, 0, 0, time.UTC)) // Monday 09:29 Taipei
	w := events.TimeWindow{Weekdays: []int{1, 2, 3, 4, 5}, Open: "09:30", Close: "19:30", TZ: "Asia/Taipei", ClosedOnHolidays: true}
	if f.Funds.DepositWindowOpen(w) {
		t.Error("open at 09:29")
	}
	f.Clock.Add(time.Minute)
	if !f.Funds.DepositWindowOpen(w) {
		t.Error("closed at 09:30")
	}
}

func TestStoreFailureIsSystemBusy(t *testing.T) {
	f := scenario.New(t)
	f.Seed(true)
	f.Must(f.Store.Close())
	_, err := f.Svc.Login(f.Ctx, commandstest.Meta("ops"), commands.Login{Account: "nobody", Password: "opsdemo1"})
	e, ok := commands.AsError(err)
	if !ok || e.Kind != commands.KindUnavailable || e.Key != commands.KeySystemBusy || !errors.Is(err, events.ErrClosed) {
		t.Fatalf("closed store: %v", err)
	}
}

// raceStore runs beforeAppend once, just before the first append to stream: a write by another
// process landing between this one's read and its append.
type raceStore struct {
	events.Store
	stream       string
	once         sync.Once
	beforeAppend func()
}

func (r *raceStore) Append(ctx context.Context, stream string, expected int64, evs []events.EventData) (events.AppendResult, error) {
	if stream == r.stream {
		r.once.Do(r.beforeAppend)
	}
	return r.Store.Append(ctx, stream, expected, evs)
}

// TestConflictRedecides: an approval whose append loses the race to another instance's approval
// re-reads, decides again and is refused as not pending; the deposit is credited once.
func TestConflictRedecides(t *testing.T) {
	f := scenario.New(t)
	f.Seed(true)
	s := f.Register("0912345678", "LOTBOOK")
	d := f.Deposit(s.MemberID, "5000")
	other := funds.New(f.Service())
	rs := &raceStore{Store: f.Store, stream: events.AccountStream(s.MemberID), beforeAppend: func() {
		if _, err := other.ApproveDeposit(f.Ctx, commandstest.Meta("ops:ops"), funds.ReviewOrder{MemberID: s.MemberID, OrderNo: d.OrderNo, Remark: "first"}); err != nil {
			t.Errorf("other instance: %v", err)
		}
	}}
	loserKernel := commands.New(rs, commands.Options{Clock: f.Clock.Now, PasswordCost: secret.TestCost})
	_, err := funds.New(loserKernel).ApproveDeposit(f.Ctx, commandstest.Meta("ops:ops"), funds.ReviewOrder{MemberID: s.MemberID, OrderNo: d.OrderNo, Remark: "second"})
	commandstest.WantKey(t, err, commands.KeyOrderNotPending)
	if loserKernel.Conflicts() != 1 {
		t.Fatalf("%d conflicts, want 1", loserKernel.Conflicts())
	}
	if got := commandstest.Count(f.CheckLog(), "DepositApproved"); got != 1 {
		t.Fatalf("%d approvals", got)
	}

	// A deposit request that loses such a race is decided again and still lands.
	d2m := commandstest.Meta("member")
	proof := f.Upload(s.MemberID)
	rs2 := &raceStore{Store: f.Store, stream: events.AccountStream(s.MemberID), beforeAppend: func() {
		f.Deposit(s.MemberID, "1000")
	}}
	r, err := funds.New(commands.New(rs2, commands.Options{Clock: f.Clock.Now, PasswordCost: secret.TestCost})).RequestDeposit(f.Ctx, d2m, s.MemberID, funds.DepositInput{ChannelID: "bank", Amount: "2000", ProofFileID: proof, ChannelPassword: "8888"})
	f.Must(err)
	if r.Status != events.ReviewPending {
		t.Fatalf("%+v", r)
	}
}

// TestConflictsExhausted: a stream that keeps changing under a command ends in system_busy.
func TestConflictsExhausted(t *testing.T) {
	f := scenario.New(t)
	f.Seed(true)
	s := f.Register("0912345678", "LOTBOOK")
	proof := f.Upload(s.MemberID)
	busy := &alwaysConflict{Store: f.Store}
	svc := funds.New(commands.New(busy, commands.Options{Clock: f.Clock.Now, PasswordCost: secret.TestCost, MaxAttempts: 3}))
	_, err := svc.RequestDeposit(f.Ctx, commandstest.Meta("member"), s.MemberID, funds.DepositInput{ChannelID: "bank", Amount: "2000", ProofFileID: proof, ChannelPassword: "8888"})
	e, ok := commands.AsError(err)
	if !ok || e.Kind != commands.KindUnavailable || e.Key != commands.KeySystemBusy || busy.appends.Load() != 3 {
		t.Fatalf("err %v after %d appends", err, busy.appends.Load())
	}
}

type alwaysConflict struct {
	events.Store
	appends atomic.Int32
}

func (a *alwaysConflict) Append(context.Context, string, int64, []events.EventData) (events.AppendResult, error) {
	a.appends.Add(1)
	return events.AppendResult{}, events.ErrWrongExpectedVersion
}

// TestCachedStateMeetsOtherInstances: an instance decides on its cached aggregate without reading
// the store first; what another instance wrote meanwhile still counts. A refusal is confirmed by
// a read (and decided again), a stale write is a conflict, and a command another instance
// already applied is answered with its events.
func TestCachedStateMeetsOtherInstances(t *testing.T) {
	f := scenario.New(t)
	f.Seed(true)
	s := f.Register("0912345678", "LOTBOOK")
	proof, retried := f.Upload(s.MemberID), f.Upload(s.MemberID) // one proof backs one deposit
	in := funds.DepositInput{ChannelID: "bank", Amount: "2000", ProofFileID: proof, ChannelPassword: "8888"}
	f.Deposit(s.MemberID, "1000") // f.Svc caches the account
	other := funds.New(f.Service())

	// An order only the other instance has seen: "order not found" on the cache is re-checked.
	d, err := other.RequestDeposit(f.Ctx, commandstest.Meta("member"), s.MemberID, in)
	f.Must(err)
	a, err := f.Funds.ApproveDeposit(f.Ctx, commandstest.Meta("ops:ops"), funds.ReviewOrder{MemberID: s.MemberID, OrderNo: d.OrderNo, Remark: ""})
	f.Must(err)
	if a.Status != events.ReviewApproved || !a.Balances["TWD"].Available.Equal(decimal.NewFromInt(2000)) {
		t.Fatalf("approval on a stale cache: %+v", a)
	}

	// The other instance approves again on its stale cache: a conflict, then not pending.
	_, err = other.ApproveDeposit(f.Ctx, commandstest.Meta("ops:ops"), funds.ReviewOrder{MemberID: s.MemberID, OrderNo: d.OrderNo, Remark: ""})
	commandstest.WantKey(t, err, commands.KeyOrderNotPending)

	// A command the other instance applied, retried here on a cache without it.
	m := commandstest.Meta("member")
	in.ProofFileID = retried
	first, err := other.RequestDeposit(f.Ctx, m, s.MemberID, in)
	f.Must(err)
	again, err := f.Funds.RequestDeposit(f.Ctx, m, s.MemberID, in)
	f.Must(err)
	if again.OrderNo != first.OrderNo || again.Position != first.Position {
		t.Fatalf("retry on a stale cache answered %+v, first %+v", again, first)
	}
	all := f.CheckLog()
	if got := commandstest.Count(all, "DepositRequested"); got != 3 {
		t.Fatalf("%d deposit requests, want 3", got)
	}
	if got := commandstest.Count(all, "DepositApproved"); got != 1 {
		t.Fatalf("%d approvals, want 1", got)
	}
}

// TestFollowerSparesViewsAndSeesOtherInstances: with its follower running, an instance's deposits
// stop reading the member's stream for every view, yet a flag another instance sets is seen by
// the next deposit once it is older than the views' bound (20 ms).
func TestFollowerSparesViewsAndSeesOtherInstances(t *testing.T) {
	f := scenario.New(t)
	f.Seed(true)
	s := f.Register("0912345678", "LOTBOOK")
	const n = 10
	proofs := make([]string, n+1)
	for i := range proofs {
		proofs[i] = f.Upload(s.MemberID)
	}
	reads := &streamReads{Store: f.Store, stream: events.MemberStream(s.MemberID)}
	k := commands.New(reads, commands.Options{Clock: f.Clock.Now, PasswordCost: secret.TestCost})
	ctx, cancel := context.WithCancel(f.Ctx)
	followed := make(chan error, 1)
	go func() { followed <- k.Follow(ctx) }()
	defer func() {
		cancel()
		if err := <-followed; err != nil {
			t.Errorf("follow: %v", err)
		}
	}()
	a := funds.New(k)
	deposit := func(proof string) error {
		_, err := a.RequestDeposit(f.Ctx, commandstest.Meta("member"), s.MemberID,
			funds.DepositInput{ChannelID: "bank", Amount: "1000", ProofFileID: proof, ChannelPassword: "8888"})
		return err
	}
	// Each deposit comes after the bound: without the follower every one reads the stream.
	for i := range n {
		f.Must(deposit(proofs[i]))
		time.Sleep(40 * time.Millisecond)
	}
	if got := reads.n.Load(); got > n/2 {
		t.Errorf("%d reads of the member's stream for %d deposits", got, n)
	}
	_, err := f.Svc.SetAccountFlag(f.Ctx, commandstest.Meta("ops:ops"), commands.SetFlag{Account: "0912345678", Flag: events.FlagFrozen, On: true, Reason: "because"})
	f.Must(err)
	time.Sleep(40 * time.Millisecond)
	commandstest.WantKey(t, deposit(proofs[n]), commands.KeyAccountFrozen)
}

// streamReads counts the reads of one stream.
type streamReads struct {
	events.Store
	stream string
	n      atomic.Int32
}

func (r *streamReads) ReadStream(ctx context.Context, stream string, after int64) ([]events.RecordedEvent, error) {
	if stream == r.stream {
		r.n.Add(1)
	}
	return r.Store.ReadStream(ctx, stream, after)
}

// TestSessionOf: a request's session as the member stream holds it: open after the login on any
// instance, for its own account only, with the account's flags, until it expires or is logged
// out; a guessed account answers none and is not kept in the cache.
func TestSessionOf(t *testing.T) {
	f := scenario.New(t)
	f.Seed(true)
	s := f.Register("0912345678", "LOTBOOK")
	li, err := f.Svc.Login(f.Ctx, commandstest.Meta("member"), commands.Login{Account: "0912345678", Password: "demo1234"})
	f.Must(err)
	hash := secret.HashToken(li.Token)
	open := func(k *commands.Service, account string) (commands.OpenSession, bool) {
		t.Helper()
		sess, ok, err := k.SessionOf(f.Ctx, account, hash)
		f.Must(err)
		return sess, ok
	}
	for _, k := range []*commands.Service{f.Svc, f.Service()} {
		if sess, ok := open(k, "0912345678"); !ok || sess.MemberID != s.MemberID || sess.Role != events.RoleMember ||
			len(sess.Flags) != 0 || !sess.ExpiresAt.Equal(li.ExpiresAt) || sess.Position == 0 {
			t.Fatalf("session %+v, %v", sess, ok)
		}
	}
	f.Register("0922222222", "LOTBOOK")
	if _, ok := open(f.Svc, "0922222222"); ok {
		t.Fatal("a token opened another account's session")
	}
	cached := commands.CachedStreams(f.Svc)
	if _, ok := open(f.Svc, "0933333333"); ok || commands.CachedStreams(f.Svc) != cached {
		t.Fatalf("unknown account: open %v, %d cached streams, want %d", ok, commands.CachedStreams(f.Svc), cached)
	}
	_, err = f.Svc.SetAccountFlag(f.Ctx, commandstest.Meta("ops:ops"), commands.SetFlag{Account: "0912345678", Flag: events.FlagFrozen, On: true, Reason: "because"})
	f.Must(err)
	if sess, ok := open(f.Svc, "0912345678"); !ok || fmt.Sprint(sess.Flags) != fmt.Sprint([]string{events.FlagFrozen}) {
		t.Fatalf("flags %v, open %v", sess.Flags, ok)
	}
	f.Clock.Add(25 * time.Hour) // the fixture's sessions last 24 h
	if _, ok := open(f.Svc, "0912345678"); ok {
		t.Fatal("an expired session is open")
	}
	f.Clock.Add(-25 * time.Hour)
	_, err = f.Svc.Logout(f.Ctx, commandstest.Meta("member"), commands.Logout{MemberID: s.MemberID, Token: li.Token})
	f.Must(err)
	if _, ok := open(f.Svc, "0912345678"); ok {
		t.Fatal("a closed session is open")
	}
}

// TestOwnAppendNotReadBack: a command applies its own events as the store says it wrote them,
// without reading its stream back, and answers what an instance that reads the store replays.
// An append the store answers from events already stored (another instance ran the command
// first) is read back and answered from them, and a key another command used there is refused.
func TestOwnAppendNotReadBack(t *testing.T) {
	f := scenario.New(t)
	f.Seed(true)
	s := f.Register("0912345678", "LOTBOOK")
	proofs := make([]string, 6)
	for i := range proofs {
		proofs[i] = f.Upload(s.MemberID)
	}
	deposit := func(i int, amount string) funds.DepositInput {
		return funds.DepositInput{ChannelID: "bank", Amount: amount, ProofFileID: proofs[i], ChannelPassword: "8888"}
	}
	reads := &streamReads{Store: f.Store, stream: events.AccountStream(s.MemberID)}
	a := funds.New(commands.New(reads, commands.Options{Clock: f.Clock.Now, PasswordCost: secret.TestCost}))
	_, err := a.RequestDeposit(f.Ctx, commandstest.Meta("member"), s.MemberID, deposit(0, "1000")) // loads the account
	f.Must(err)
	loaded := reads.n.Load()

	type answered struct {
		meta commands.Meta
		run  func(*funds.Commands, commands.Meta) (funds.OrderResult, error)
		res  funds.OrderResult
	}
	var done []answered
	run := func(meta commands.Meta, cmd func(*funds.Commands, commands.Meta) (funds.OrderResult, error)) funds.OrderResult {
		t.Helper()
		res, err := cmd(a, meta)
		f.Must(err)
		done = append(done, answered{meta, cmd, res})
		return res
	}
	for i := 1; i <= 3; i++ {
		d := run(commandstest.Meta("member"), func(c *funds.Commands, m commands.Meta) (funds.OrderResult, error) {
			return c.RequestDeposit(f.Ctx, m, s.MemberID, deposit(i, "1000"))
		})
		run(commandstest.Meta("ops:ops"), func(c *funds.Commands, m commands.Meta) (funds.OrderResult, error) {
			return c.ApproveDeposit(f.Ctx, m, funds.ReviewOrder{MemberID: s.MemberID, OrderNo: d.OrderNo})
		})
	}
	if got := reads.n.Load() - loaded; got != 0 {
		t.Errorf("%d reads of the account stream for %d commands that appended to it", got, len(done))
	}
	if last := done[len(done)-1].res; last.Status != events.ReviewApproved || !last.Balances["TWD"].Available.Equal(decimal.NewFromInt(3000)) {
		t.Fatalf("third approval answered %+v", last)
	}
	// Another instance, which reads the store, replays every answer as given.
	replay := funds.New(f.Service())
	for i, d := range done {
		got, err := d.run(replay, d.meta)
		f.Must(err)
		if got.OrderNo != d.res.OrderNo || got.Status != d.res.Status || got.Position != d.res.Position || !sameBalances(got.Balances, d.res.Balances) {
			t.Fatalf("command %d replayed as %+v, answered %+v", i, got, d.res)
		}
	}

	// Commands the other instance ran first, sent here on a cache that has not seen them.
	m := commandstest.Meta("member")
	first, err := replay.RequestDeposit(f.Ctx, m, s.MemberID, deposit(4, "1000"))
	f.Must(err)
	before := reads.n.Load()
	again, err := a.RequestDeposit(f.Ctx, m, s.MemberID, deposit(4, "1000"))
	f.Must(err)
	if again.OrderNo != first.OrderNo || again.Position != first.Position || reads.n.Load() == before {
		t.Fatalf("retry on a stale cache answered %+v, first %+v (%d reads)", again, first, reads.n.Load()-before)
	}
	reused := commandstest.Meta("member")
	reused.Request = "1000 TWD"
	_, err = replay.RequestDeposit(f.Ctx, reused, s.MemberID, deposit(5, "1000"))
	f.Must(err)
	reused.Request = "2000 TWD" // the caller's fingerprint of another request under the same key
	_, err = a.RequestDeposit(f.Ctx, reused, s.MemberID, deposit(5, "2000"))
	commandstest.WantKey(t, err, commands.KeyIdempotencyKeyReused)
	all := f.CheckLog()
	if got := commandstest.Count(all, "DepositRequested"); got != 6 {
		t.Fatalf("%d deposit requests, want 6", got)
	}
}

func sameBalances(a, b map[string]commands.Balance) bool {
	if len(a) != len(b) {
		return false
	}
	for cur, x := range a {
		if y, ok := b[cur]; !ok || !x.Available.Equal(y.Available) || !x.Frozen.Equal(y.Frozen) {
			return false
		}
	}
	return true
}

// TestOwnPostingsOnly: an event on a member's account stream that posts to another member's
// account is refused before its append, and nothing is written; the same event posting to the
// stream's own member is appended. The read models of money are split over projector
// instances by the stream's member, so one member's stream must never move another's money.
func TestOwnPostingsOnly(t *testing.T) {
	f := scenario.New(t)
	f.Seed(true)
	a, b := f.Register("0912345678", "LOTBOOK"), f.Register("0912345679", "LOTBOOK")
	approve := func(to string) func(*commands.Account) ([]events.Payload, error) {
		return func(*commands.Account) ([]events.Payload, error) {
			amount := decimal.NewFromInt(100)
			return []events.Payload{events.DepositApproved{OrderNo: "D-cross", Currency: "TWD", Amount: amount,
				Postings: events.Transfer(events.HouseBankClearing, events.MemberAvailable(to), "TWD", amount)}}, nil
		}
	}
	k := f.Svc
	stream := events.AccountStream(a.MemberID)
	before := len(f.CheckLog())
	c, err := k.Begin(commandstest.Meta("ops:ops"), "test.cross")
	f.Must(err)
	_, err = commands.Execute(f.Ctx, k, c, stream, approve(b.MemberID))
	if e, ok := commands.AsError(err); !ok || e.Kind != commands.KindUnavailable || !strings.Contains(err.Error(), events.MemberAvailable(b.MemberID)) {
		t.Fatalf("posting to member B on A's account stream: %v, want it refused naming B's account", err)
	}
	if after := len(f.CheckLog()); after != before {
		t.Fatalf("the refused event was written: %d events, %d before", after, before)
	}
	c, err = k.Begin(commandstest.Meta("ops:ops"), "test.own")
	f.Must(err)
	if _, err := commands.Execute(f.Ctx, k, c, stream, approve(a.MemberID)); err != nil {
		t.Fatalf("posting to member A on A's account stream: %v", err)
	}
}

// A retried password command is answered from its stored record before any argon2id hash: with
// every KDF slot held, the retries still answer, with the first run's position.
func TestRetryHashesNothing(t *testing.T) {
	f := scenario.New(t)
	f.Seed(true)
	s := f.Register("0912345678", "LOTBOOK")
	setMeta, changeMeta := commandstest.Meta("member"), commandstest.Meta("member")
	set := commands.SetFundPassword{MemberID: s.MemberID, LoginPassword: "demo1234", FundPassword: "123456", Confirm: "123456"}
	change := commands.ChangePassword{MemberID: s.MemberID, Old: "demo1234", New: "new12345", Confirm: "new12345"}
	first, err := f.Svc.SetFundPassword(f.Ctx, setMeta, set)
	f.Must(err)
	changed, err := f.Svc.ChangeLoginPassword(f.Ctx, changeMeta, change)
	f.Must(err)

	release := make(chan struct{})
	defer close(release)
	var held sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		held.Add(1)
		go f.Svc.KDF(func() { held.Done(); <-release })
	}
	held.Wait()
	type answer struct {
		pos int64
		err error
	}
	done := make(chan [2]answer, 1)
	go func() {
		a, err1 := f.Svc.SetFundPassword(f.Ctx, setMeta, set)
		b, err2 := f.Svc.ChangeLoginPassword(f.Ctx, changeMeta, change)
		done <- [2]answer{{a.Position, err1}, {b.Position, err2}}
	}()
	select {
	case got := <-done:
		if got[0] != (answer{first.Position, nil}) || got[1] != (answer{changed.Position, nil}) {
			t.Fatalf("retries answered %+v, want positions %d and %d", got, first.Position, changed.Position)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("a retried password command waited for an argon2id slot: it hashed again")
	}
}
