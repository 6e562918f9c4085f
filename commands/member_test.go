package commands

import (
	"testing"
	"time"

	"github.com/lotbook/lotbook/events"
)

var t0 = time.Date(2026, 11, 23, 3, 0, 0, 0, time.UTC) // Monday 11:00 in Taipei

// fakeVerify: a hash "h:<pw>" matches pw.
func fakeVerify(hash, pw string) bool { return hash == "h:"+pw }

// build applies payloads as if recorded at the given times (all at t0 when times is nil).
func build[S State](st S, at []time.Time, ps ...events.Payload) S {
	for i, p := range ps {
		when := t0
		if at != nil {
			when = at[i]
		}
		st.Apply(events.RecordedEvent{Version: int64(i + 1), Metadata: events.Metadata{ServerTime: when}}, p)
	}
	return st
}

func registered(extra ...events.Payload) *Member {
	ps := append([]events.Payload{events.MemberRegistered{MemberID: "m1", Account: "0912345678", Role: events.RoleMember, PasswordHash: "h:demo1234"}}, extra...)
	return build(&Member{}, nil, ps...)
}

func flagged(flags ...string) *Member {
	var ps []events.Payload
	for _, f := range flags {
		ps = append(ps, events.AccountFlagChanged{Flag: f, On: true, Reason: "test"})
	}
	return registered(ps...)
}

// wantKey checks that err is an *Error with key (or nil when key is "").
func wantKey(t *testing.T, err error, key string) {
	t.Helper()
	if key == "" {
		if err != nil {
			t.Fatalf("unexpected error %v", err)
		}
		return
	}
	e, ok := AsError(err)
	if !ok {
		t.Fatalf("error %v, want key %s", err, key)
	}
	if e.Key != key {
		t.Fatalf("key %s, want %s", e.Key, key)
	}
}

func TestValidateRegistration(t *testing.T) {
	ok := RegisterInput{Account: "0912345678", Password: "demo1234", ConfirmPassword: "demo1234", InviteCode: "LOTBOOK"}
	with := func(f func(*RegisterInput)) RegisterInput { in := ok; f(&in); return in }
	tests := []struct {
		name string
		in   RegisterInput
		key  string
	}{
		{"valid phone", ok, ""},
		{"valid ID", with(func(in *RegisterInput) { in.Account = "A123456789" }), ""},
		{"lower-case ID letter", with(func(in *RegisterInput) { in.Account = "a123456789" }), ""},
		{"no account", with(func(in *RegisterInput) { in.Account = "" }), KeyAccountRequired},
		{"no password", with(func(in *RegisterInput) { in.Password = "" }), KeyPasswordRequired},
		{"no confirmation", with(func(in *RegisterInput) { in.ConfirmPassword = "" }), KeyConfirmPasswordRequired},
		{"no invite code", with(func(in *RegisterInput) { in.InviteCode = "" }), KeyInviteCodeRequired},
		{"everything missing names the account first", RegisterInput{}, KeyAccountRequired},
		{"short phone", with(func(in *RegisterInput) { in.Account = "091234567" }), KeyAccountInvalid},
		{"bad ID check digit", with(func(in *RegisterInput) { in.Account = "A123456788" }), KeyAccountInvalid},
		{"staff-like name", with(func(in *RegisterInput) { in.Account = "ops" }), KeyAccountInvalid},
		{"short password", with(func(in *RegisterInput) { in.Password, in.ConfirmPassword = "demo123", "demo123" }), KeyPasswordInvalid},
		{"password with symbol", with(func(in *RegisterInput) { in.Password, in.ConfirmPassword = "demo-1234", "demo-1234" }), KeyPasswordInvalid},
		{"21 characters", with(func(in *RegisterInput) {
			in.Password, in.ConfirmPassword = "abcdefghij01234567890", "abcdefghij01234567890"
		}), KeyPasswordInvalid},
		{"mismatch", with(func(in *RegisterInput) { in.ConfirmPassword = "demo12345" }), KeyPasswordsInconsistent},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := validateRegistration(tc.in)
			if err == nil {
				wantKey(t, nil, tc.key)
			} else {
				wantKey(t, err, tc.key)
				if err.Kind != KindInvalid {
					t.Errorf("kind %v", err.Kind)
				}
			}
		})
	}
}

func TestDecideRegisterAndStaff(t *testing.T) {
	reg := events.MemberRegistered{MemberID: "m1", Account: "0912345678", Role: events.RoleMember}
	sess := events.SessionOpened{TokenHash: "x", ExpiresAt: t0.Add(time.Hour)}
	evs, err := decideRegister(&Member{}, reg, sess)
	if err != nil || len(evs) != 2 {
		t.Fatalf("register: %v %v", evs, err)
	}
	_, err = decideRegister(registered(), reg, sess)
	wantKey(t, err, KeyAccountExists)

	staff := events.MemberRegistered{MemberID: "s1", Account: "ops", Role: events.RoleOps, PasswordHash: "h:opsdemo1"}
	evs, err = decideAddStaff(&Member{}, staff)
	if err != nil || len(evs) != 1 {
		t.Fatalf("add staff: %v %v", evs, err)
	}
	ops := build(&Member{}, nil, staff)
	if evs, err = decideAddStaff(ops, events.MemberRegistered{Role: events.RoleOps}); err != nil || len(evs) != 0 {
		t.Fatalf("same role again: %v %v", evs, err)
	}
	_, err = decideAddStaff(ops, events.MemberRegistered{Role: events.RoleAuditor})
	wantKey(t, err, KeyAccountExists)
}

func TestDecideLogin(t *testing.T) {
	sess := events.SessionOpened{TokenHash: "x", ExpiresAt: t0.Add(time.Hour)}
	tests := []struct {
		name string
		m    *Member
		pw   string
		key  string
		kind Kind
	}{
		{"ok", registered(), "demo1234", "", 0},
		{"unknown account: same answer as a wrong password", &Member{}, "demo1234", KeyAccountOrPasswordWrong, KindRule},
		{"unknown account, password of the decoy", &Member{}, "decoy", KeyAccountOrPasswordWrong, KindRule},
		{"wrong password", registered(), "demo12345", KeyAccountOrPasswordWrong, KindRule},
		{"wrong password hides the flags", flagged(events.FlagDisabled), "nope", KeyAccountOrPasswordWrong, KindRule},
		{"disabled", flagged(events.FlagDisabled), "demo1234", KeyAccountDisabled, KindForbidden},
		{"frozen", flagged(events.FlagFrozen), "demo1234", KeyAccountFrozen, KindForbidden},
		{"login banned", flagged(events.FlagLoginBanned), "demo1234", KeyLoginBanned, KindForbidden},
		{"disabled wins over the others", flagged(events.FlagLoginBanned, events.FlagFrozen, events.FlagDisabled), "demo1234", KeyAccountDisabled, KindForbidden},
		{"trade ban does not stop login", flagged(events.FlagTradeBanned, events.FlagWithdrawalBanned), "demo1234", "", 0},
		{"flag cleared again", registered(events.AccountFlagChanged{Flag: events.FlagFrozen, On: true}, events.AccountFlagChanged{Flag: events.FlagFrozen, On: false}), "demo1234", "", 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var checked []string
			verify := func(hash, pw string) bool { checked = append(checked, hash); return fakeVerify(hash, pw) }
			evs, err := decideLogin(tc.m, tc.pw, "h:decoy", verify, sess)
			wantKey(t, err, tc.key)
			// Every login pays one password check, against the decoy when the account is unknown.
			want := tc.m.passwordHash
			if !tc.m.registered {
				want = "h:decoy"
			}
			if len(checked) != 1 || checked[0] != want {
				t.Errorf("checked %v, want [%s]", checked, want)
			}
			if err != nil {
				if e, _ := AsError(err); e.Kind != tc.kind {
					t.Errorf("kind %v, want %v", e.Kind, tc.kind)
				}
				return
			}
			if len(evs) != 1 || evs[0] != events.Payload(sess) {
				t.Errorf("events %v", evs)
			}
		})
	}
}

func TestSessionsAndLogout(t *testing.T) {
	m := registered(
		events.SessionOpened{TokenHash: "a", ExpiresAt: t0.Add(time.Hour)},
		events.SessionOpened{TokenHash: "b", ExpiresAt: t0.Add(2 * time.Hour)},
		events.SessionClosed{TokenHash: "a"},
	)
	if len(m.sessions) != 1 {
		t.Fatalf("sessions %v", m.sessions)
	}
	if evs, _ := decideLogout(m, "b", t0); len(evs) != 1 {
		t.Errorf("logout of an open session wrote %v", evs)
	}
	if evs, _ := decideLogout(m, "a", t0); len(evs) != 0 {
		t.Errorf("logout of a closed session wrote %v", evs)
	}
	if evs, _ := decideLogout(m, "b", t0.Add(3*time.Hour)); len(evs) != 0 {
		t.Errorf("logout of an expired session wrote %v", evs)
	}
	// A new session forgets the expired ones; a password change ends all.
	m = build(m, []time.Time{t0.Add(3 * time.Hour)}, events.SessionOpened{TokenHash: "c", ExpiresAt: t0.Add(5 * time.Hour)})
	if _, ok := m.sessions["b"]; ok || len(m.sessions) != 1 {
		t.Errorf("expired session kept: %v", m.sessions)
	}
	m = build(m, nil, events.LoginPasswordChanged{PasswordHash: "h:new12345"})
	if len(m.sessions) != 0 || m.passwordHash != "h:new12345" {
		t.Errorf("password change kept sessions %v", m.sessions)
	}
}

func TestChangeLoginPassword(t *testing.T) {
	valid := []struct {
		old, new, confirm, key string
	}{
		{"demo1234", "new12345", "new12345", ""},
		{"", "new12345", "new12345", KeyOldPasswordRequired},
		{"demo1234", "", "new12345", KeyPasswordRequired},
		{"demo1234", "new12345", "", KeyConfirmPasswordRequired},
		{"demo1234", "short", "short", KeyPasswordInvalid},
		{"demo1234", "new12345", "new12346", KeyPasswordsInconsistent},
	}
	for _, tc := range valid {
		if err := validatePasswordChange(tc.old, tc.new, tc.confirm); err == nil {
			wantKey(t, nil, tc.key)
		} else {
			wantKey(t, err, tc.key)
		}
	}
	tests := []struct {
		name string
		m    *Member
		old  string
		key  string
	}{
		{"ok", registered(), "demo1234", ""},
		{"wrong old", registered(), "demo12345", KeyOldPasswordWrong},
		{"unknown", &Member{}, "demo1234", KeyAccountNotExist},
		{"disabled", flagged(events.FlagDisabled), "demo1234", KeyAccountDisabled},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			evs, err := decideChangeLoginPassword(tc.m, tc.old, "h:new12345", fakeVerify)
			wantKey(t, err, tc.key)
			if err == nil && evs[0] != events.Payload(events.LoginPasswordChanged{PasswordHash: "h:new12345"}) {
				t.Errorf("events %v", evs)
			}
		})
	}
}

func TestFundPassword(t *testing.T) {
	pairs := []struct{ pw, confirm, key string }{
		{"123456", "123456", ""},
		{"", "123456", KeyFundPasswordRequired},
		{"123456", "", KeyConfirmPasswordRequired},
		{"12345", "12345", KeyFundPasswordInvalid},
		{"12345a", "12345a", KeyFundPasswordInvalid},
		{"123456", "123457", KeyPasswordsInconsistent},
	}
	for _, tc := range pairs {
		if err := validateFundPasswordPair(tc.pw, tc.confirm); err == nil {
			wantKey(t, nil, tc.key)
		} else {
			wantKey(t, err, tc.key)
		}
	}

	set := registered(events.FundPasswordSet{Hash: "h:123456"})
	setTests := []struct {
		name  string
		m     *Member
		login string
		key   string
	}{
		{"first time", registered(), "demo1234", ""},
		{"wrong login password", registered(), "demo12345", KeyAccountOrPasswordWrong},
		{"already set", set, "demo1234", KeyFundPasswordAlreadySet},
		{"disabled", flagged(events.FlagDisabled), "demo1234", KeyAccountDisabled},
	}
	for _, tc := range setTests {
		t.Run("set "+tc.name, func(t *testing.T) {
			_, err := decideSetFundPassword(tc.m, tc.login, "h:654321", fakeVerify)
			wantKey(t, err, tc.key)
		})
	}

	rejectedAt := func(ts ...time.Time) *Member {
		m := registered(events.FundPasswordSet{Hash: "h:123456"})
		for i, at := range ts {
			m = build(m, []time.Time{at}, events.FundPasswordRejected{Attempt: i + 1})
		}
		return m
	}
	hours := func(hs ...int) []time.Time {
		var out []time.Time
		for _, h := range hs {
			out = append(out, t0.Add(time.Duration(h)*time.Hour))
		}
		return out
	}
	now := t0.Add(30 * time.Hour)
	verifyTests := []struct {
		name    string
		m       *Member
		pw      string
		key     string // refusal returned directly
		attempt int    // FundPasswordRejected written with this attempt, 0 for none
	}{
		{"right", set, "123456", "", 0},
		{"wrong, first", set, "000000", "", 1},
		{"not set", registered(), "123456", KeyFundPasswordNotSet, 0},
		{"four recent: fifth wrong try", rejectedAt(hours(10, 11, 12, 13)...), "000000", "", 5},
		{"four recent: right still passes", rejectedAt(hours(10, 11, 12, 13)...), "123456", "", 0},
		{"five recent: locked even when right", rejectedAt(hours(10, 11, 12, 13, 14)...), "123456", KeyFundPasswordLocked, 0},
		{"five, oldest beyond 24 h: not locked", rejectedAt(hours(1, 11, 12, 13, 14)...), "123456", "", 0},
		{"five, oldest beyond 24 h: wrong is attempt 5", rejectedAt(hours(1, 11, 12, 13, 14)...), "000000", "", 5},
		{"all old: attempt 1", rejectedAt(hours(0, 1, 2, 3, 4)...), "000000", "", 1},
		{"disabled", flagged(events.FlagDisabled), "123456", KeyAccountDisabled, 0},
	}
	for _, tc := range verifyTests {
		t.Run("verify "+tc.name, func(t *testing.T) {
			evs, err := decideVerifyFundPassword(tc.m, tc.pw, now, fakeVerify)
			wantKey(t, err, tc.key)
			if tc.attempt == 0 {
				if len(evs) != 0 {
					t.Fatalf("events %v", evs)
				}
				return
			}
			if len(evs) != 1 || evs[0] != events.Payload(events.FundPasswordRejected{Attempt: tc.attempt}) {
				t.Fatalf("events %v, want attempt %d", evs, tc.attempt)
			}
			want := KeyFundPasswordWrong
			if tc.attempt >= fundLockTries {
				want = KeyFundPasswordLocked
			}
			wantKey(t, fundRefusal(&Record{Payloads: evs}), want)
		})
	}
	evs, err := decideChangeFundPassword(set, "123456", "h:654321", now, fakeVerify)
	if err != nil || evs[0] != events.Payload(events.FundPasswordSet{Hash: "h:654321"}) {
		t.Fatalf("change: %v %v", evs, err)
	}
	evs, err = decideChangeFundPassword(set, "111111", "h:654321", now, fakeVerify)
	if err != nil || evs[0] != events.Payload(events.FundPasswordRejected{Attempt: 1}) {
		t.Fatalf("change with wrong old: %v %v", evs, err)
	}
	if fundRefusal(&Record{Payloads: []events.Payload{events.FundPasswordSet{}}}) != nil {
		t.Fatal("a successful change is not a refusal")
	}
}

func TestStaffAccountsAreOutOfOpsReach(t *testing.T) {
	staff := func(role string, extra ...events.Payload) *Member {
		ps := append([]events.Payload{events.MemberRegistered{MemberID: "s1", Account: "ops2", Role: role, PasswordHash: "h:opsdemo1"}}, extra...)
		return build(&Member{}, nil, ps...)
	}
	disabledOps := staff(events.RoleOps, events.AccountFlagChanged{Flag: events.FlagDisabled, On: true, Reason: "left"})
	tests := []struct {
		name   string
		decide func(m *Member, flag string, on bool, reason string) ([]events.Payload, error)
		m      *Member
		flag   string
		on     bool
		key    string
		writes int
	}{
		{"ops freezes a member", decideSetFlag, registered(), events.FlagFrozen, true, "", 1},
		{"ops freezes ops", decideSetFlag, staff(events.RoleOps), events.FlagFrozen, true, KeyStaffAccountProtected, 0},
		{"ops disables ops", decideSetFlag, staff(events.RoleOps), events.FlagDisabled, true, KeyStaffAccountProtected, 0},
		{"ops disables the auditor", decideSetFlag, staff(events.RoleAuditor), events.FlagDisabled, true, KeyStaffAccountProtected, 0},
		{"ops re-enables disabled ops", decideSetFlag, disabledOps, events.FlagDisabled, false, KeyStaffAccountProtected, 0},
		{"ops flags nobody", decideSetFlag, &Member{}, events.FlagFrozen, true, KeyAccountNotExist, 0},
		{"server disables ops", decideSetStaffFlag, staff(events.RoleOps), events.FlagDisabled, true, "", 1},
		{"server disables the auditor", decideSetStaffFlag, staff(events.RoleAuditor), events.FlagDisabled, true, "", 1},
		{"server enables ops", decideSetStaffFlag, disabledOps, events.FlagDisabled, false, "", 1},
		{"server disables ops twice", decideSetStaffFlag, disabledOps, events.FlagDisabled, true, "", 0},
		{"server leaves members to ops", decideSetStaffFlag, registered(), events.FlagDisabled, true, KeyAccountNotExist, 0},
		{"server flags nobody", decideSetStaffFlag, &Member{}, events.FlagDisabled, true, KeyAccountNotExist, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			evs, err := tc.decide(tc.m, tc.flag, tc.on, "reason")
			wantKey(t, err, tc.key)
			if len(evs) != tc.writes {
				t.Fatalf("wrote %v, want %d events", evs, tc.writes)
			}
		})
	}
	if evs, err := decideResetStaffPassword(staff(events.RoleAuditor), "h:new"); err != nil || len(evs) != 1 || evs[0].(events.LoginPasswordChanged).PasswordHash != "h:new" {
		t.Fatalf("reset: %v %v", evs, err)
	}
	for _, m := range []*Member{registered(), {}} {
		_, err := decideResetStaffPassword(m, "h:new")
		wantKey(t, err, KeyAccountNotExist)
	}
}

func TestFlagsAndUploads(t *testing.T) {
	if evs, err := decideSetFlag(registered(), events.FlagFrozen, true, "fraud check"); err != nil || len(evs) != 1 {
		t.Fatalf("set: %v %v", evs, err)
	}
	if evs, _ := decideSetFlag(flagged(events.FlagFrozen), events.FlagFrozen, true, "again"); len(evs) != 0 {
		t.Fatalf("setting a set flag wrote %v", evs)
	}
	if evs, _ := decideSetFlag(registered(), events.FlagFrozen, false, "clear"); len(evs) != 0 {
		t.Fatalf("clearing a clear flag wrote %v", evs)
	}
	_, err := decideSetFlag(&Member{}, events.FlagFrozen, true, "x")
	wantKey(t, err, KeyAccountNotExist)
	for _, f := range events.AllFlags {
		if !validFlag(f) {
			t.Errorf("flag %s refused", f)
		}
	}
	if validFlag("banned") || validFlag("") {
		t.Error("unknown flag accepted")
	}

	f := events.FileUploaded{FileID: "ab", ContentType: "image/png", Size: 1, Width: 1, Height: 1}
	if evs, err := decideRecordUpload(registered(), f, DefaultUploadQuota); err != nil || len(evs) != 1 {
		t.Fatalf("upload: %v %v", evs, err)
	}
	if evs, _ := decideRecordUpload(registered(f), f, DefaultUploadQuota); len(evs) != 0 {
		t.Fatalf("same file twice wrote %v", evs)
	}
	_, err = decideRecordUpload(flagged(events.FlagDisabled), f, DefaultUploadQuota)
	wantKey(t, err, KeyAccountDisabled)
}

func TestUploadQuota(t *testing.T) {
	file := func(id string, size int64) events.FileUploaded {
		return events.FileUploaded{FileID: id, ContentType: "image/png", Size: size, Width: 1, Height: 1}
	}
	const quota = 1000
	tests := []struct {
		name   string
		stored []events.Payload
		next   events.FileUploaded
		key    string
		writes int
	}{
		{"first file", nil, file("a", 400), "", 1},
		{"exactly the quota", []events.Payload{file("a", 600)}, file("b", 400), "", 1},
		{"one byte over", []events.Payload{file("a", 600)}, file("b", 401), KeyUploadQuotaExceeded, 0},
		{"a single file over the quota", nil, file("a", 1001), KeyUploadQuotaExceeded, 0},
		{"quota full", []events.Payload{file("a", 1000)}, file("b", 1), KeyUploadQuotaExceeded, 0},
		{"a file stored again is counted once", []events.Payload{file("a", 600), file("a", 600)}, file("b", 400), "", 1},
		{"the same file again when full changes nothing", []events.Payload{file("a", 1000)}, file("a", 1000), "", 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			evs, err := decideRecordUpload(registered(tc.stored...), tc.next, quota)
			wantKey(t, err, tc.key)
			if len(evs) != tc.writes {
				t.Fatalf("wrote %v, want %d events", evs, tc.writes)
			}
			if e, ok := AsError(err); ok && e.Kind.HTTPStatus() != 422 {
				t.Fatalf("kind %v, want a 422 rule", e.Kind)
			}
		})
	}
}
