package identity

import (
	"testing"
	"time"

	"github.com/lotbook/lotbook/commands"
	"github.com/lotbook/lotbook/commands/commandstest"
	"github.com/lotbook/lotbook/events"
)

func submission(front, back string) events.RealNameSubmitted {
	return events.RealNameSubmitted{SubmissionID: "s1", Name: "王小明", IDNumberKeyedHash: "h1", FrontFileID: front, BackFileID: back}
}

func withFiles() []events.Payload {
	return []events.Payload{events.FileUploaded{FileID: "f1"}, events.FileUploaded{FileID: "f2"}}
}

func TestValidateRealName(t *testing.T) {
	ok := RealNameInput{Name: " 王  小明 ", IDNumber: "a123456789", FrontFileID: "f1", BackFileID: "f2"}
	with := func(f func(*RealNameInput)) RealNameInput { in := ok; f(&in); return in }
	name, id, err := validateRealName(ok)
	if err != nil || name != "王 小明" || id != "A123456789" {
		t.Fatalf("validateRealName(ok) = %q %q %v", name, id, err)
	}
	for want, in := range map[string]RealNameInput{
		commands.KeyNameRequired:     with(func(i *RealNameInput) { i.Name = "  " }),
		commands.KeyIDNumberRequired: with(func(i *RealNameInput) { i.IDNumber = "" }),
		commands.KeyIDPhotosRequired: with(func(i *RealNameInput) { i.BackFileID = "" }),
		commands.KeyNameInvalid:      with(func(i *RealNameInput) { i.Name = "X1" }),
		commands.KeyIDNumberInvalid:  with(func(i *RealNameInput) { i.IDNumber = "A123456788" }),
	} {
		_, _, err := validateRealName(in)
		commandstest.WantKey(t, err, want)
	}
	_, _, err = validateRealName(with(func(i *RealNameInput) { i.BackFileID = "f1" }))
	commandstest.WantKey(t, err, commands.KeyIDPhotosRequired)
}

func TestDecideSubmitAndReviewRealName(t *testing.T) {
	sub := submission("f1", "f2")
	cases := []struct {
		name string
		m    *commands.Member
		sub  events.RealNameSubmitted
		key  string
	}{
		{"first", commandstest.Registered(withFiles()...), sub, ""},
		{"not my photo", commandstest.Registered(withFiles()...), submission("f1", "f9"), commands.KeyFileNotFound},
		{"pending", commandstest.Registered(append(withFiles(), sub)...), sub, commands.KeyRealNamePending},
		{"verified", commandstest.Registered(append(withFiles(), sub, events.RealNameApproved{})...), sub, commands.KeyRealNameVerified},
		{"resubmit after reject", commandstest.Registered(append(withFiles(), sub, events.RealNameRejected{Remark: "blurry"})...), sub, ""},
		{"frozen", commandstest.Registered(append(withFiles(), events.AccountFlagChanged{Flag: events.FlagFrozen, On: true})...), sub, commands.KeyAccountFrozen},
		{"staff", commandstest.Build(commands.NewMember("m1"), nil, events.MemberRegistered{MemberID: "o", Account: "ops", Role: events.RoleOps}), sub, commands.KeyAccountNotExist},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			evs, err := decideSubmitRealName(c.m, c.sub)
			commandstest.WantKey(t, err, c.key)
			if c.key == "" && len(evs) != 1 {
				t.Fatalf("events %v", evs)
			}
		})
	}

	pending := func() *commands.Member { return commandstest.Registered(append(withFiles(), sub)...) }
	evs, err := decideReviewRealName(pending(), true, "")
	commandstest.WantKey(t, err, "")
	if a, ok := evs[0].(events.RealNameApproved); !ok || a.SubmissionID != "s1" {
		t.Fatalf("approve %v", evs)
	}
	evs, err = decideReviewRealName(pending(), false, "blurry")
	commandstest.WantKey(t, err, "")
	if r, ok := evs[0].(events.RealNameRejected); !ok || r.Remark != "blurry" {
		t.Fatalf("reject %v", evs)
	}
	m := pending()
	m.Apply(events.RecordedEvent{}, evs[0])
	if verificationPart.Of(m).realName.status != events.RealNameStatusRejected || usesIDNumber(m, "h1") {
		t.Fatalf("after reject: %+v", verificationPart.Of(m).realName)
	}
	_, err = decideReviewRealName(m, true, "")
	commandstest.WantKey(t, err, commands.KeyRealNameNotPending)
	_, err = decideReviewRealName(commands.NewMember("m1"), true, "")
	commandstest.WantKey(t, err, commands.KeyAccountNotExist)
}

func TestDecideBindCard(t *testing.T) {
	sub := submission("f1", "f2")
	verified := func(extra ...events.Payload) *commands.Member {
		return commandstest.Registered(append(append(withFiles(), sub, events.RealNameApproved{}), extra...)...)
	}
	card := events.BankCardBound{CardID: "c1", HolderName: "王小明", CardNumberKeyedHash: "n1", CardLast4: "6789"}
	other := card
	other.HolderName = "陳大文"
	cases := []struct {
		name string
		m    *commands.Member
		card events.BankCardBound
		key  string
	}{
		{"verified", verified(), card, ""},
		{"not verified", commandstest.Registered(append(withFiles(), sub)...), card, commands.KeyRealNameNotVerified},
		{"someone else's card", verified(), other, commands.KeyCardNotOwn},
		{"bound already", verified(card), events.BankCardBound{CardID: "c2", HolderName: "王小明", CardNumberKeyedHash: "n1"}, commands.KeyCardExists},
		{"bound and unbound", verified(card, events.BankCardUnbound{CardID: "c1"}), card, ""},
		{"disabled", verified(events.AccountFlagChanged{Flag: events.FlagDisabled, On: true}), card, commands.KeyAccountDisabled},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := decideBindCard(c.m, c.card)
			commandstest.WantKey(t, err, c.key)
		})
	}
	_, err := decideUnbindCard(verified(card), "c2")
	commandstest.WantKey(t, err, commands.KeyCardNotFound)
	evs, err := decideUnbindCard(verified(card), "c1")
	commandstest.WantKey(t, err, "")
	if u, ok := evs[0].(events.BankCardUnbound); !ok || u.CardID != "c1" {
		t.Fatalf("unbind %v", evs)
	}
}

func TestDecideClaim(t *testing.T) {
	taken := commands.Rule(commands.KeyIDNumberExists)
	held := func(holder, ref string, at time.Time) *guardState {
		return commandstest.Build(&guardState{}, []time.Time{at}, events.UniqueClaimed{MemberID: holder, Ref: ref})
	}
	inUse := func(used bool) func(string) (bool, error) { return func(string) (bool, error) { return used, nil } }
	cases := []struct {
		name   string
		g      *guardState
		member string
		used   bool
		now    time.Time
		key    string
		claims bool
	}{
		{"free", &guardState{}, "m1", false, commandstest.T0, "", true},
		{"mine again, same ref", held("m1", "r1", commandstest.T0), "m1", false, commandstest.T0, "", false},
		{"mine, new ref", held("m1", "r0", commandstest.T0), "m1", true, commandstest.T0, "", true},
		{"other member uses it", held("m2", "r0", commandstest.T0.Add(-time.Hour)), "m1", true, commandstest.T0, commands.KeyIDNumberExists, false},
		{"other member's fresh claim", held("m2", "r0", commandstest.T0.Add(-10*time.Second)), "m1", false, commandstest.T0, commands.KeyIDNumberExists, false},
		{"other member gave it up", held("m2", "r0", commandstest.T0.Add(-time.Hour)), "m1", false, commandstest.T0, "", true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			evs, err := decideClaim(c.g, c.member, "r1", c.now, inUse(c.used), taken)
			commandstest.WantKey(t, err, c.key)
			if got := len(evs) == 1; got != c.claims {
				t.Fatalf("claims %v, want %v", got, c.claims)
			}
		})
	}
}

// The card form in Taiwan's terms: a listed bank code (the card takes the list's name), a
// four-digit branch, 10 to 16 digits; IFSC and UPI refused unless ops enabled them.
func TestValidateCardTaiwan(t *testing.T) {
	ok := CardInput{HolderName: "王小明", BankName: "whatever", Branch: "0037", CardNumber: "0040-1234 5678", BankCode: "004"}
	card, number, e := validateCard(ok, nil)
	if e != nil || card.BankName != "臺灣銀行" || number != "004012345678" || card.CardLast4 != "5678" {
		t.Fatalf("valid card: %+v %q %v", card, number, e)
	}
	with := func(f func(*CardInput)) CardInput { in := ok; f(&in); return in }
	all := map[string]bool{"ifsc": true, "upi": true}
	for name, c := range map[string]struct {
		in    CardInput
		extra map[string]bool
		want  string
	}{
		"no branch":          {with(func(i *CardInput) { i.Branch = "" }), nil, commands.KeyCardFieldsRequired},
		"no bank name is ok": {with(func(i *CardInput) { i.BankName = "" }), nil, ""},
		"unlisted code":      {with(func(i *CardInput) { i.BankCode = "999" }), nil, commands.KeyBankCodeInvalid},
		"two-digit code":     {with(func(i *CardInput) { i.BankCode = "04" }), nil, commands.KeyBankCodeInvalid},
		"branch name":        {with(func(i *CardInput) { i.Branch = "營業部" }), nil, commands.KeyBranchCodeInvalid},
		"branch 3 digits":    {with(func(i *CardInput) { i.Branch = "037" }), nil, commands.KeyBranchCodeInvalid},
		"short number":       {with(func(i *CardInput) { i.CardNumber = "123456789" }), nil, commands.KeyCardNumberInvalid},
		"ifsc off":           {with(func(i *CardInput) { i.IFSC = "SBIN0001234" }), nil, commands.KeyCardFieldOff},
		"upi off":            {with(func(i *CardInput) { i.UPI = "a@ybl" }), map[string]bool{"ifsc": true}, commands.KeyCardFieldOff},
		"ifsc on":            {with(func(i *CardInput) { i.IFSC = "sbin0001234" }), all, ""},
		"ifsc on, invalid":   {with(func(i *CardInput) { i.IFSC = "SBIN1001234" }), all, commands.KeyIFSCInvalid},
		"upi on, invalid":    {with(func(i *CardInput) { i.UPI = "alice" }), all, commands.KeyUPIInvalid},
	} {
		_, _, e := validateCard(c.in, c.extra)
		got := ""
		if e != nil {
			got = e.Key
		}
		if got != c.want {
			t.Errorf("%s: got %q, want %q", name, got, c.want)
		}
	}
}

func TestCardFieldsPart(t *testing.T) {
	c := cardFields{}
	c.Apply(events.RecordedEvent{}, events.SiteConfigured{Name: "withdrawal.bank.cardFields", Value: "ifsc"})
	c.Apply(events.RecordedEvent{}, events.SiteConfigured{Name: "title", Value: "upi"})
	if got := c.enabled(); !got["ifsc"] || got["upi"] {
		t.Errorf("enabled = %v", got)
	}
	c.Apply(events.RecordedEvent{}, events.SiteConfigured{Name: "withdrawal.bank.cardFields", Value: ""})
	if got := c.enabled(); len(got) != 0 {
		t.Errorf("disabled again = %v", got)
	}
}

func TestDecideSetAvatar(t *testing.T) {
	m := commandstest.Registered(withFiles()...)
	_, err := decideSetAvatar(m, "nope")
	commandstest.WantKey(t, err, commands.KeyFileNotFound)
	evs, err := decideSetAvatar(m, "f1")
	if err != nil || len(evs) != 1 || evs[0] != (events.AvatarSet{FileID: "f1"}) {
		t.Fatalf("set: %v %v", evs, err)
	}
	m = commandstest.Registered(append(withFiles(), events.AvatarSet{FileID: "f1"})...)
	if evs, err := decideSetAvatar(m, "f1"); err != nil || len(evs) != 0 {
		t.Fatalf("again: %v %v", evs, err)
	}
}
