package commands

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"

	"github.com/lotbook/lotbook/commands/rules/secret"
	"github.com/lotbook/lotbook/events"
	"github.com/lotbook/lotbook/events/sqlite/sqlitetest"
)

// clock is a settable test clock.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

type fixture struct {
	t     testing.TB
	ctx   context.Context
	store events.Store
	clock *clock
	svc   *Service
}

func openStore(t testing.TB) events.Store { return sqlitetest.Open(t) }

func newFixture(t testing.TB, opts ...func(*Options)) *fixture {
	t.Helper()
	f := &fixture{t: t, ctx: context.Background(), store: openStore(t), clock: &clock{t: t0}}
	f.svc = f.service(opts...)
	return f
}

// service is another instance over the same store (own cache), as a second API process would be.
func (f *fixture) service(opts ...func(*Options)) *Service {
	o := Options{Clock: f.clock.now, PasswordCost: secret.TestCost, SessionTTL: 24 * time.Hour}
	for _, fn := range opts {
		fn(&o)
	}
	return New(f.store, o)
}

func meta(actor string) Meta { return Meta{CommandID: uuid.NewString(), Actor: actor} }

func (f *fixture) must(err error) {
	f.t.Helper()
	if err != nil {
		f.t.Fatal(err)
	}
}

// seed is the demo's shape: root code, ops and auditor, the bank channel.
func (f *fixture) seed(alwaysOpen bool) {
	f.t.Helper()
	_, err := f.svc.IssueRootInviteCode(f.ctx, meta("system"), "LOTBOOK")
	f.must(err)
	_, err = f.svc.AddStaff(f.ctx, meta("system"), AddStaff{Account: "ops", Role: events.RoleOps, Password: "opsdemo1"})
	f.must(err)
	_, err = f.svc.AddStaff(f.ctx, meta("system"), AddStaff{Account: "audit", Role: events.RoleAuditor, Password: "auditdemo1"})
	f.must(err)
	w := events.TimeWindow{Weekdays: []int{1, 2, 3, 4, 5}, Open: "09:30", Close: "19:30", TZ: "Asia/Taipei", ClosedOnHolidays: true, AlwaysOpen: alwaysOpen}
	_, err = f.svc.ConfigureDepositChannel(f.ctx, meta("system"), ChannelInput{ID: "bank", Name: "Bank transfer", Currency: "TWD", Min: "1000", Max: "1000000", Password: "8888", Window: w, Enabled: true})
	f.must(err)
}

func (f *fixture) register(account, code string) Session {
	f.t.Helper()
	s, err := f.svc.Register(f.ctx, meta("member:"+account), RegisterInput{Account: account, Password: "demo1234", ConfirmPassword: "demo1234", InviteCode: code})
	f.must(err)
	return s
}

func (f *fixture) upload(memberID string) string {
	f.t.Helper()
	id := secret.SHA256Hex(uuid.NewString())
	_, err := f.svc.RecordUpload(f.ctx, meta("member"), memberID, events.FileUploaded{FileID: id, ContentType: "image/png", Size: 100, Width: 10, Height: 10})
	f.must(err)
	return id
}

func (f *fixture) deposit(memberID, amount string) OrderResult {
	f.t.Helper()
	r, err := f.svc.RequestDeposit(f.ctx, meta("member"), memberID, DepositInput{ChannelID: "bank", Amount: amount, ProofFileID: f.upload(memberID), ChannelPassword: "8888"})
	f.must(err)
	return r
}

func (f *fixture) all() []events.RecordedEvent {
	f.t.Helper()
	var out []events.RecordedEvent
	for {
		page, err := f.store.ReadAll(f.ctx, int64(len(out)), 1000)
		f.must(err)
		if len(page) == 0 {
			return out
		}
		out = append(out, page...)
	}
}

// checkLog asserts what every event must satisfy: metadata complete and consistent, event ids
// derived from the command id, postings balanced on every money event.
func (f *fixture) checkLog() []events.RecordedEvent {
	f.t.Helper()
	all := f.all()
	perCommand := map[string]int{}
	for _, r := range all {
		md := r.Metadata
		if md.CommandID == "" || md.Actor == "" || md.CausationID != md.CommandID || md.CorrelationID == "" || md.ServerTime.IsZero() || md.ServerTime.Location() != time.UTC {
			f.t.Errorf("event %s/%d metadata %+v", r.Stream, r.Version, md)
		}
		key := md.CommandID + "\x00" + r.Stream
		if want := events.EventID(md.CommandID, r.Stream, perCommand[key]); r.ID != want {
			f.t.Errorf("event %s/%d id %s, want %s", r.Stream, r.Version, r.ID, want)
		}
		perCommand[key]++
		p, err := events.DecodeRecorded(r)
		f.must(err)
		if m, ok := p.(events.MovesMoney); ok {
			if err := events.CheckBalanced(m.MoneyPostings()); err != nil {
				f.t.Errorf("event %s/%d: %v", r.Stream, r.Version, err)
			}
		}
	}
	return all
}

func count(all []events.RecordedEvent, typ string) int {
	n := 0
	for _, r := range all {
		if strings.HasPrefix(r.Type, typ+".v") {
			n++
		}
	}
	return n
}

func TestJourney(t *testing.T) {
	f := newFixture(t)
	f.seed(false)

	s := f.register("0912345678", "lotbook") // codes are case-insensitive
	if s.Token == "" || s.MemberID != events.MemberID("0912345678") || s.Role != events.RoleMember || s.Position == 0 || !s.ExpiresAt.Equal(t0.Add(24*time.Hour)) {
		t.Fatalf("session %+v", s)
	}
	// The member's own invite code exists and names them; a second member registers with it.
	var own string
	for _, r := range f.all() {
		if r.Stream == events.MemberStream(s.MemberID) && strings.HasPrefix(r.Type, "MemberRegistered.") {
			p, _ := events.DecodeRecorded(r)
			reg := p.(events.MemberRegistered)
			own = reg.OwnInviteCode
			if reg.InviteCode != "LOTBOOK" || reg.InviterID != "" || len(own) != 7 {
				t.Fatalf("registration %+v", reg)
			}
		}
	}
	s2, err := f.svc.Register(f.ctx, meta("member"), RegisterInput{Account: "a123456789", Password: "abcd1234", ConfirmPassword: "abcd1234", InviteCode: own})
	f.must(err)
	if s2.Account != "A123456789" {
		t.Fatalf("ID account not normalised: %+v", s2)
	}

	// Registration refusals that need the store.
	_, err = f.svc.Register(f.ctx, meta("member"), RegisterInput{Account: "0912345678", Password: "demo1234", ConfirmPassword: "demo1234", InviteCode: "LOTBOOK"})
	wantKey(t, err, KeyAccountExists)
	_, err = f.svc.Register(f.ctx, meta("member"), RegisterInput{Account: "0912345679", Password: "demo1234", ConfirmPassword: "demo1234", InviteCode: "NOSUCH"})
	wantKey(t, err, KeyInviterNotExist)
	_, err = f.svc.Register(f.ctx, meta("member"), RegisterInput{Account: "0912345679", Password: "demo1234", ConfirmPassword: "demo1234", InviteCode: "../config"})
	wantKey(t, err, KeyInviterNotExist)

	// Login: member and staff; refusals.
	l, err := f.svc.Login(f.ctx, meta("member"), Login{Account: "0912345678", Password: "demo1234"})
	f.must(err)
	if l.Token == "" || l.Token == s.Token || l.Role != events.RoleMember {
		t.Fatalf("login %+v", l)
	}
	ops, err := f.svc.Login(f.ctx, meta("ops"), Login{Account: "ops", Password: "opsdemo1"})
	f.must(err)
	if ops.Role != events.RoleOps {
		t.Fatalf("ops login %+v", ops)
	}
	_, err = f.svc.Login(f.ctx, meta("member"), Login{Account: "0900000000", Password: "demo1234"})
	wantKey(t, err, KeyAccountOrPasswordWrong) // the same answer as a wrong password: no account enumeration
	_, err = f.svc.Login(f.ctx, meta("member"), Login{Account: "0912345678", Password: "demo12345"})
	wantKey(t, err, KeyAccountOrPasswordWrong)
	_, err = f.svc.Login(f.ctx, meta("member"), Login{Account: "", Password: "demo1234"})
	wantKey(t, err, KeyAccountRequired)

	// Deposit inside the window (Monday 11:00 Taipei), approve, balance.
	d := f.deposit(s.MemberID, "5000.50")
	if d.Status != events.ReviewPending || !strings.HasPrefix(d.OrderNo, "D20261123") || d.Position == 0 {
		t.Fatalf("deposit %+v", d)
	}
	a, err := f.svc.ApproveDeposit(f.ctx, meta("ops:ops"), ReviewOrder{MemberID: s.MemberID, OrderNo: d.OrderNo, Remark: "received"})
	f.must(err)
	if a.Status != events.ReviewApproved || a.OrderNo != d.OrderNo || a.Position <= d.Position || !a.Balances["TWD"].Available.Equal(decimal.RequireFromString("5000.5")) {
		t.Fatalf("approve %+v", a)
	}
	_, err = f.svc.ApproveDeposit(f.ctx, meta("ops:ops"), ReviewOrder{MemberID: s.MemberID, OrderNo: d.OrderNo, Remark: ""})
	wantKey(t, err, KeyOrderNotPending)
	_, err = f.svc.ApproveDeposit(f.ctx, meta("ops:ops"), ReviewOrder{MemberID: s.MemberID, OrderNo: "D000", Remark: ""})
	wantKey(t, err, KeyOrderNotFound)

	// Reject needs a remark and moves nothing.
	d2 := f.deposit(s.MemberID, "2000")
	_, err = f.svc.RejectDeposit(f.ctx, meta("ops:ops"), ReviewOrder{MemberID: s.MemberID, OrderNo: d2.OrderNo, Remark: "  "})
	wantKey(t, err, KeyRemarkRequired)
	rj, err := f.svc.RejectDeposit(f.ctx, meta("ops:ops"), ReviewOrder{MemberID: s.MemberID, OrderNo: d2.OrderNo, Remark: "proof unreadable"})
	f.must(err)
	if rj.Status != events.ReviewRejected || !rj.Balances["TWD"].Available.Equal(decimal.RequireFromString("5000.5")) {
		t.Fatalf("reject %+v", rj)
	}

	// Outside the window: 20:00 Taipei.
	f.clock.add(9 * time.Hour)
	_, err = f.svc.RequestDeposit(f.ctx, meta("member"), s.MemberID, DepositInput{ChannelID: "bank", Amount: "5000", ProofFileID: f.upload(s.MemberID), ChannelPassword: "8888"})
	wantKey(t, err, KeyDepositWindowClosed)

	// Logout closes the session.
	out, err := f.svc.Logout(f.ctx, meta("member"), Logout{MemberID: s.MemberID, Token: l.Token})
	f.must(err)
	if out.Position == 0 {
		t.Fatal("logout position")
	}

	all := f.checkLog()
	for typ, want := range map[string]int{"MemberRegistered": 4, "InviteCodeIssued": 3, "SessionOpened": 4, "SessionClosed": 1, "DepositRequested": 2, "DepositApproved": 1, "DepositRejected": 1, "FileUploaded": 3, "DepositChannelConfigured": 1} {
		if got := count(all, typ); got != want {
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
	f := newFixture(t)
	f.seed(false)
	s := f.register("0912345678", "LOTBOOK")
	other := f.register("0922222222", "LOTBOOK")
	proof := f.upload(s.MemberID)
	theirs := f.upload(other.MemberID)
	ok := DepositInput{ChannelID: "bank", Amount: "5000", ProofFileID: proof, ChannelPassword: "8888"}
	with := func(fn func(*DepositInput)) DepositInput { in := ok; fn(&in); return in }
	tests := []struct {
		name string
		in   DepositInput
		key  string
	}{
		{"unknown channel", with(func(in *DepositInput) { in.ChannelID = "cash" }), KeyChannelNotFound},
		{"no amount", with(func(in *DepositInput) { in.Amount = "" }), KeyAmountRequired},
		{"exponent", with(func(in *DepositInput) { in.Amount = "1e4" }), KeyAmountInvalid},
		{"below", with(func(in *DepositInput) { in.Amount = "999" }), KeyAmountBelowMinimum},
		{"above", with(func(in *DepositInput) { in.Amount = "1000001" }), KeyAmountAboveMaximum},
		{"no proof", with(func(in *DepositInput) { in.ProofFileID = "" }), KeyDepositProofRequired},
		{"someone else's proof", with(func(in *DepositInput) { in.ProofFileID = theirs }), KeyFileNotFound},
		{"wrong channel password", with(func(in *DepositInput) { in.ChannelPassword = "1234" }), KeyChannelPasswordWrong},
	}
	for _, tc := range tests {
		_, err := f.svc.RequestDeposit(f.ctx, meta("member"), s.MemberID, tc.in)
		if e, _ := AsError(err); e == nil || e.Key != tc.key {
			t.Errorf("%s: %v, want %s", tc.name, err, tc.key)
		}
	}
	// Staff cannot deposit; unknown member ids are refused before any stream is named.
	ops := events.MemberID("ops")
	_, err := f.svc.RequestDeposit(f.ctx, meta("ops"), ops, ok)
	wantKey(t, err, KeyAccountNotExist)
	_, err = f.svc.RequestDeposit(f.ctx, meta("x"), "../config", ok)
	wantKey(t, err, KeyAccountNotExist)

	// A closed channel, then flags.
	_, err = f.svc.ConfigureDepositChannel(f.ctx, meta("ops:ops"), ChannelInput{ID: "bank", Name: "Bank transfer", Currency: "TWD", Min: "1000", Max: "1000000",
		Window: events.TimeWindow{AlwaysOpen: true}, Enabled: false})
	f.must(err)
	_, err = f.svc.RequestDeposit(f.ctx, meta("member"), s.MemberID, ok)
	wantKey(t, err, KeyChannelClosed)
	_, err = f.svc.ConfigureDepositChannel(f.ctx, meta("ops:ops"), ChannelInput{ID: "bank", Name: "Bank transfer", Currency: "TWD", Min: "1000", Max: "1000000",
		Window: events.TimeWindow{AlwaysOpen: true}, Enabled: true})
	f.must(err)
	f.clock.add(12 * time.Hour) // 23:00 Taipei: the window is now always open
	if _, err := f.svc.RequestDeposit(f.ctx, meta("member"), s.MemberID, ok); err != nil {
		t.Fatalf("always-open channel (password kept from before): %v", err)
	}
	_, err = f.svc.SetAccountFlag(f.ctx, meta("ops:ops"), SetFlag{Account: "0912345678", Flag: events.FlagFrozen, On: true, Reason: "review"})
	f.must(err)
	_, err = f.svc.RequestDeposit(f.ctx, meta("member"), s.MemberID, ok)
	wantKey(t, err, KeyAccountFrozen)
	_, err = f.svc.SetAccountFlag(f.ctx, meta("ops:ops"), SetFlag{Account: "0912345678", Flag: events.FlagDisabled, On: true, Reason: "closed"})
	f.must(err)
	_, err = f.svc.RequestDeposit(f.ctx, meta("member"), s.MemberID, ok)
	wantKey(t, err, KeyAccountDisabled)
	f.checkLog()
}

func TestFlags(t *testing.T) {
	f := newFixture(t)
	f.seed(true)
	f.register("0912345678", "LOTBOOK")
	login := func() error {
		_, err := f.svc.Login(f.ctx, meta("member"), Login{Account: "0912345678", Password: "demo1234"})
		return err
	}
	set := func(flag string, on bool) {
		_, err := f.svc.SetAccountFlag(f.ctx, meta("ops:ops"), SetFlag{Account: "0912345678", Flag: flag, On: on, Reason: "because"})
		f.must(err)
	}
	tests := []struct {
		flag, key string
	}{
		{events.FlagLoginBanned, KeyLoginBanned},
		{events.FlagFrozen, KeyAccountFrozen},
		{events.FlagDisabled, KeyAccountDisabled},
		{events.FlagTradeBanned, ""},
		{events.FlagWithdrawalBanned, ""},
	}
	for _, tc := range tests {
		set(tc.flag, true)
		wantKey(t, login(), tc.key)
		set(tc.flag, false)
		wantKey(t, login(), "")
	}
	_, err := f.svc.SetAccountFlag(f.ctx, meta("ops:ops"), SetFlag{Account: "0912345678", Flag: "banned", On: true, Reason: "x"})
	wantKey(t, err, KeyFlagInvalid)
	_, err = f.svc.SetAccountFlag(f.ctx, meta("ops:ops"), SetFlag{Account: "0912345678", Flag: events.FlagFrozen, On: true, Reason: ""})
	wantKey(t, err, KeyRemarkRequired)
	_, err = f.svc.SetAccountFlag(f.ctx, meta("ops:ops"), SetFlag{Account: "0900000000", Flag: events.FlagFrozen, On: true, Reason: "x"})
	wantKey(t, err, KeyAccountNotExist)
	// Setting a flag to what it is writes nothing.
	before := len(f.all())
	set(events.FlagFrozen, false)
	if len(f.all()) != before {
		t.Error("no-op flag change wrote an event")
	}
}

// TestStaffManagedOnlyOnTheServer: ops cannot flag staff; the server operator's commands
// disable, enable and reset them, and a reset ends the user's sessions.
func TestStaffManagedOnlyOnTheServer(t *testing.T) {
	f := newFixture(t)
	f.seed(true)
	before := len(f.all())
	for _, account := range []string{"ops", "audit"} {
		for _, flag := range events.AllFlags {
			_, err := f.svc.SetAccountFlag(f.ctx, meta("ops:ops"), SetFlag{Account: account, Flag: flag, On: true, Reason: "takeover"})
			wantKey(t, err, KeyStaffAccountProtected)
		}
	}
	if len(f.all()) != before {
		t.Fatal("a refused flag change wrote events")
	}
	login := func(pw string) error {
		_, err := f.svc.Login(f.ctx, meta("ops:ops"), Login{Account: "ops", Password: pw})
		return err
	}
	_, err := f.svc.SetStaffFlag(f.ctx, meta("system"), SetFlag{Account: "ops", Flag: events.FlagDisabled, On: true, Reason: "left the company"})
	f.must(err)
	wantKey(t, login("opsdemo1"), KeyAccountDisabled)
	_, err = f.svc.SetStaffFlag(f.ctx, meta("system"), SetFlag{Account: "ops", Flag: events.FlagDisabled, On: false, Reason: "back"})
	f.must(err)
	f.must(login("opsdemo1"))
	_, err = f.svc.ResetStaffPassword(f.ctx, meta("system"), StaffPassword{Account: "ops", Password: "fresh1234"})
	f.must(err)
	wantKey(t, login("opsdemo1"), KeyAccountOrPasswordWrong)
	f.must(login("fresh1234"))
	_, err = f.svc.ResetStaffPassword(f.ctx, meta("system"), StaffPassword{Account: "ops", Password: "short"})
	wantKey(t, err, KeyPasswordInvalid)
	f.register("0912345678", "LOTBOOK")
	_, err = f.svc.SetStaffFlag(f.ctx, meta("system"), SetFlag{Account: "0912345678", Flag: events.FlagDisabled, On: true, Reason: "x"})
	wantKey(t, err, KeyAccountNotExist)
	_, err = f.svc.ResetStaffPassword(f.ctx, meta("system"), StaffPassword{Account: "0912345678", Password: "fresh1234"})
	wantKey(t, err, KeyAccountNotExist)
	f.checkLog()
}

// TestChannelPasswordsAreArgon2id: a channel's event carries an argon2id hash, never the
// password nor its plain SHA-256; a channel configured before (SHA-256 in a stored event) still
// takes deposits, and giving its password again re-hashes it.
func TestChannelPasswordsAreArgon2id(t *testing.T) {
	f := newFixture(t)
	f.seed(true)
	s := f.register("0912345678", "LOTBOOK")
	deposit := func(channel, pw string) error {
		_, err := f.svc.RequestDeposit(f.ctx, meta("member"), s.MemberID, DepositInput{ChannelID: channel, Amount: "1000", ProofFileID: f.upload(s.MemberID), ChannelPassword: pw})
		return err
	}
	channelEvents := func() []string {
		var out []string
		for _, r := range f.all() {
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
	f.must(deposit("bank", "8888"))
	wantKey(t, deposit("bank", "8889"), KeyChannelPasswordWrong)
	wantKey(t, deposit("bank", ""), KeyChannelPasswordWrong)
	f.must(deposit("bank", "8888")) // from the memo this time, same answer

	// The same password again is the same definition: nothing written.
	bank := ChannelInput{ID: "bank", Name: "Bank transfer", Currency: "TWD", Min: "1000", Max: "1000000", Password: "8888", Enabled: true,
		Window: events.TimeWindow{Weekdays: []int{1, 2, 3, 4, 5}, Open: "09:30", Close: "19:30", TZ: "Asia/Taipei", ClosedOnHolidays: true, AlwaysOpen: true}}
	before := len(channelEvents())
	_, err := f.svc.ConfigureDepositChannel(f.ctx, meta("ops:ops"), bank)
	f.must(err)
	if n := len(channelEvents()); n != before {
		t.Fatalf("reconfiguring with the same password wrote %d events", n-before)
	}

	// A channel stored before argon2id, with the SHA-256 of its password.
	w := events.TimeWindow{AlwaysOpen: true}
	old := events.DepositChannelConfigured{ID: "legacy", Name: "Old desk", Currency: "TWD", Min: decimal.NewFromInt(1000), Max: decimal.NewFromInt(5000),
		PasswordHash: secret.SHA256Hex("1234"), Window: w, Enabled: true}
	typ, data, err := events.Encode(old)
	f.must(err)
	_, err = f.store.Append(f.ctx, events.ConfigStream, events.AnyVersion, []events.EventData{{ID: events.EventID("legacy", events.ConfigStream, 0), Type: typ, Data: data,
		Metadata: events.Metadata{CommandID: "legacy", Actor: "system", CorrelationID: "legacy", CausationID: "legacy", ServerTime: t0}}})
	f.must(err)
	f.svc = f.service() // a process that reads the log anew
	f.must(deposit("legacy", "1234"))
	wantKey(t, deposit("legacy", "1235"), KeyChannelPasswordWrong)
	_, err = f.svc.ConfigureDepositChannel(f.ctx, meta("ops:ops"), ChannelInput{ID: "legacy", Name: "Old desk", Currency: "TWD", Min: "1000", Max: "5000", Password: "1234", Window: w, Enabled: true})
	f.must(err)
	all := channelEvents()
	if last := all[len(all)-1]; !strings.Contains(last, `"id":"legacy"`) || !strings.Contains(last, `"passwordHash":"$argon2id$`) {
		t.Fatalf("giving the password again kept the SHA-256: %s", last)
	}
	f.must(deposit("legacy", "1234"))
	wantKey(t, deposit("legacy", "1235"), KeyChannelPasswordWrong)
	f.checkLog()
}

func TestPasswords(t *testing.T) {
	f := newFixture(t)
	f.seed(true)
	s := f.register("0912345678", "LOTBOOK")
	_, err := f.svc.ChangeLoginPassword(f.ctx, meta("member"), ChangePassword{MemberID: s.MemberID, Old: "wrong123", New: "new12345", Confirm: "new12345"})
	wantKey(t, err, KeyOldPasswordWrong)
	_, err = f.svc.ChangeLoginPassword(f.ctx, meta("member"), ChangePassword{MemberID: s.MemberID, Old: "demo1234", New: "new12345", Confirm: "new12346"})
	wantKey(t, err, KeyPasswordsInconsistent)
	_, err = f.svc.ChangeLoginPassword(f.ctx, meta("member"), ChangePassword{MemberID: s.MemberID, Old: "demo1234", New: "new12345", Confirm: "new12345"})
	f.must(err)
	// Every session ended.
	n, err := View(f.ctx, f.svc, events.MemberStream(s.MemberID), func(m *Member, _ *Entry) int { return len(m.sessions) })
	f.must(err)
	if n != 0 {
		t.Fatalf("%d sessions survive a password change", n)
	}
	_, err = f.svc.Login(f.ctx, meta("member"), Login{Account: "0912345678", Password: "demo1234"})
	wantKey(t, err, KeyAccountOrPasswordWrong)
	_, err = f.svc.Login(f.ctx, meta("member"), Login{Account: "0912345678", Password: "new12345"})
	f.must(err)

	// Fund password: set once with the login password.
	_, err = f.svc.SetFundPassword(f.ctx, meta("member"), SetFundPassword{MemberID: s.MemberID, LoginPassword: "demo1234", FundPassword: "123456", Confirm: "123456"})
	wantKey(t, err, KeyAccountOrPasswordWrong)
	_, err = f.svc.VerifyFundPassword(f.ctx, meta("member"), VerifyFundPassword{MemberID: s.MemberID, FundPassword: "123456"})
	wantKey(t, err, KeyFundPasswordNotSet)
	_, err = f.svc.SetFundPassword(f.ctx, meta("member"), SetFundPassword{MemberID: s.MemberID, LoginPassword: "new12345", FundPassword: "123456", Confirm: "123456"})
	f.must(err)
	_, err = f.svc.SetFundPassword(f.ctx, meta("member"), SetFundPassword{MemberID: s.MemberID, LoginPassword: "new12345", FundPassword: "654321", Confirm: "654321"})
	wantKey(t, err, KeyFundPasswordAlreadySet)
	_, err = f.svc.VerifyFundPassword(f.ctx, meta("member"), VerifyFundPassword{MemberID: s.MemberID, FundPassword: "123456"})
	f.must(err)

	// Four wrong tries, the fifth locks; then even the right one is refused for 24 hours.
	for i := 1; i <= 4; i++ {
		f.clock.add(time.Minute)
		_, err = f.svc.VerifyFundPassword(f.ctx, meta("member"), VerifyFundPassword{MemberID: s.MemberID, FundPassword: "000000"})
		wantKey(t, err, KeyFundPasswordWrong)
	}
	// The same command replayed is the same answer and writes nothing more.
	m := meta("member")
	_, err = f.svc.VerifyFundPassword(f.ctx, m, VerifyFundPassword{MemberID: s.MemberID, FundPassword: "000000"})
	wantKey(t, err, KeyFundPasswordLocked)
	_, err = f.svc.VerifyFundPassword(f.ctx, m, VerifyFundPassword{MemberID: s.MemberID, FundPassword: "000000"})
	wantKey(t, err, KeyFundPasswordLocked)
	_, err = f.svc.VerifyFundPassword(f.ctx, meta("member"), VerifyFundPassword{MemberID: s.MemberID, FundPassword: "123456"})
	wantKey(t, err, KeyFundPasswordLocked)
	_, err = f.svc.ChangeFundPassword(f.ctx, meta("member"), ChangePassword{MemberID: s.MemberID, Old: "123456", New: "654321", Confirm: "654321"})
	wantKey(t, err, KeyFundPasswordLocked)
	if got := count(f.all(), "FundPasswordRejected"); got != 5 {
		t.Fatalf("%d rejections recorded, want 5", got)
	}
	f.clock.add(24 * time.Hour)
	_, err = f.svc.VerifyFundPassword(f.ctx, meta("member"), VerifyFundPassword{MemberID: s.MemberID, FundPassword: "123456"})
	f.must(err)
	_, err = f.svc.ChangeFundPassword(f.ctx, meta("member"), ChangePassword{MemberID: s.MemberID, Old: "111111", New: "654321", Confirm: "654321"})
	wantKey(t, err, KeyFundPasswordWrong)
	_, err = f.svc.ChangeFundPassword(f.ctx, meta("member"), ChangePassword{MemberID: s.MemberID, Old: "123456", New: "654321", Confirm: "654321"})
	f.must(err)
	_, err = f.svc.VerifyFundPassword(f.ctx, meta("member"), VerifyFundPassword{MemberID: s.MemberID, FundPassword: "654321"})
	f.must(err)
	f.checkLog()
}

func TestIdempotentReplay(t *testing.T) {
	f := newFixture(t)
	f.seed(true)
	m := meta("member")
	in := RegisterInput{Account: "0912345678", Password: "demo1234", ConfirmPassword: "demo1234", InviteCode: "LOTBOOK"}
	first, err := f.svc.Register(f.ctx, m, in)
	f.must(err)
	again, err := f.svc.Register(f.ctx, m, in)
	f.must(err)
	// Another instance (empty cache) gives the same answer too.
	fresh, err := f.service().Register(f.ctx, m, in)
	f.must(err)
	for _, s := range []Session{again, fresh} {
		if s.MemberID != first.MemberID || s.Position != first.Position || !s.ExpiresAt.Equal(first.ExpiresAt) || s.Token != "" {
			t.Fatalf("replayed registration %+v, first %+v", s, first)
		}
	}

	proof := f.upload(first.MemberID)
	dm := meta("member")
	din := DepositInput{ChannelID: "bank", Amount: "5000", ProofFileID: proof, ChannelPassword: "8888"}
	d1, err := f.svc.RequestDeposit(f.ctx, dm, first.MemberID, din)
	f.must(err)
	f.clock.add(48 * time.Hour) // a retry days later still answers with the same order
	d2, err := f.svc.RequestDeposit(f.ctx, dm, first.MemberID, din)
	f.must(err)
	d3, err := f.service().RequestDeposit(f.ctx, dm, first.MemberID, din)
	f.must(err)
	if d1.OrderNo != d2.OrderNo || d1.Position != d2.Position || d1.OrderNo != d3.OrderNo || d1.Position != d3.Position {
		t.Fatalf("replayed deposit %+v %+v %+v", d1, d2, d3)
	}

	am := meta("ops:ops")
	a1, err := f.svc.ApproveDeposit(f.ctx, am, ReviewOrder{MemberID: first.MemberID, OrderNo: d1.OrderNo, Remark: "ok"})
	f.must(err)
	a2, err := f.service().ApproveDeposit(f.ctx, am, ReviewOrder{MemberID: first.MemberID, OrderNo: d1.OrderNo, Remark: "ok"})
	f.must(err)
	if a1.Position != a2.Position || a2.Status != events.ReviewApproved || !a2.Balances["TWD"].Available.Equal(decimal.NewFromInt(5000)) {
		t.Fatalf("replayed approval %+v vs %+v", a2, a1)
	}
	// A key reused for another kind of command does not pretend to be a deposit.
	_, err = f.svc.RequestDeposit(f.ctx, am, first.MemberID, din)
	if err == nil {
		t.Fatal("approval key reused for a request answered as a deposit")
	}

	all := f.checkLog()
	for typ, want := range map[string]int{"MemberRegistered": 3, "DepositRequested": 1, "DepositApproved": 1} {
		if got := count(all, typ); got != want {
			t.Errorf("%d %s events, want %d", got, typ, want)
		}
	}
}

// TestConcurrentDoubleApprove: 20 approvals of one deposit race, on two service instances over
// one store (so conflicts go through the store's expected-version check too); it credits once.
func TestConcurrentDoubleApprove(t *testing.T) {
	f := newFixture(t)
	f.seed(true)
	s := f.register("0912345678", "LOTBOOK")
	d := f.deposit(s.MemberID, "5000")
	instances := []*Service{f.svc, f.service(), f.service(func(o *Options) { o.MaxAttempts = 50 })}

	var ok, notPending atomic.Int32
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := 0; i < 20; i++ {
		wg.Add(1)
		go func(svc *Service) {
			defer wg.Done()
			<-start
			_, err := svc.ApproveDeposit(f.ctx, meta("ops:ops"), ReviewOrder{MemberID: s.MemberID, OrderNo: d.OrderNo, Remark: ""})
			switch e, _ := AsError(err); {
			case err == nil:
				ok.Add(1)
			case e != nil && e.Key == KeyOrderNotPending:
				notPending.Add(1)
			default:
				t.Errorf("approve: %v", err)
			}
		}(instances[i%len(instances)])
	}
	close(start)
	wg.Wait()
	t.Logf("write conflicts retried: %d", instances[0].Conflicts()+instances[1].Conflicts()+instances[2].Conflicts())
	if ok.Load() != 1 || notPending.Load() != 19 {
		t.Fatalf("%d approvals succeeded, %d refused as not pending", ok.Load(), notPending.Load())
	}
	all := f.checkLog()
	if got := count(all, "DepositApproved"); got != 1 {
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
	f := newFixture(t)
	f.seed(true)
	s := f.register("0912345678", "LOTBOOK")
	other := f.service(func(o *Options) { o.MaxAttempts = 100 })
	f.svc.maxAttempts = 100
	var wg sync.WaitGroup
	orders := make([]string, 40)
	proofs := make([]string, len(orders)) // one proof backs one deposit
	for i := range proofs {
		proofs[i] = f.upload(s.MemberID)
	}
	for i := range orders {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			svc := f.svc
			if i%2 == 1 {
				svc = other
			}
			r, err := svc.RequestDeposit(f.ctx, meta("member"), s.MemberID, DepositInput{ChannelID: "bank", Amount: "1000", ProofFileID: proofs[i], ChannelPassword: "8888"})
			if err != nil {
				t.Errorf("deposit %d: %v", i, err)
				return
			}
			a, err := svc.ApproveDeposit(f.ctx, meta("ops:ops"), ReviewOrder{MemberID: s.MemberID, OrderNo: r.OrderNo, Remark: ""})
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
	t.Logf("write conflicts retried: %d", f.svc.Conflicts()+other.Conflicts())
	bal, err := View(f.ctx, f.service(), events.AccountStream(s.MemberID), func(a *Account, _ *Entry) Balance { return a.Balances["TWD"] })
	f.must(err)
	if !bal.Available.Equal(decimal.NewFromInt(40000)) {
		t.Fatalf("balance %s, want 40000", bal.Available)
	}
	f.checkLog()
}

func TestSmallCacheEvicts(t *testing.T) {
	f := newFixture(t, func(o *Options) { o.CacheStreams = 2 })
	f.seed(true)
	var members []Session
	for i := 0; i < 5; i++ {
		members = append(members, f.register(fmt.Sprintf("09%08d", i), "LOTBOOK"))
	}
	for _, m := range members {
		d := f.deposit(m.MemberID, "1500")
		if _, err := f.svc.ApproveDeposit(f.ctx, meta("ops:ops"), ReviewOrder{MemberID: m.MemberID, OrderNo: d.OrderNo, Remark: ""}); err != nil {
			t.Fatal(err)
		}
	}
	if n := f.svc.cache.len(); n > 2 {
		t.Fatalf("cache holds %d streams, cap 2", n)
	}
	f.checkLog()
}

func TestStaffAndConfig(t *testing.T) {
	f := newFixture(t)
	f.seed(true)
	f.seed(true) // the seed is idempotent even with fresh command ids
	all := f.all()
	for typ, want := range map[string]int{"MemberRegistered": 2, "InviteCodeIssued": 1, "DepositChannelConfigured": 1} {
		if got := count(all, typ); got != want {
			t.Errorf("%d %s after seeding twice, want %d", got, typ, want)
		}
	}
	_, err := f.svc.AddStaff(f.ctx, meta("system"), AddStaff{Account: "ops", Role: events.RoleAuditor, Password: "opsdemo1"})
	wantKey(t, err, KeyAccountExists)
	_, err = f.svc.AddStaff(f.ctx, meta("system"), AddStaff{Account: "0912345678", Role: events.RoleOps, Password: "opsdemo1"})
	wantKey(t, err, KeyAccountInvalid)
	_, err = f.svc.AddStaff(f.ctx, meta("system"), AddStaff{Account: "boss", Role: "admin", Password: "opsdemo1"})
	wantKey(t, err, KeyInvalidRequest)
	_, err = f.svc.AddStaff(f.ctx, meta("system"), AddStaff{Account: "boss", Role: events.RoleOps, Password: "short"})
	wantKey(t, err, KeyPasswordInvalid)

	s := f.register("0912345678", "LOTBOOK")
	var own string
	for _, r := range f.all() {
		if r.Stream == events.MemberStream(s.MemberID) {
			if p, _ := events.DecodeRecorded(r); p != nil {
				if reg, ok := p.(events.MemberRegistered); ok {
					own = reg.OwnInviteCode
				}
			}
		}
	}
	_, err = f.svc.IssueRootInviteCode(f.ctx, meta("system"), own)
	wantKey(t, err, KeyInviteCodeExists)
	_, err = f.svc.IssueRootInviteCode(f.ctx, meta("system"), "no")
	wantKey(t, err, KeyInvalidRequest)

	bad := []ChannelInput{
		{ID: "Bank", Name: "x", Currency: "TWD", Min: "1", Max: "2", Window: events.TimeWindow{AlwaysOpen: true}},
		{ID: "bank", Name: "", Currency: "TWD", Min: "1", Max: "2", Window: events.TimeWindow{AlwaysOpen: true}},
		{ID: "bank", Name: "x", Currency: "twd", Min: "1", Max: "2", Window: events.TimeWindow{AlwaysOpen: true}},
		{ID: "bank", Name: "x", Currency: "TWD", Min: "3", Max: "2", Window: events.TimeWindow{AlwaysOpen: true}},
		{ID: "bank", Name: "x", Currency: "TWD", Min: "0", Max: "2", Window: events.TimeWindow{AlwaysOpen: true}},
		{ID: "bank", Name: "x", Currency: "JPY", Min: "1.5", Max: "2", Window: events.TimeWindow{AlwaysOpen: true}},
		{ID: "bank", Name: "x", Currency: "TWD", Min: "1", Max: "2", Window: events.TimeWindow{Open: "09:00", Close: "10:00", TZ: "Asia/Taipei"}},
	}
	for i, in := range bad {
		_, err := f.svc.ConfigureDepositChannel(f.ctx, meta("ops:ops"), in)
		if e, _ := AsError(err); e == nil || e.Key != KeyInvalidRequest {
			t.Errorf("bad channel %d accepted: %v", i, err)
		}
	}
	r1, err := f.svc.SetSiteConfig(f.ctx, meta("system"), SiteConfig{Name: "title", Value: "lotbook"})
	f.must(err)
	r2, err := f.svc.SetSiteConfig(f.ctx, meta("system"), SiteConfig{Name: "title", Value: "lotbook"})
	f.must(err)
	if r1.Position != r2.Position {
		t.Errorf("same config twice moved the position %d -> %d", r1.Position, r2.Position)
	}
	_, err = f.svc.SetSiteConfig(f.ctx, meta("system"), SiteConfig{Name: "bad name", Value: "x"})
	wantKey(t, err, KeyInvalidRequest)

	f.clock.t = time.Date(2026, 11, 23, 1, 29, 0, 0, time.UTC) // Monday 09:29 Taipei
	w := events.TimeWindow{Weekdays: []int{1, 2, 3, 4, 5}, Open: "09:30", Close: "19:30", TZ: "Asia/Taipei", ClosedOnHolidays: true}
	if f.svc.DepositWindowOpen(w) {
		t.Error("open at 09:29")
	}
	f.clock.add(time.Minute)
	if !f.svc.DepositWindowOpen(w) {
		t.Error("closed at 09:30")
	}
}

func TestStoreFailureIsSystemBusy(t *testing.T) {
	f := newFixture(t)
	f.seed(true)
	f.must(f.store.Close())
	_, err := f.svc.Login(f.ctx, meta("ops"), Login{Account: "nobody", Password: "opsdemo1"})
	e, ok := AsError(err)
	if !ok || e.Kind != KindUnavailable || e.Key != KeySystemBusy || !errors.Is(err, events.ErrClosed) {
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
	f := newFixture(t)
	f.seed(true)
	s := f.register("0912345678", "LOTBOOK")
	d := f.deposit(s.MemberID, "5000")
	other := f.service()
	rs := &raceStore{Store: f.store, stream: events.AccountStream(s.MemberID), beforeAppend: func() {
		if _, err := other.ApproveDeposit(f.ctx, meta("ops:ops"), ReviewOrder{MemberID: s.MemberID, OrderNo: d.OrderNo, Remark: "first"}); err != nil {
			t.Errorf("other instance: %v", err)
		}
	}}
	loser := New(rs, Options{Clock: f.clock.now, PasswordCost: secret.TestCost})
	_, err := loser.ApproveDeposit(f.ctx, meta("ops:ops"), ReviewOrder{MemberID: s.MemberID, OrderNo: d.OrderNo, Remark: "second"})
	wantKey(t, err, KeyOrderNotPending)
	if loser.Conflicts() != 1 {
		t.Fatalf("%d conflicts, want 1", loser.Conflicts())
	}
	if got := count(f.checkLog(), "DepositApproved"); got != 1 {
		t.Fatalf("%d approvals", got)
	}

	// A deposit request that loses such a race is decided again and still lands.
	d2m := meta("member")
	proof := f.upload(s.MemberID)
	rs2 := &raceStore{Store: f.store, stream: events.AccountStream(s.MemberID), beforeAppend: func() {
		f.deposit(s.MemberID, "1000")
	}}
	r, err := New(rs2, Options{Clock: f.clock.now, PasswordCost: secret.TestCost}).RequestDeposit(f.ctx, d2m, s.MemberID, DepositInput{ChannelID: "bank", Amount: "2000", ProofFileID: proof, ChannelPassword: "8888"})
	f.must(err)
	if r.Status != events.ReviewPending {
		t.Fatalf("%+v", r)
	}
}

// TestConflictsExhausted: a stream that keeps changing under a command ends in system_busy.
func TestConflictsExhausted(t *testing.T) {
	f := newFixture(t)
	f.seed(true)
	s := f.register("0912345678", "LOTBOOK")
	proof := f.upload(s.MemberID)
	busy := &alwaysConflict{Store: f.store}
	svc := New(busy, Options{Clock: f.clock.now, PasswordCost: secret.TestCost, MaxAttempts: 3})
	_, err := svc.RequestDeposit(f.ctx, meta("member"), s.MemberID, DepositInput{ChannelID: "bank", Amount: "2000", ProofFileID: proof, ChannelPassword: "8888"})
	e, ok := AsError(err)
	if !ok || e.Kind != KindUnavailable || e.Key != KeySystemBusy || busy.appends.Load() != 3 {
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
	f := newFixture(t)
	f.seed(true)
	s := f.register("0912345678", "LOTBOOK")
	proof, retried := f.upload(s.MemberID), f.upload(s.MemberID) // one proof backs one deposit
	in := DepositInput{ChannelID: "bank", Amount: "2000", ProofFileID: proof, ChannelPassword: "8888"}
	f.deposit(s.MemberID, "1000") // f.svc caches the account
	other := f.service()

	// An order only the other instance has seen: "order not found" on the cache is re-checked.
	d, err := other.RequestDeposit(f.ctx, meta("member"), s.MemberID, in)
	f.must(err)
	a, err := f.svc.ApproveDeposit(f.ctx, meta("ops:ops"), ReviewOrder{MemberID: s.MemberID, OrderNo: d.OrderNo, Remark: ""})
	f.must(err)
	if a.Status != events.ReviewApproved || !a.Balances["TWD"].Available.Equal(decimal.NewFromInt(2000)) {
		t.Fatalf("approval on a stale cache: %+v", a)
	}

	// The other instance approves again on its stale cache: a conflict, then not pending.
	_, err = other.ApproveDeposit(f.ctx, meta("ops:ops"), ReviewOrder{MemberID: s.MemberID, OrderNo: d.OrderNo, Remark: ""})
	wantKey(t, err, KeyOrderNotPending)

	// A command the other instance applied, retried here on a cache without it.
	m := meta("member")
	in.ProofFileID = retried
	first, err := other.RequestDeposit(f.ctx, m, s.MemberID, in)
	f.must(err)
	again, err := f.svc.RequestDeposit(f.ctx, m, s.MemberID, in)
	f.must(err)
	if again.OrderNo != first.OrderNo || again.Position != first.Position {
		t.Fatalf("retry on a stale cache answered %+v, first %+v", again, first)
	}
	all := f.checkLog()
	if got := count(all, "DepositRequested"); got != 3 {
		t.Fatalf("%d deposit requests, want 3", got)
	}
	if got := count(all, "DepositApproved"); got != 1 {
		t.Fatalf("%d approvals, want 1", got)
	}
}
