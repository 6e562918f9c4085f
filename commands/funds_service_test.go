package commands_test

import (
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/lotbook/lotbook/commands"
	"github.com/lotbook/lotbook/commands/commandstest"
	"github.com/lotbook/lotbook/commands/identity"
	"github.com/lotbook/lotbook/events"
)

var d = decimal.RequireFromString

// fundsFixture is the kernel's test bed with identity's commands: the platform's members, the
// bank deposit channel and an always-open withdrawal channel.
type fundsFixture struct {
	*commandstest.Fixture
	ids *identity.Commands
}

func newFundsFixture(t *testing.T) *fundsFixture {
	f := &fundsFixture{Fixture: commandstest.New(t, commandstest.WithSealer)}
	f.ids = identity.New(f.Svc)
	f.SeedMembers()
	_, err := f.Svc.ConfigureDepositChannel(f.Ctx, commandstest.Meta("system"), commands.ChannelInput{ID: "bank", Name: "Bank transfer", Currency: "TWD",
		Min: "1000", Max: "1000000", Password: "8888", Window: events.TimeWindow{AlwaysOpen: true}, Enabled: true})
	f.Must(err)
	_, err = f.Svc.ConfigureWithdrawalChannel(f.Ctx, commandstest.Meta("system"), commands.ChannelInput{ID: "bank", Name: "Bank transfer", Currency: "TWD",
		Min: "100", Max: "500000", Window: events.TimeWindow{AlwaysOpen: true}, Enabled: true})
	f.Must(err)
	return f
}

func (f *fundsFixture) deposit(memberID, amount string) commands.OrderResult {
	f.T.Helper()
	r, err := f.Svc.RequestDeposit(f.Ctx, commandstest.Meta("member"), memberID, commands.DepositInput{ChannelID: "bank", Amount: amount, ProofFileID: f.Upload(memberID), ChannelPassword: "8888"})
	f.Must(err)
	return r
}

// verified registers a member, verifies their identity (ID number id), sets the fund password
// 123456 and funds them with amount TWD.
func (f *fundsFixture) verified(account, id, amount string) string {
	f.T.Helper()
	s := f.Register(account, "LOTBOOK")
	_, err := f.ids.SubmitRealName(f.Ctx, commandstest.Meta("member:"+account), s.MemberID, identity.RealNameInput{Name: "王小明", IDNumber: id,
		FrontFileID: f.Upload(s.MemberID), BackFileID: f.Upload(s.MemberID)})
	f.Must(err)
	_, err = f.ids.ApproveRealName(f.Ctx, commandstest.Meta("ops:ops"), identity.ReviewRealName{Account: account, Remark: "ok"})
	f.Must(err)
	_, err = f.Svc.SetFundPassword(f.Ctx, commandstest.Meta("member:"+account), commands.SetFundPassword{MemberID: s.MemberID, LoginPassword: "demo1234", FundPassword: "123456", Confirm: "123456"})
	f.Must(err)
	o := f.deposit(s.MemberID, amount)
	_, err = f.Svc.ApproveDeposit(f.Ctx, commandstest.Meta("ops:ops"), commands.ReviewOrder{MemberID: s.MemberID, OrderNo: o.OrderNo, Remark: ""})
	f.Must(err)
	return s.MemberID
}

func (f *fundsFixture) card(memberID, number string) string {
	f.T.Helper()
	r, err := f.ids.BindCard(f.Ctx, commandstest.Meta("member"), memberID, identity.CardInput{HolderName: "王小明", BankName: "Bank of Taiwan", Branch: "Taipei",
		CardNumber: number, BankCode: "004"})
	f.Must(err)
	return r.CardID
}

func TestFundsJourneyOnTheStore(t *testing.T) {
	f := newFundsFixture(t)
	m := f.verified("0912345678", "A123456789", "5000")
	cardID := f.card(m, "0123-4567-8901")

	o, err := f.Svc.RequestWithdrawal(f.Ctx, commandstest.Meta("member"), m, commands.WithdrawalInput{Amount: "3000", CardID: cardID, FundPassword: "123456"})
	f.Must(err)
	if o.Status != events.ReviewPending || !strings.HasPrefix(o.OrderNo, "W") || !o.Balances["TWD"].Frozen.Equal(d("3000")) {
		t.Fatalf("withdrawal %+v", o)
	}
	a, err := f.Svc.ApproveWithdrawal(f.Ctx, commandstest.Meta("ops:ops"), commands.ReviewOrder{MemberID: m, OrderNo: o.OrderNo, Remark: "paid"})
	f.Must(err)
	if b := a.Balances["TWD"]; !b.Available.Equal(d("2000")) || !b.Frozen.IsZero() {
		t.Fatalf("after payout %+v", b)
	}

	q, err := f.Svc.QuoteExchange(f.Ctx, commandstest.Meta("member"), m, commands.QuoteInput{From: "TWD", To: "USD", Amount: "1000"})
	f.Must(err)
	x, err := f.Svc.Exchange(f.Ctx, commandstest.Meta("member"), commands.Exchange{MemberID: m, QuoteID: q.QuoteID})
	f.Must(err)
	if !x.ToAmount.Equal(q.ToAmount) || !x.Balances["USD"].Available.Equal(q.ToAmount) || !x.Balances["TWD"].Available.Equal(d("1000")) {
		t.Fatalf("exchange %+v quote %+v", x, q)
	}
	f.Clock.Add(31 * time.Second)
	q2, err := f.Svc.QuoteExchange(f.Ctx, commandstest.Meta("member"), m, commands.QuoteInput{From: "TWD", To: "USD", Amount: "10"})
	f.Must(err)
	f.Clock.Add(30 * time.Second)
	_, err = f.Svc.Exchange(f.Ctx, commandstest.Meta("member"), commands.Exchange{MemberID: m, QuoteID: q2.QuoteID})
	commandstest.WantKey(t, err, commands.KeyExchangeQuoteExpired)

	// Nothing in the log shows a number in the clear.
	for _, r := range f.CheckLog() {
		if strings.Contains(string(r.Data), "A123456789") || strings.Contains(string(r.Data), "012345678901") {
			t.Fatalf("%s carries a number in the clear: %s", r.Type, r.Data)
		}
	}
}

func TestWrongFundPasswordIsRecordedAndLocks(t *testing.T) {
	f := newFundsFixture(t)
	m := f.verified("0912345678", "A123456789", "5000")
	cardID := f.card(m, "0123456789012")
	for i := 1; i <= 5; i++ {
		_, err := f.Svc.RequestWithdrawal(f.Ctx, commandstest.Meta("member"), m, commands.WithdrawalInput{Amount: "1000", CardID: cardID, FundPassword: "000000"})
		if i < 5 {
			commandstest.WantKey(t, err, commands.KeyFundPasswordWrong)
		} else {
			commandstest.WantKey(t, err, commands.KeyFundPasswordLocked)
		}
	}
	_, err := f.Svc.RequestWithdrawal(f.Ctx, commandstest.Meta("member"), m, commands.WithdrawalInput{Amount: "1000", CardID: cardID, FundPassword: "123456"})
	commandstest.WantKey(t, err, commands.KeyFundPasswordLocked)
	if n := commandstest.Count(f.All(), "FundPasswordRejected"); n != 5 {
		t.Fatalf("%d rejections recorded, want 5", n)
	}
	if n := commandstest.Count(f.All(), "WithdrawalRequested"); n != 0 {
		t.Fatalf("%d withdrawals", n)
	}
	f.Clock.Add(24 * time.Hour)
	_, err = f.Svc.RequestWithdrawal(f.Ctx, commandstest.Meta("member"), m, commands.WithdrawalInput{Amount: "1000", CardID: cardID, FundPassword: "123456"})
	f.Must(err)
}

func TestWithdrawalRacesAcrossInstances(t *testing.T) {
	f := newFundsFixture(t)
	m := f.verified("0912345678", "A123456789", "5000")
	cardID := f.card(m, "0123456789012")
	svcs := []*commands.Service{f.Svc, f.Service(commandstest.WithSealer), f.Service(commandstest.WithSealer)}

	var wg sync.WaitGroup
	results := make([]error, 6)
	orders := make([]commands.OrderResult, 6)
	for i := range results {
		wg.Go(func() {
			orders[i], results[i] = svcs[i%3].RequestWithdrawal(f.Ctx, commandstest.Meta("member"), m, commands.WithdrawalInput{Amount: "5000", CardID: cardID, FundPassword: "123456"})
		})
	}
	wg.Wait()
	won := -1
	for i, err := range results {
		if err == nil {
			if won >= 0 {
				t.Fatal("two withdrawals of the whole balance succeeded")
			}
			won = i
			continue
		}
		if e, ok := commands.AsError(err); !ok || (e.Key != commands.KeySubmitTooFrequent && e.Key != commands.KeyFundOperationPending) {
			t.Fatalf("refusal %v", err)
		}
	}
	if won < 0 {
		t.Fatal("no withdrawal succeeded")
	}
	orderNo := orders[won].OrderNo
	for i := range results {
		approve := i%2 == 0
		wg.Go(func() {
			if approve {
				_, results[i] = svcs[i%3].ApproveWithdrawal(f.Ctx, commandstest.Meta("ops:ops"), commands.ReviewOrder{MemberID: m, OrderNo: orderNo, Remark: ""})
			} else {
				_, results[i] = svcs[i%3].RejectWithdrawal(f.Ctx, commandstest.Meta("ops:ops"), commands.ReviewOrder{MemberID: m, OrderNo: orderNo, Remark: "duplicate"})
			}
		})
	}
	wg.Wait()
	wins := 0
	for _, err := range results {
		if err == nil {
			wins++
		} else {
			commandstest.WantKey(t, err, commands.KeyOrderNotPending)
		}
	}
	all := f.CheckLog()
	if wins != 1 || commandstest.Count(all, "WithdrawalApproved")+commandstest.Count(all, "WithdrawalRejected") != 1 {
		t.Fatalf("%d decisions won", wins)
	}
}
