package commands

import (
	"regexp"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/lotbook/lotbook/commands/rules/secret"
	"github.com/lotbook/lotbook/events"
	"github.com/lotbook/lotbook/market/calendar"
)

var bank = events.DepositChannelConfigured{
	ID: "bank", Name: "Bank transfer", Currency: "TWD",
	Min: decimal.NewFromInt(1000), Max: decimal.NewFromInt(1000000),
	PasswordHash: "h:8888", // fakeVerify's form
	Window:       events.TimeWindow{Weekdays: []int{1, 2, 3, 4, 5}, Open: "09:30", Close: "19:30", TZ: "Asia/Taipei", ClosedOnHolidays: true},
	Enabled:      true,
}

func TestDecideDepositRequest(t *testing.T) {
	member := memberFacts{registered: true, ownsProof: true}
	input := DepositInput{ChannelID: "bank", Amount: "5000", ProofFileID: "f1", ChannelPassword: "8888"}
	closed := bank
	closed.Enabled = false
	open := bank
	open.Window = events.TimeWindow{AlwaysOpen: true}
	noPassword := bank
	noPassword.PasswordHash = ""
	night := time.Date(2026, 11, 23, 13, 0, 0, 0, time.UTC)   // Monday 21:00 Taipei
	holiday := time.Date(2026, 12, 25, 3, 0, 0, 0, time.UTC)  // Constitution Day 11:00 Taipei
	saturday := time.Date(2026, 11, 28, 3, 0, 0, 0, time.UTC) // 11:00 Taipei

	type mod func(r *depositRequest)
	tests := []struct {
		name string
		mod  mod
		key  string
		kind Kind
	}{
		{"accepted", nil, "", 0},
		{"accepted at the minimum", func(r *depositRequest) { r.in.Amount = "1000" }, "", 0},
		{"accepted at the maximum", func(r *depositRequest) { r.in.Amount = "1000000.00" }, "", 0},
		{"no member", func(r *depositRequest) { r.member.registered = false }, KeyAccountNotExist, KindNotFound},
		{"disabled", func(r *depositRequest) { r.member.disabled = true }, KeyAccountDisabled, KindForbidden},
		{"frozen", func(r *depositRequest) { r.member.frozen = true }, KeyAccountFrozen, KindForbidden},
		{"unknown channel", func(r *depositRequest) { r.channel = nil }, KeyChannelNotFound, KindNotFound},
		{"disabled channel", func(r *depositRequest) { r.channel = &closed }, KeyChannelClosed, KindRule},
		{"no amount", func(r *depositRequest) { r.in.Amount = "" }, KeyAmountRequired, KindInvalid},
		{"zero", func(r *depositRequest) { r.in.Amount = "0" }, KeyAmountInvalid, KindInvalid},
		{"negative", func(r *depositRequest) { r.in.Amount = "-5000" }, KeyAmountInvalid, KindInvalid},
		{"NaN", func(r *depositRequest) { r.in.Amount = "NaN" }, KeyAmountInvalid, KindInvalid},
		{"exponent", func(r *depositRequest) { r.in.Amount = "5e3" }, KeyAmountInvalid, KindInvalid},
		{"three decimals", func(r *depositRequest) { r.in.Amount = "5000.001" }, KeyAmountInvalid, KindInvalid},
		{"below minimum", func(r *depositRequest) { r.in.Amount = "999.99" }, KeyAmountBelowMinimum, KindRule},
		{"above maximum", func(r *depositRequest) { r.in.Amount = "1000000.01" }, KeyAmountAboveMaximum, KindRule},
		{"after hours", func(r *depositRequest) { r.now = night }, KeyDepositWindowClosed, KindRule},
		{"exchange holiday", func(r *depositRequest) { r.now = holiday }, KeyDepositWindowClosed, KindRule},
		{"saturday", func(r *depositRequest) { r.now = saturday }, KeyDepositWindowClosed, KindRule},
		{"always open channel at night", func(r *depositRequest) { r.channel = &open; r.now = night }, "", 0},
		{"no proof", func(r *depositRequest) { r.in.ProofFileID = "" }, KeyDepositProofRequired, KindInvalid},
		{"someone else's proof", func(r *depositRequest) { r.member.ownsProof = false }, KeyFileNotFound, KindNotFound},
		{"wrong channel password", func(r *depositRequest) { r.in.ChannelPassword = "8889" }, KeyChannelPasswordWrong, KindRule},
		{"missing channel password", func(r *depositRequest) { r.in.ChannelPassword = "" }, KeyChannelPasswordWrong, KindRule},
		{"channel without password", func(r *depositRequest) { r.channel = &noPassword; r.in.ChannelPassword = "" }, "", 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ch := bank
			r := depositRequest{in: input, member: member, channel: &ch, now: t0, cal: calendar.Taiwan(),
				orderNo: func(n int) string { return depositOrderNo("m1", "cmd", t0, n) }, channelPassword: fakeVerify}
			if tc.mod != nil {
				tc.mod(&r)
			}
			evs, err := decideDepositRequest(NewAccount("m1"), r)
			wantKey(t, err, tc.key)
			if err != nil {
				if e, _ := AsError(err); e.Kind != tc.kind {
					t.Errorf("kind %v, want %v", e.Kind, tc.kind)
				}
				return
			}
			d, ok := evs[0].(events.DepositRequested)
			if !ok || len(evs) != 1 || d.Currency != "TWD" || d.ChannelName != r.channel.Name || d.ProofFileID != r.in.ProofFileID {
				t.Fatalf("events %+v", evs)
			}
			if !d.Amount.Equal(decimal.RequireFromString(r.in.Amount)) {
				t.Errorf("amount %s", d.Amount)
			}
		})
	}
}

func TestDepositProofBacksOneDeposit(t *testing.T) {
	requested := func(no, proof string) events.DepositRequested {
		return events.DepositRequested{OrderNo: no, Currency: "TWD", Amount: decimal.NewFromInt(5000), ProofFileID: proof}
	}
	tests := []struct {
		name  string
		prior []events.Payload
		key   string
	}{
		{"unused proof", nil, ""},
		{"another proof used before", []events.Payload{requested("D1", "f2")}, ""},
		{"proof of a pending deposit", []events.Payload{requested("D1", "f1")}, KeyDepositProofUsed},
		{"proof of an approved deposit", []events.Payload{requested("D1", "f1"), events.DepositApproved{OrderNo: "D1"}}, KeyDepositProofUsed},
		{"proof of a rejected deposit", []events.Payload{requested("D1", "f1"), events.DepositRejected{OrderNo: "D1"}}, ""},
		{"rejected, then used again", []events.Payload{requested("D1", "f1"), events.DepositRejected{OrderNo: "D1"}, requested("D2", "f1")}, KeyDepositProofUsed},
	}
	ch := bank
	ch.Window = events.TimeWindow{AlwaysOpen: true}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a := build(NewAccount("m1"), nil, tc.prior...)
			evs, err := decideDepositRequest(a, depositRequest{
				in:     DepositInput{ChannelID: "bank", Amount: "5000", ProofFileID: "f1", ChannelPassword: "8888"},
				member: memberFacts{registered: true, ownsProof: true}, channel: &ch, now: t0,
				orderNo:         func(n int) string { return depositOrderNo("m1", "cmd", t0, n) },
				channelPassword: fakeVerify,
			})
			wantKey(t, err, tc.key)
			if e, ok := AsError(err); ok && e.Kind != KindRule {
				t.Fatalf("kind %v, want rule (422)", e.Kind)
			}
			if err == nil && len(evs) != 1 {
				t.Fatalf("events %v", evs)
			}
		})
	}
}

func TestOrderNumbers(t *testing.T) {
	n0 := depositOrderNo("m1", "cmd", t0, 0)
	if !regexp.MustCompile(`^D20261123\d{16}$`).MatchString(n0) {
		t.Fatalf("order number %q", n0)
	}
	if n0 != depositOrderNo("m1", "cmd", t0, 0) {
		t.Error("not deterministic")
	}
	if n0 == depositOrderNo("m1", "cmd", t0, 1) || n0 == depositOrderNo("m2", "cmd", t0, 0) || n0 == depositOrderNo("m1", "cmd2", t0, 0) {
		t.Error("collision between candidates")
	}
	// The date is Taipei's: 16:30 UTC is the next day there.
	if n := depositOrderNo("m1", "cmd", time.Date(2026, 11, 23, 16, 30, 0, 0, time.UTC), 0); n[:9] != "D20261124" {
		t.Errorf("order number %q", n)
	}
	// A taken number moves on to the next candidate.
	a := build(NewAccount("m1"), nil, events.DepositRequested{OrderNo: n0, Currency: "TWD", Amount: decimal.NewFromInt(5000)})
	ch := bank
	ch.Window = events.TimeWindow{AlwaysOpen: true}
	evs, err := decideDepositRequest(a, depositRequest{
		in:     DepositInput{ChannelID: "bank", Amount: "5000", ProofFileID: "f", ChannelPassword: "8888"},
		member: memberFacts{registered: true, ownsProof: true}, channel: &ch, now: t0,
		orderNo:         func(n int) string { return depositOrderNo("m1", "cmd", t0, n) },
		channelPassword: fakeVerify,
	})
	if err != nil || evs[0].(events.DepositRequested).OrderNo != depositOrderNo("m1", "cmd", t0, 1) {
		t.Fatalf("collision not avoided: %v %v", evs, err)
	}
}

func TestReviewDeposit(t *testing.T) {
	req := events.DepositRequested{OrderNo: "D1", Currency: "TWD", Amount: decimal.RequireFromString("5000.50")}
	pending := func() *Account { return build(NewAccount("m1"), nil, req) }

	evs, err := decideApproveDeposit(pending(), "D1", "")
	if err != nil {
		t.Fatal(err)
	}
	ap := evs[0].(events.DepositApproved)
	if err := events.CheckBalanced(ap.Postings); err != nil {
		t.Fatal(err)
	}
	want := events.Transfer(events.HouseBankClearing, events.MemberAvailable("m1"), "TWD", req.Amount)
	if len(ap.Postings) != 2 || ap.Postings[0].Account != want[0].Account || !ap.Postings[1].Amount.Equal(req.Amount) || ap.Postings[1].Account != events.MemberAvailable("m1") {
		t.Fatalf("postings %+v", ap.Postings)
	}

	approved := build(pending(), nil, ap)
	if b := approved.Balances["TWD"]; !b.Available.Equal(req.Amount) || !b.Frozen.IsZero() {
		t.Fatalf("balance after approval %+v", b)
	}
	if b := approved.snapshot().(map[string]Balance); !b["TWD"].Available.Equal(req.Amount) {
		t.Fatalf("snapshot %+v", b)
	}

	tests := []struct {
		name    string
		a       *Account
		approve bool
		order   string
		key     string
	}{
		{"approve unknown", pending(), true, "D2", KeyOrderNotFound},
		{"approve twice", approved, true, "D1", KeyOrderNotPending},
		{"reject approved", approved, false, "D1", KeyOrderNotPending},
		{"reject pending", pending(), false, "D1", ""},
		{"reject rejected", build(pending(), nil, events.DepositRejected{OrderNo: "D1", Remark: "no"}), false, "D1", KeyOrderNotPending},
		{"approve rejected", build(pending(), nil, events.DepositRejected{OrderNo: "D1", Remark: "no"}), true, "D1", KeyOrderNotPending},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			decide := decideRejectDeposit
			if tc.approve {
				decide = decideApproveDeposit
			}
			evs, err := decide(tc.a, tc.order, "remark")
			wantKey(t, err, tc.key)
			if err == nil {
				if _, ok := evs[0].(events.DepositRejected); !ok {
					t.Fatalf("events %v", evs)
				}
			}
		})
	}
	rejected := build(pending(), nil, events.DepositRejected{OrderNo: "D1", Remark: "no"})
	if len(rejected.Balances) != 0 {
		t.Fatalf("a rejection moved money: %v", rejected.Balances)
	}
}

func TestConfigAndInvites(t *testing.T) {
	cfg := build(newConfigState(), nil, bank)
	noPw := bank
	noPw.PasswordHash = ""
	if evs, _ := decideConfigureChannel(cfg, noPw, "8888", "h2:8888", fakeVerify); len(evs) != 0 {
		t.Errorf("same channel and password again wrote %v", evs)
	}
	if evs, _ := decideConfigureChannel(cfg, noPw, "", "", fakeVerify); len(evs) != 0 {
		t.Errorf("an empty password should keep the old one: wrote %v", evs)
	}
	off := noPw
	off.Enabled = false
	evs, _ := decideConfigureChannel(cfg, off, "", "", fakeVerify)
	if len(evs) != 1 || evs[0].(events.DepositChannelConfigured).PasswordHash != bank.PasswordHash || evs[0].(events.DepositChannelConfigured).Enabled {
		t.Errorf("disabling: %v", evs)
	}
	if evs, _ := decideConfigureChannel(cfg, noPw, "9999", "h:9999", fakeVerify); len(evs) != 1 || evs[0].(events.DepositChannelConfigured).PasswordHash != "h:9999" {
		t.Errorf("a new password: %v", evs)
	}
	fresh := noPw
	fresh.ID = "cash"
	if evs, _ := decideConfigureChannel(cfg, fresh, "", "", fakeVerify); len(evs) != 1 || evs[0].(events.DepositChannelConfigured).PasswordHash != "" {
		t.Errorf("a new channel without password: %v", evs)
	}
	// A channel of the old kind (unsalted SHA-256) is re-hashed when its password is given again.
	legacy := bank
	legacy.PasswordHash = secret.SHA256Hex("8888")
	old := build(newConfigState(), nil, legacy)
	if evs, _ := decideConfigureChannel(old, noPw, "8888", "h:8888", func(string, string) bool { return true }); len(evs) != 1 ||
		evs[0].(events.DepositChannelConfigured).PasswordHash != "h:8888" {
		t.Errorf("legacy hash kept: %v", evs)
	}
	if evs, _ := decideSiteConfig(cfg, "title", "lotbook"); len(evs) != 1 {
		t.Error("site config not written")
	}
	cfg = build(cfg, nil, events.SiteConfigured{Name: "title", Value: "lotbook"})
	if evs, _ := decideSiteConfig(cfg, "title", "lotbook"); len(evs) != 0 {
		t.Error("same site config written again")
	}

	root := build(&inviteState{}, nil, events.InviteCodeIssued{Code: "LOTBOOK"})
	if evs, err := decideIssueInvite(root, "LOTBOOK", ""); err != nil || len(evs) != 0 {
		t.Errorf("root again: %v %v", evs, err)
	}
	if _, err := decideIssueInvite(root, "LOTBOOK", "m1"); err != errCodeTaken {
		t.Errorf("taken code: %v", err)
	}
	if evs, _ := decideIssueInvite(&inviteState{}, "ABCDEFG", "m1"); len(evs) != 1 {
		t.Error("new code not issued")
	}

	seen := map[string]bool{}
	for n := 0; n < 12; n++ {
		c := inviteCandidate("3f1c2b8e-0000-5000-8000-000000000001", n)
		if !regexp.MustCompile(`^[ABCDEFGHJKMNPQRSTUVWXYZ]{7,8}$`).MatchString(c) || (n < 8) != (len(c) == 7) {
			t.Errorf("candidate %d: %q", n, c)
		}
		if seen[c] {
			t.Errorf("candidate %d repeats %q", n, c)
		}
		seen[c] = true
		if !validInviteCode(c) {
			t.Errorf("%q not a valid code", c)
		}
	}
	for _, c := range []string{"LOTBOOK", "ABCD", "A1B2C3"} {
		if !validInviteCode(c) {
			t.Errorf("%q refused", c)
		}
	}
	for _, c := range []string{"", "ABC", "lotbook", "LOT BOOK", "LOTBOOK-1", "ABCDEFGHIJKLMNOPQ"} {
		if validInviteCode(c) {
			t.Errorf("%q accepted", c)
		}
	}
}

func TestKinds(t *testing.T) {
	want := map[Kind]int{KindInvalid: 400, KindUnauthorized: 401, KindForbidden: 403, KindNotFound: 404,
		KindConflict: 409, KindRule: 422, KindRateLimited: 429, KindUnavailable: 503}
	for k, status := range want {
		if k.HTTPStatus() != status {
			t.Errorf("%v: %d, want %d", k, k.HTTPStatus(), status)
		}
	}
	var err error = Unavailable(errCodeTaken)
	if e, ok := AsError(err); !ok || e.Key != KeySystemBusy || e.Error() == "" {
		t.Fatalf("AsError: %v", err)
	}
}
