package funds_test

import (
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/lotbook/lotbook/commands"
	"github.com/lotbook/lotbook/commands/commandstest"
	"github.com/lotbook/lotbook/commands/commandstest/scenario"
	"github.com/lotbook/lotbook/commands/funds"
	"github.com/lotbook/lotbook/events"
)

var d = decimal.RequireFromString

// newFundsFixture is a scenario with the demo's seed (the deposit channel always open) and the
// withdrawal channel.
func newFundsFixture(t testing.TB) *scenario.Fixture {
	f := scenario.New(t)
	f.Seed(true)
	f.WithdrawalChannel()
	return f
}

func TestFundsJourneyOnTheStore(t *testing.T) {
	f := newFundsFixture(t)
	m := f.Verified("0912345678", "A123456789", "5000")
	cardID := f.Card(m, "0123-4567-8901")

	o, err := f.Funds.RequestWithdrawal(f.Ctx, commandstest.Meta("member"), m, funds.WithdrawalInput{Amount: "3000", CardID: cardID, FundPassword: "123456"})
	f.Must(err)
	if o.Status != events.ReviewPending || !strings.HasPrefix(o.OrderNo, "W") || !o.Balances["TWD"].Frozen.Equal(d("3000")) {
		t.Fatalf("withdrawal %+v", o)
	}
	a, err := f.Funds.ApproveWithdrawal(f.Ctx, commandstest.Meta("ops:ops"), funds.ReviewOrder{MemberID: m, OrderNo: o.OrderNo, Remark: "paid"})
	f.Must(err)
	if b := a.Balances["TWD"]; !b.Available.Equal(d("2000")) || !b.Frozen.IsZero() {
		t.Fatalf("after payout %+v", b)
	}

	q, err := f.Funds.QuoteExchange(f.Ctx, commandstest.Meta("member"), m, funds.QuoteInput{From: "TWD", To: "USD", Amount: "1000"})
	f.Must(err)
	x, err := f.Funds.Exchange(f.Ctx, commandstest.Meta("member"), funds.Exchange{MemberID: m, QuoteID: q.QuoteID})
	f.Must(err)
	if !x.ToAmount.Equal(q.ToAmount) || !x.Balances["USD"].Available.Equal(q.ToAmount) || !x.Balances["TWD"].Available.Equal(d("1000")) {
		t.Fatalf("exchange %+v quote %+v", x, q)
	}
	f.Clock.Add(31 * time.Second)
	q2, err := f.Funds.QuoteExchange(f.Ctx, commandstest.Meta("member"), m, funds.QuoteInput{From: "TWD", To: "USD", Amount: "10"})
	f.Must(err)
	f.Clock.Add(30 * time.Second)
	_, err = f.Funds.Exchange(f.Ctx, commandstest.Meta("member"), funds.Exchange{MemberID: m, QuoteID: q2.QuoteID})
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
	m := f.Verified("0912345678", "A123456789", "5000")
	cardID := f.Card(m, "0123456789012")
	for i := 1; i <= 5; i++ {
		_, err := f.Funds.RequestWithdrawal(f.Ctx, commandstest.Meta("member"), m, funds.WithdrawalInput{Amount: "1000", CardID: cardID, FundPassword: "000000"})
		if i < 5 {
			commandstest.WantKey(t, err, commands.KeyFundPasswordWrong)
		} else {
			commandstest.WantKey(t, err, commands.KeyFundPasswordLocked)
		}
	}
	_, err := f.Funds.RequestWithdrawal(f.Ctx, commandstest.Meta("member"), m, funds.WithdrawalInput{Amount: "1000", CardID: cardID, FundPassword: "123456"})
	commandstest.WantKey(t, err, commands.KeyFundPasswordLocked)
	if n := commandstest.Count(f.All(), "FundPasswordRejected"); n != 5 {
		t.Fatalf("%d rejections recorded, want 5", n)
	}
	if n := commandstest.Count(f.All(), "WithdrawalRequested"); n != 0 {
		t.Fatalf("%d withdrawals", n)
	}
	f.Clock.Add(24 * time.Hour)
	_, err = f.Funds.RequestWithdrawal(f.Ctx, commandstest.Meta("member"), m, funds.WithdrawalInput{Amount: "1000", CardID: cardID, FundPassword: "123456"})
	f.Must(err)
}

func TestWithdrawalRacesAcrossInstances(t *testing.T) {
	f := newFundsFixture(t)
	m := f.Verified("0912345678", "A123456789", "5000")
	cardID := f.Card(m, "0123456789012")
	svcs := []*funds.Commands{f.Funds, funds.New(f.Service(commandstest.WithSealer)), funds.New(f.Service(commandstest.WithSealer))}

	var wg sync.WaitGroup
	results := make([]error, 6)
	orders := make([]funds.OrderResult, 6)
	for i := range results {
		wg.Go(func() {
			orders[i], results[i] = svcs[i%3].RequestWithdrawal(f.Ctx, commandstest.Meta("member"), m, funds.WithdrawalInput{Amount: "5000", CardID: cardID, FundPassword: "123456"})
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
				_, results[i] = svcs[i%3].ApproveWithdrawal(f.Ctx, commandstest.Meta("ops:ops"), funds.ReviewOrder{MemberID: m, OrderNo: orderNo, Remark: ""})
			} else {
				_, results[i] = svcs[i%3].RejectWithdrawal(f.Ctx, commandstest.Meta("ops:ops"), funds.ReviewOrder{MemberID: m, OrderNo: orderNo, Remark: "duplicate"})
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
