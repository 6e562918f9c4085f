package commands

import (
	"testing"
)

// A command id binds to one command: a record that another command wrote under the same id is
// never taken for this command's, whichever caller (the API, a process manager, a test) chose
// the id.
func TestCommandIDBindsToOneCommand(t *testing.T) {
	f := fundsFixture(t)
	m := f.verified("0912345678", "A123456789", "5000")
	cardID := f.card(m, "0123456789012")
	wrong := WithdrawalInput{Amount: "1000", CardID: cardID, FundPassword: "000000"}

	// Another kind of command under the same id (a logout) and no request fingerprint at all.
	s, err := f.svc.Login(f.ctx, meta("member"), Login{Account: "0912345678", Password: "demo1234"})
	f.must(err)
	k := meta("member")
	_, err = f.svc.Logout(f.ctx, k, Logout{MemberID: m, Token: s.Token})
	f.must(err)
	_, err = f.svc.RequestWithdrawal(f.ctx, k, m, wrong)
	wantKey(t, err, KeyIdempotencyKeyReused)
	if e, _ := AsError(err); e.Kind != KindConflict {
		t.Fatalf("kind %v, want conflict", e.Kind)
	}

	// The same command with another request fingerprint.
	k = meta("member")
	k.Request = "first"
	_, err = f.svc.RequestWithdrawal(f.ctx, k, m, wrong)
	wantKey(t, err, KeyFundPasswordWrong)
	other := k
	other.Request = "second"
	_, err = f.service().RequestWithdrawal(f.ctx, other, m, WithdrawalInput{Amount: "1000", CardID: cardID, FundPassword: "123456"})
	wantKey(t, err, KeyIdempotencyKeyReused)
	// The identical retry replays its own refusal, on any instance, and counts it once.
	_, err = f.service().RequestWithdrawal(f.ctx, k, m, wrong)
	wantKey(t, err, KeyFundPasswordWrong)

	all := f.checkLog()
	if n := count(all, "FundPasswordRejected"); n != 1 {
		t.Fatalf("%d wrong fund passwords recorded, want 1", n)
	}
	if n := count(all, "WithdrawalRequested"); n != 0 {
		t.Fatalf("%d withdrawals, want none", n)
	}
	// The guarded commands check for their own record before anything else.
	_, err = f.svc.BindCard(f.ctx, k, m, CardInput{HolderName: "王小明", BankName: "Bank of Taiwan", Branch: "Taipei", CardNumber: "0123456789020", BankCode: "004"})
	wantKey(t, err, KeyIdempotencyKeyReused)
}
