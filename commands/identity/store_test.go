package identity

import (
	"testing"
	"time"

	"github.com/lotbook/lotbook/commands"
	"github.com/lotbook/lotbook/commands/commandstest"
)

// fixture is the kernel's test bed with the platform's members and identity's commands.
type fixture struct {
	*commandstest.Fixture
	ids *Commands
}

func newFixture(t *testing.T) *fixture {
	f := &fixture{Fixture: commandstest.New(t, commandstest.WithSealer)}
	f.ids = New(f.Svc)
	f.SeedMembers()
	return f
}

// verified registers a member and verifies their identity (ID number id).
func (f *fixture) verified(account, id string) string {
	f.T.Helper()
	s := f.Register(account, "LOTBOOK")
	_, err := f.ids.SubmitRealName(f.Ctx, commandstest.Meta("member:"+account), s.MemberID, RealNameInput{Name: "王小明", IDNumber: id,
		FrontFileID: f.Upload(s.MemberID), BackFileID: f.Upload(s.MemberID)})
	f.Must(err)
	_, err = f.ids.ApproveRealName(f.Ctx, commandstest.Meta("ops:ops"), ReviewRealName{Account: account, Remark: "ok"})
	f.Must(err)
	return s.MemberID
}

func (f *fixture) card(memberID, number string) string {
	f.T.Helper()
	r, err := f.ids.BindCard(f.Ctx, commandstest.Meta("member"), memberID, CardInput{HolderName: "王小明", BankName: "Bank of Taiwan", Branch: "0037",
		CardNumber: number, BankCode: "004"})
	f.Must(err)
	return r.CardID
}

func TestUniqueIDNumberAndCardAcrossMembers(t *testing.T) {
	f := newFixture(t)
	m1 := f.verified("0912345678", "A123456789")
	s2 := f.Register("0987654321", "LOTBOOK")
	in := RealNameInput{Name: "王小明", IDNumber: "A123456789", FrontFileID: f.Upload(s2.MemberID), BackFileID: f.Upload(s2.MemberID)}
	_, err := f.ids.SubmitRealName(f.Ctx, commandstest.Meta("member"), s2.MemberID, in)
	commandstest.WantKey(t, err, commands.KeyIDNumberExists)
	// Another instance (cold cache) agrees.
	_, err = New(f.Service(commandstest.WithSealer)).SubmitRealName(f.Ctx, commandstest.Meta("member"), s2.MemberID, in)
	commandstest.WantKey(t, err, commands.KeyIDNumberExists)

	// A rejected submission gives the number up (after the claim's grace).
	s3 := f.Register("0911111111", "LOTBOOK")
	in3 := RealNameInput{Name: "陳大文", IDNumber: "B200000004", FrontFileID: f.Upload(s3.MemberID), BackFileID: f.Upload(s3.MemberID)}
	_, err = f.ids.SubmitRealName(f.Ctx, commandstest.Meta("member"), s3.MemberID, in3)
	f.Must(err)
	in.IDNumber = "B200000004"
	_, err = f.ids.SubmitRealName(f.Ctx, commandstest.Meta("member"), s2.MemberID, in)
	commandstest.WantKey(t, err, commands.KeyIDNumberExists)
	_, err = f.ids.RejectRealName(f.Ctx, commandstest.Meta("ops:ops"), ReviewRealName{Account: "0911111111", Remark: "not your card"})
	f.Must(err)
	f.Clock.Add(2 * time.Minute)
	_, err = f.ids.SubmitRealName(f.Ctx, commandstest.Meta("member"), s2.MemberID, in)
	f.Must(err)

	// A card number is bound once, across members; unbinding frees it.
	m4 := f.verified("0922222222", "F131104093")
	c1 := f.card(m1, "0123456789012")
	_, err = f.ids.BindCard(f.Ctx, commandstest.Meta("member"), m4, CardInput{HolderName: "王小明", BankName: "B", Branch: "0037", CardNumber: "0123456789012", BankCode: "004"})
	commandstest.WantKey(t, err, commands.KeyCardExists)
	_, err = f.ids.BindCard(f.Ctx, commandstest.Meta("member"), m1, CardInput{HolderName: "王小明", BankName: "B", Branch: "0037", CardNumber: "0123 4567 89012", BankCode: "004"})
	commandstest.WantKey(t, err, commands.KeyCardExists)
	_, err = f.ids.UnbindCard(f.Ctx, commandstest.Meta("member"), UnbindCard{MemberID: m4, CardID: c1})
	commandstest.WantKey(t, err, commands.KeyCardNotFound)
	_, err = f.ids.UnbindCard(f.Ctx, commandstest.Meta("member"), UnbindCard{MemberID: m1, CardID: c1})
	f.Must(err)
	f.Clock.Add(2 * time.Minute)
	f.card(m4, "0123456789012")
}
