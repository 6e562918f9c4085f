package funds

import (
	"regexp"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/lotbook/lotbook/commands"
	"github.com/lotbook/lotbook/commands/commandstest"
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
		kind commands.Kind
	}{
		{"accepted", nil, "", 0},
		{"accepted at the minimum", func(r *depositRequest) { r.in.Amount = "1000" }, "", 0},
		{"accepted at the maximum", func(r *depositRequest) { r.in.Amount = "1000000.00" }, "", 0},
		{"no member", func(r *depositRequest) { r.member.registered = false }, commands.KeyAccountNotExist, commands.KindNotFound},
		{"disabled", func(r *depositRequest) { r.member.disabled = true }, commands.KeyAccountDisabled, commands.KindForbidden},
		{"frozen", func(r *depositRequest) { r.member.frozen = true }, commands.KeyAccountFrozen, commands.KindForbidden},
		{"unknown channel", func(r *depositRequest) { r.channel = nil }, commands.KeyChannelNotFound, commands.KindNotFound},
		{"disabled channel", func(r *depositRequest) { r.channel = &closed }, commands.KeyChannelClosed, commands.KindRule},
		{"no amount", func(r *depositRequest) { r.in.Amount = "" }, commands.KeyAmountRequired, commands.KindInvalid},
		{"zero", func(r *depositRequest) { r.in.Amount = "0" }, commands.KeyAmountInvalid, commands.KindInvalid},
		{"negative", func(r *depositRequest) { r.in.Amount = "-5000" }, commands.KeyAmountInvalid, commands.KindInvalid},
		{"NaN", func(r *depositRequest) { r.in.Amount = "NaN" }, commands.KeyAmountInvalid, commands.KindInvalid},
		{"exponent", func(r *depositRequest) { r.in.Amount = "5e3" }, commands.KeyAmountInvalid, commands.KindInvalid},
		{"three decimals", func(r *depositRequest) { r.in.Amount = "5000.001" }, commands.KeyAmountInvalid, commands.KindInvalid},
		{"below minimum", func(r *depositRequest) { r.in.Amount = "999.99" }, commands.KeyAmountBelowMinimum, commands.KindRule},
		{"above maximum", func(r *depositRequest) { r.in.Amount = "1000000.01" }, commands.KeyAmountAboveMaximum, commands.KindRule},
		{"after hours", func(r *depositRequest) { r.now = night }, commands.KeyDepositWindowClosed, commands.KindRule},
		{"exchange holiday", func(r *depositRequest) { r.now = holiday }, commands.KeyDepositWindowClosed, commands.KindRule},
		{"saturday", func(r *depositRequest) { r.now = saturday }, commands.KeyDepositWindowClosed, commands.KindRule},
		{"always open channel at night", func(r *depositRequest) { r.channel = &open; r.now = night }, "", 0},
		{"no proof", func(r *depositRequest) { r.in.ProofFileID = "" }, commands.KeyDepositProofRequired, commands.KindInvalid},
		{"someone else's proof", func(r *depositRequest) { r.member.ownsProof = false }, commands.KeyFileNotFound, commands.KindNotFound},
		{"wrong channel password", func(r *depositRequest) { r.in.ChannelPassword = "8889" }, commands.KeyChannelPasswordWrong, commands.KindRule},
		{"missing channel password", func(r *depositRequest) { r.in.ChannelPassword = "" }, commands.KeyChannelPasswordWrong, commands.KindRule},
		{"channel without password", func(r *depositRequest) { r.channel = &noPassword; r.in.ChannelPassword = "" }, "", 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ch := bank
			r := depositRequest{in: input, member: member, channel: &ch, now: commandstest.T0, cal: calendar.Taiwan(),
				orderNo: func(n int) string { return depositOrderNo("m1", "cmd", commandstest.T0, n) }, channelPassword: fakeVerify}
			if tc.mod != nil {
				tc.mod(&r)
			}
			evs, err := decideDepositRequest(commands.NewAccount("m1"), r)
			commandstest.WantKey(t, err, tc.key)
			if err != nil {
				if e, _ := commands.AsError(err); e.Kind != tc.kind {
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
		{"proof of a pending deposit", []events.Payload{requested("D1", "f1")}, commands.KeyDepositProofUsed},
		{"proof of an approved deposit", []events.Payload{requested("D1", "f1"), events.DepositApproved{OrderNo: "D1"}}, commands.KeyDepositProofUsed},
		{"proof of a rejected deposit", []events.Payload{requested("D1", "f1"), events.DepositRejected{OrderNo: "D1"}}, ""},
		{"rejected, then used again", []events.Payload{requested("D1", "f1"), events.DepositRejected{OrderNo: "D1"}, requested("D2", "f1")}, commands.KeyDepositProofUsed},
	}
	ch := bank
	ch.Window = events.TimeWindow{AlwaysOpen: true}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a := commandstest.Build(commands.NewAccount("m1"), nil, tc.prior...)
			evs, err := decideDepositRequest(a, depositRequest{
				in:     DepositInput{ChannelID: "bank", Amount: "5000", ProofFileID: "f1", ChannelPassword: "8888"},
				member: memberFacts{registered: true, ownsProof: true}, channel: &ch, now: commandstest.T0,
				orderNo:         func(n int) string { return depositOrderNo("m1", "cmd", commandstest.T0, n) },
				channelPassword: fakeVerify,
			})
			commandstest.WantKey(t, err, tc.key)
			if e, ok := commands.AsError(err); ok && e.Kind != commands.KindRule {
				t.Fatalf("kind %v, want rule (422)", e.Kind)
			}
			if err == nil && len(evs) != 1 {
				t.Fatalf("events %v", evs)
			}
		})
	}
}

func TestOrderNumbers(t *testing.T) {
	n0 := depositOrderNo("m1", "cmd", commandstest.T0, 0)
	if !regexp.MustCompile(`^D20261123\d{16}$`).MatchString(n0) {
		t.Fatalf("order number %q", n0)
	}
	if n0 != depositOrderNo("m1", "cmd", commandstest.T0, 0) {
		t.Error("not deterministic")
	}
	if n0 == depositOrderNo("m1", "cmd", commandstest.T0, 1) || n0 == depositOrderNo("m2", "cmd", commandstest.T0, 0) || n0 == depositOrderNo("m1", "cmd2", commandstest.T0, 0) {
		t.Error("collision between candidates")
	}
	// The date is Taipei's: 16:30 UTC is the next day there.
	if n := depositOrderNo("m1", "cmd", time.Date(2026, 11, 23, 16, 30, 0, 0, time.UTC), 0); n[:9] != "D20261124" {
		t.Errorf("order number %q", n)
	}
	// A taken number moves on to the next candidate.
	a := commandstest.Build(commands.NewAccount("m1"), nil, events.DepositRequested{OrderNo: n0, Currency: "TWD", Amount: decimal.NewFromInt(5000)})
	ch := bank
	ch.Window = events.TimeWindow{AlwaysOpen: true}
	evs, err := decideDepositRequest(a, depositRequest{
		in:     DepositInput{ChannelID: "bank", Amount: "5000", ProofFileID: "f", ChannelPassword: "8888"},
		member: memberFacts{registered: true, ownsProof: true}, channel: &ch, now: commandstest.T0,
		orderNo:         func(n int) string { return depositOrderNo("m1", "cmd", commandstest.T0, n) },
		channelPassword: fakeVerify,
	})
	if err != nil || evs[0].(events.DepositRequested).OrderNo != depositOrderNo("m1", "cmd", commandstest.T0, 1) {
		t.Fatalf("collision not avoided: %v %v", evs, err)
	}
}

func TestReviewDeposit(t *testing.T) {
	req := events.DepositRequested{OrderNo: "D1", Currency: "TWD", Amount: decimal.RequireFromString("5000.50")}
	pending := func() *commands.Account { return commandstest.Build(commands.NewAccount("m1"), nil, req) }

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

	approved := commandstest.Build(pending(), nil, ap)
	if b := approved.Balances["TWD"]; !b.Available.Equal(req.Amount) || !b.Frozen.IsZero() {
		t.Fatalf("balance after approval %+v", b)
	}

	tests := []struct {
		name    string
		a       *commands.Account
		approve bool
		order   string
		key     string
	}{
		{"approve unknown", pending(), true, "D2", commands.KeyOrderNotFound},
		{"approve twice", approved, true, "D1", commands.KeyOrderNotPending},
		{"reject approved", approved, false, "D1", commands.KeyOrderNotPending},
		{"reject pending", pending(), false, "D1", ""},
		{"reject rejected", commandstest.Build(pending(), nil, events.DepositRejected{OrderNo: "D1", Remark: "no"}), false, "D1", commands.KeyOrderNotPending},
		{"approve rejected", commandstest.Build(pending(), nil, events.DepositRejected{OrderNo: "D1", Remark: "no"}), true, "D1", commands.KeyOrderNotPending},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			decide := decideRejectDeposit
			if tc.approve {
				decide = decideApproveDeposit
			}
			evs, err := decide(tc.a, tc.order, "remark")
			commandstest.WantKey(t, err, tc.key)
			if err == nil {
				if _, ok := evs[0].(events.DepositRejected); !ok {
					t.Fatalf("events %v", evs)
				}
			}
		})
	}
	rejected := commandstest.Build(pending(), nil, events.DepositRejected{OrderNo: "D1", Remark: "no"})
	if len(rejected.Balances) != 0 {
		t.Fatalf("a rejection moved money: %v", rejected.Balances)
	}
}

func TestConfigureChannel(t *testing.T) {
	cfg := commandstest.Build(commands.NewConfig(), nil, bank)
	ch := channelsPart.Of(cfg)
	noPw := bank
	noPw.PasswordHash = ""
	if evs, _ := decideConfigureChannel(ch, noPw, "8888", "h2:8888", fakeVerify); len(evs) != 0 {
		t.Errorf("same channel and password again wrote %v", evs)
	}
	if evs, _ := decideConfigureChannel(ch, noPw, "", "", fakeVerify); len(evs) != 0 {
		t.Errorf("an empty password should keep the old one: wrote %v", evs)
	}
	off := noPw
	off.Enabled = false
	evs, _ := decideConfigureChannel(ch, off, "", "", fakeVerify)
	if len(evs) != 1 || evs[0].(events.DepositChannelConfigured).PasswordHash != bank.PasswordHash || evs[0].(events.DepositChannelConfigured).Enabled {
		t.Errorf("disabling: %v", evs)
	}
	if evs, _ := decideConfigureChannel(ch, noPw, "9999", "h:9999", fakeVerify); len(evs) != 1 || evs[0].(events.DepositChannelConfigured).PasswordHash != "h:9999" {
		t.Errorf("a new password: %v", evs)
	}
	fresh := noPw
	fresh.ID = "cash"
	if evs, _ := decideConfigureChannel(ch, fresh, "", "", fakeVerify); len(evs) != 1 || evs[0].(events.DepositChannelConfigured).PasswordHash != "" {
		t.Errorf("a new channel without password: %v", evs)
	}
	// A channel of the old kind (unsalted SHA-256) is re-hashed when its password is given again.
	legacy := bank
	legacy.PasswordHash = secret.SHA256Hex("8888")
	old := channelsPart.Of(commandstest.Build(commands.NewConfig(), nil, legacy))
	if evs, _ := decideConfigureChannel(old, noPw, "8888", "h:8888", func(string, string) bool { return true }); len(evs) != 1 ||
		evs[0].(events.DepositChannelConfigured).PasswordHash != "h:8888" {
		t.Errorf("legacy hash kept: %v", evs)
	}
}
