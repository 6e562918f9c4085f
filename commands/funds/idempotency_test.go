package funds_test

import (
	"testing"

	"github.com/lotbook/lotbook/commands"
	"github.com/lotbook/lotbook/commands/commandstest"
	"github.com/lotbook/lotbook/commands/funds"
	"github.com/lotbook/lotbook/commands/identity"
)

// A command id binds to one command: a record that another command wrote under the same id is
// never taken for this command's, whichever caller (the API, a process manager, a test) chose
// the id.
func TestCommandIDBindsToOneCommand(t *testing.T) {
	f := newFundsFixture(t)
	m := f.Verified("0912345678", "A123456789", "5000")
	cardID := f.Card(m, "0123456789012")
	wrong := funds.WithdrawalInput{Amount: "1000", CardID: cardID, FundPassword: "000000"}

	// Another kind of command under the same id (a logout) and no request fingerprint at all.
	s, err := f.Svc.Login(f.Ctx, commandstest.Meta("member"), commands.Login{Account: "0912345678", Password: "demo1234"})
	f.Must(err)
	k := commandstest.Meta("member")
	_, err = f.Svc.Logout(f.Ctx, k, commands.Logout{MemberID: m, Token: s.Token})
	f.Must(err)
	_, err = f.Funds.RequestWithdrawal(f.Ctx, k, m, wrong)
	commandstest.WantKey(t, err, commands.KeyIdempotencyKeyReused)
	if e, _ := commands.AsError(err); e.Kind != commands.KindConflict {
		t.Fatalf("kind %v, want conflict", e.Kind)
	}

	// The same command with another request fingerprint.
	k = commandstest.Meta("member")
	k.Request = "first"
	_, err = f.Funds.RequestWithdrawal(f.Ctx, k, m, wrong)
	commandstest.WantKey(t, err, commands.KeyFundPasswordWrong)
	other := k
	other.Request = "second"
	_, err = funds.New(f.Service()).RequestWithdrawal(f.Ctx, other, m, funds.WithdrawalInput{Amount: "1000", CardID: cardID, FundPassword: "123456"})
	commandstest.WantKey(t, err, commands.KeyIdempotencyKeyReused)
	// The identical retry replays its own refusal, on any instance, and counts it once.
	_, err = funds.New(f.Service()).RequestWithdrawal(f.Ctx, k, m, wrong)
	commandstest.WantKey(t, err, commands.KeyFundPasswordWrong)

	all := f.CheckLog()
	if n := commandstest.Count(all, "FundPasswordRejected"); n != 1 {
		t.Fatalf("%d wrong fund passwords recorded, want 1", n)
	}
	if n := commandstest.Count(all, "WithdrawalRequested"); n != 0 {
		t.Fatalf("%d withdrawals, want none", n)
	}
	// The guarded commands check for their own record before anything else.
	_, err = f.Identity.BindCard(f.Ctx, k, m, identity.CardInput{HolderName: "王小明", BankName: "Bank of Taiwan", Branch: "0037", CardNumber: "0123456789020", BankCode: "004"})
	commandstest.WantKey(t, err, commands.KeyIdempotencyKeyReused)
}
