// Package scenario is the write side's test bed for scenarios across capabilities: the kernel's
// fixture (commandstest) with the commands of funds, identity and trading over it, and the
// steps such scenarios share (a deposit, a verified member with a card). Only tests import it,
// and only from outside the capability packages it wires (their _test packages).
package scenario

import (
	"fmt"
	"testing"

	"github.com/lotbook/lotbook/commands"
	"github.com/lotbook/lotbook/commands/commandstest"
	"github.com/lotbook/lotbook/commands/funds"
	"github.com/lotbook/lotbook/commands/identity"
	ids "github.com/lotbook/lotbook/commands/rules/identity"
	"github.com/lotbook/lotbook/commands/trading"
	"github.com/lotbook/lotbook/events"
)

// Fixture is a kernel with the capabilities' commands over it.
type Fixture struct {
	*commandstest.Fixture
	Funds    *funds.Commands
	Identity *identity.Commands
	Trading  *trading.Commands
}

// New is a fixture over a fresh SQLite store, with the personal-number sealer; opts adjust the
// kernel's options.
func New(t testing.TB, opts ...func(*commands.Options)) *Fixture {
	t.Helper()
	return Over(commandstest.New(t, append([]func(*commands.Options){commandstest.WithSealer}, opts...)...))
}

// Over wires the capabilities' commands over a kernel fixture.
func Over(base *commandstest.Fixture) *Fixture {
	return &Fixture{Fixture: base, Funds: funds.New(base.Svc), Identity: identity.New(base.Svc),
		Trading: trading.New(base.Svc, trading.TradingRules{})}
}

// Seed is the demo's shape: the platform's members (SeedMembers) and the bank deposit channel
// (TWD 1,000 to 1,000,000, password 8888) open on weekdays 09:30 to 19:30 in Taipei, or always.
func (f *Fixture) Seed(alwaysOpen bool) {
	f.T.Helper()
	f.SeedMembers()
	w := events.TimeWindow{Weekdays: []int{1, 2, 3, 4, 5}, Open: "09:30", Close: "19:30", TZ: "Asia/Taipei", ClosedOnHolidays: true, AlwaysOpen: alwaysOpen}
	_, err := f.Funds.ConfigureDepositChannel(f.Ctx, commandstest.Meta("system"), funds.ChannelInput{ID: "bank", Name: "Bank transfer", Currency: "TWD",
		Min: "1000", Max: "1000000", Password: "8888", Window: w, Enabled: true})
	f.Must(err)
}

// WithdrawalChannel opens the always-open bank withdrawal channel (TWD 100 to 500,000).
func (f *Fixture) WithdrawalChannel() {
	f.T.Helper()
	_, err := f.Funds.ConfigureWithdrawalChannel(f.Ctx, commandstest.Meta("system"), funds.ChannelInput{ID: "bank", Name: "Bank transfer", Currency: "TWD",
		Min: "100", Max: "500000", Window: events.TimeWindow{AlwaysOpen: true}, Enabled: true})
	f.Must(err)
}

// Deposit requests a deposit of amount TWD through the bank channel, with a fresh proof.
func (f *Fixture) Deposit(memberID, amount string) funds.OrderResult {
	f.T.Helper()
	r, err := f.Funds.RequestDeposit(f.Ctx, commandstest.Meta("member"), memberID, funds.DepositInput{ChannelID: "bank", Amount: amount,
		ProofFileID: f.Upload(memberID), ChannelPassword: "8888"})
	f.Must(err)
	return r
}

// Fund deposits amount TWD for the member and has ops approve it.
func (f *Fixture) Fund(memberID, amount string) {
	f.T.Helper()
	o := f.Deposit(memberID, amount)
	_, err := f.Funds.ApproveDeposit(f.Ctx, commandstest.Meta("ops:ops"), funds.ReviewOrder{MemberID: memberID, OrderNo: o.OrderNo, Remark: ""})
	f.Must(err)
}

// Verified registers a member, verifies their identity (ID number id), sets the fund password
// 123456 and funds them with amount TWD.
func (f *Fixture) Verified(account, id, amount string) string {
	f.T.Helper()
	s := f.Register(account, "LOTBOOK")
	_, err := f.Identity.SubmitRealName(f.Ctx, commandstest.Meta("member:"+account), s.MemberID, identity.RealNameInput{Name: "王小明", IDNumber: id,
		FrontFileID: f.Upload(s.MemberID), BackFileID: f.Upload(s.MemberID)})
	f.Must(err)
	_, err = f.Identity.ApproveRealName(f.Ctx, commandstest.Meta("ops:ops"), identity.ReviewRealName{Account: account, Remark: "ok"})
	f.Must(err)
	_, err = f.Svc.SetFundPassword(f.Ctx, commandstest.Meta("member:"+account), commands.SetFundPassword{MemberID: s.MemberID,
		LoginPassword: "demo1234", FundPassword: "123456", Confirm: "123456"})
	f.Must(err)
	f.Fund(s.MemberID, amount)
	return s.MemberID
}

// IDNumber is the n-th valid Taiwan ID number of a test (A2, n in seven digits, the check digit).
func IDNumber(n int) string {
	for d := 0; d <= 9; d++ {
		if id := fmt.Sprintf("A2%07d%d", n, d); ids.ValidTaiwanID(id) {
			return id
		}
	}
	panic(fmt.Sprintf("no check digit for %d", n))
}

// Card binds a card of the verified member (holder 王小明) and returns its id.
func (f *Fixture) Card(memberID, number string) string {
	f.T.Helper()
	r, err := f.Identity.BindCard(f.Ctx, commandstest.Meta("member"), memberID, identity.CardInput{HolderName: "王小明", BankName: "Bank of Taiwan",
		Branch: "0037", CardNumber: number, BankCode: "004"})
	f.Must(err)
	return r.CardID
}
