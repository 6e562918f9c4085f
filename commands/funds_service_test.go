package commands

import (
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lotbook/lotbook/commands/rules/secret"
	"github.com/lotbook/lotbook/events"
)

func withSealer(o *Options) {
	s, err := secret.NewSealer(secret.DevKey())
	if err != nil {
		panic(err)
	}
	o.Sealer = s
}

// fundsFixture is the seed plus a withdrawal channel, an always-open one unless told.
func fundsFixture(t *testing.T) *fixture {
	f := newFixture(t, withSealer)
	f.seed(true)
	_, err := f.svc.ConfigureWithdrawalChannel(f.ctx, meta("system"), ChannelInput{ID: "bank", Name: "Bank transfer", Currency: "TWD",
		Min: "100", Max: "500000", Window: events.TimeWindow{AlwaysOpen: true}, Enabled: true})
	f.must(err)
	return f
}

// verified registers a member, verifies their identity (ID number id), sets the fund password
// 123456 and funds them with amount TWD.
func (f *fixture) verified(account, id, amount string) string {
	f.t.Helper()
	s := f.register(account, "LOTBOOK")
	_, err := f.svc.SubmitRealName(f.ctx, meta("member:"+account), s.MemberID, RealNameInput{Name: "王小明", IDNumber: id,
		FrontFileID: f.upload(s.MemberID), BackFileID: f.upload(s.MemberID)})
	f.must(err)
	_, err = f.svc.ApproveRealName(f.ctx, meta("ops:ops"), ReviewRealName{Account: account, Remark: "ok"})
	f.must(err)
	_, err = f.svc.SetFundPassword(f.ctx, meta("member:"+account), SetFundPassword{MemberID: s.MemberID, LoginPassword: "demo1234", FundPassword: "123456", Confirm: "123456"})
	f.must(err)
	o := f.deposit(s.MemberID, amount)
	_, err = f.svc.ApproveDeposit(f.ctx, meta("ops:ops"), ReviewOrder{MemberID: s.MemberID, OrderNo: o.OrderNo, Remark: ""})
	f.must(err)
	return s.MemberID
}

func (f *fixture) card(memberID, number string) string {
	f.t.Helper()
	r, err := f.svc.BindCard(f.ctx, meta("member"), memberID, CardInput{HolderName: "王小明", BankName: "Bank of Taiwan", Branch: "Taipei",
		CardNumber: number, BankCode: "004"})
	f.must(err)
	return r.CardID
}

func TestFundsJourneyOnTheStore(t *testing.T) {
	f := fundsFixture(t)
	m := f.verified("0912345678", "A123456789", "5000")
	cardID := f.card(m, "0123-4567-8901")

	o, err := f.svc.RequestWithdrawal(f.ctx, meta("member"), m, WithdrawalInput{Amount: "3000", CardID: cardID, FundPassword: "123456"})
	f.must(err)
	if o.Status != events.ReviewPending || !strings.HasPrefix(o.OrderNo, "W") || !o.Balances["TWD"].Frozen.Equal(d("3000")) {
		t.Fatalf("withdrawal %+v", o)
	}
	a, err := f.svc.ApproveWithdrawal(f.ctx, meta("ops:ops"), ReviewOrder{MemberID: m, OrderNo: o.OrderNo, Remark: "paid"})
	f.must(err)
	if b := a.Balances["TWD"]; !b.Available.Equal(d("2000")) || !b.Frozen.IsZero() {
		t.Fatalf("after payout %+v", b)
	}

	q, err := f.svc.QuoteExchange(f.ctx, meta("member"), m, QuoteInput{From: "TWD", To: "USD", Amount: "1000"})
	f.must(err)
	x, err := f.svc.Exchange(f.ctx, meta("member"), Exchange{MemberID: m, QuoteID: q.QuoteID})
	f.must(err)
	if !x.ToAmount.Equal(q.ToAmount) || !x.Balances["USD"].Available.Equal(q.ToAmount) || !x.Balances["TWD"].Available.Equal(d("1000")) {
		t.Fatalf("exchange %+v quote %+v", x, q)
	}
	f.clock.add(31 * time.Second)
	q2, err := f.svc.QuoteExchange(f.ctx, meta("member"), m, QuoteInput{From: "TWD", To: "USD", Amount: "10"})
	f.must(err)
	f.clock.add(30 * time.Second)
	_, err = f.svc.Exchange(f.ctx, meta("member"), Exchange{MemberID: m, QuoteID: q2.QuoteID})
	wantKey(t, err, KeyExchangeQuoteExpired)

	// Nothing in the log shows a number in the clear.
	for _, r := range f.checkLog() {
		if strings.Contains(string(r.Data), "A123456789") || strings.Contains(string(r.Data), "012345678901") {
			t.Fatalf("%s carries a number in the clear: %s", r.Type, r.Data)
		}
	}
}

func TestUniqueIDNumberAndCardAcrossMembers(t *testing.T) {
	f := fundsFixture(t)
	m1 := f.verified("0912345678", "A123456789", "1000")
	s2 := f.register("0987654321", "LOTBOOK")
	in := RealNameInput{Name: "王小明", IDNumber: "A123456789", FrontFileID: f.upload(s2.MemberID), BackFileID: f.upload(s2.MemberID)}
	_, err := f.svc.SubmitRealName(f.ctx, meta("member"), s2.MemberID, in)
	wantKey(t, err, KeyIDNumberExists)
	// Another instance (cold cache) agrees.
	_, err = f.service(withSealer).SubmitRealName(f.ctx, meta("member"), s2.MemberID, in)
	wantKey(t, err, KeyIDNumberExists)

	// A rejected submission gives the number up (after the claim's grace).
	s3 := f.register("0911111111", "LOTBOOK")
	in3 := RealNameInput{Name: "陳大文", IDNumber: "B200000004", FrontFileID: f.upload(s3.MemberID), BackFileID: f.upload(s3.MemberID)}
	_, err = f.svc.SubmitRealName(f.ctx, meta("member"), s3.MemberID, in3)
	f.must(err)
	in.IDNumber = "B200000004"
	_, err = f.svc.SubmitRealName(f.ctx, meta("member"), s2.MemberID, in)
	wantKey(t, err, KeyIDNumberExists)
	_, err = f.svc.RejectRealName(f.ctx, meta("ops:ops"), ReviewRealName{Account: "0911111111", Remark: "not your card"})
	f.must(err)
	f.clock.add(2 * time.Minute)
	_, err = f.svc.SubmitRealName(f.ctx, meta("member"), s2.MemberID, in)
	f.must(err)

	// A card number is bound once, across members; unbinding frees it.
	m4 := f.verified("0922222222", "F131104093", "1000")
	c1 := f.card(m1, "0123456789012")
	_, err = f.svc.BindCard(f.ctx, meta("member"), m4, CardInput{HolderName: "王小明", BankName: "B", Branch: "b", CardNumber: "0123456789012", BankCode: "004"})
	wantKey(t, err, KeyCardExists)
	_, err = f.svc.BindCard(f.ctx, meta("member"), m1, CardInput{HolderName: "王小明", BankName: "B", Branch: "b", CardNumber: "0123 4567 89012", BankCode: "004"})
	wantKey(t, err, KeyCardExists)
	_, err = f.svc.UnbindCard(f.ctx, meta("member"), UnbindCard{MemberID: m4, CardID: c1})
	wantKey(t, err, KeyCardNotFound)
	_, err = f.svc.UnbindCard(f.ctx, meta("member"), UnbindCard{MemberID: m1, CardID: c1})
	f.must(err)
	f.clock.add(2 * time.Minute)
	f.card(m4, "0123456789012")
}

func TestWrongFundPasswordIsRecordedAndLocks(t *testing.T) {
	f := fundsFixture(t)
	m := f.verified("0912345678", "A123456789", "5000")
	cardID := f.card(m, "0123456789012")
	for i := 1; i <= 5; i++ {
		_, err := f.svc.RequestWithdrawal(f.ctx, meta("member"), m, WithdrawalInput{Amount: "1000", CardID: cardID, FundPassword: "000000"})
		if i < 5 {
			wantKey(t, err, KeyFundPasswordWrong)
		} else {
			wantKey(t, err, KeyFundPasswordLocked)
		}
	}
	_, err := f.svc.RequestWithdrawal(f.ctx, meta("member"), m, WithdrawalInput{Amount: "1000", CardID: cardID, FundPassword: "123456"})
	wantKey(t, err, KeyFundPasswordLocked)
	if n := count(f.all(), "FundPasswordRejected"); n != 5 {
		t.Fatalf("%d rejections recorded, want 5", n)
	}
	if n := count(f.all(), "WithdrawalRequested"); n != 0 {
		t.Fatalf("%d withdrawals", n)
	}
	f.clock.add(24 * time.Hour)
	_, err = f.svc.RequestWithdrawal(f.ctx, meta("member"), m, WithdrawalInput{Amount: "1000", CardID: cardID, FundPassword: "123456"})
	f.must(err)
}

func TestWithdrawalRacesAcrossInstances(t *testing.T) {
	f := fundsFixture(t)
	m := f.verified("0912345678", "A123456789", "5000")
	cardID := f.card(m, "0123456789012")
	svcs := []*Service{f.svc, f.service(withSealer), f.service(withSealer)}

	var wg sync.WaitGroup
	results := make([]error, 6)
	orders := make([]OrderResult, 6)
	for i := range results {
		wg.Go(func() {
			orders[i], results[i] = svcs[i%3].RequestWithdrawal(f.ctx, meta("member"), m, WithdrawalInput{Amount: "5000", CardID: cardID, FundPassword: "123456"})
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
		if e, ok := AsError(err); !ok || (e.Key != KeySubmitTooFrequent && e.Key != KeyFundOperationPending) {
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
				_, results[i] = svcs[i%3].ApproveWithdrawal(f.ctx, meta("ops:ops"), ReviewOrder{MemberID: m, OrderNo: orderNo, Remark: ""})
			} else {
				_, results[i] = svcs[i%3].RejectWithdrawal(f.ctx, meta("ops:ops"), ReviewOrder{MemberID: m, OrderNo: orderNo, Remark: "duplicate"})
			}
		})
	}
	wg.Wait()
	wins := 0
	for _, err := range results {
		if err == nil {
			wins++
		} else {
			wantKey(t, err, KeyOrderNotPending)
		}
	}
	all := f.checkLog()
	if wins != 1 || count(all, "WithdrawalApproved")+count(all, "WithdrawalRejected") != 1 {
		t.Fatalf("%d decisions won", wins)
	}
}
