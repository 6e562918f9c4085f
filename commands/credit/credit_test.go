package credit

import (
	"testing"

	"github.com/shopspring/decimal"

	"github.com/lotbook/lotbook/commands"
	"github.com/lotbook/lotbook/commands/commandstest"
	"github.com/lotbook/lotbook/commands/rules/credit"
	"github.com/lotbook/lotbook/events"
)

var d = decimal.RequireFromString

type fixedPrices map[string]decimal.Decimal

func (p fixedPrices) Price(sec string) (string, decimal.Decimal, bool) {
	v, ok := p[sec]
	return credit.ClassStock, v, ok
}

func orderNo(prefix string) func(int) string { return func(int) string { return prefix + "1" } }

// account is member m1's account after ps.
func account(ps ...events.Payload) *commands.Account {
	return commandstest.Build(commands.NewAccount("m1"), nil, ps...)
}

// holding posts shares of a security into m1's shares account.
func holding(shares int64) events.Payload {
	return events.SubscriptionAllotted{Postings: events.TransferShares(events.HouseExchangeShares,
		events.MemberAccount("m1", events.KindShares), "TW:2330", shares)}
}

func disbursed(no, amount string) []events.Payload {
	return []events.Payload{
		events.LoanApplied{OrderNo: no, Amount: d(amount), Currency: "TWD", AnnualRate: credit.AnnualRate},
		events.LoanApproved{OrderNo: no},
		events.LoanDisbursed{OrderNo: no, Currency: "TWD", Amount: d(amount), Day: "2026-03-02",
			Postings: events.DisbursementPostings("m1", "TWD", d(amount))},
	}
}

func TestDecideApplyLoan(t *testing.T) {
	prices := fixedPrices{"TW:2330": d("100")}
	for _, c := range []struct {
		name   string
		acct   *commands.Account
		amount string
		key    string
	}{
		{"band only", account(), "100000", ""},
		{"above band", account(), "100001", KeyLoanQuotaInsufficient},
		{"holdings at half", account(holding(1000)), "150000", ""},
		{"above holdings", account(holding(1000)), "150001", KeyLoanQuotaInsufficient},
		{"score band lower", account(events.CreditScoreChanged{Score: 85}), "50001", KeyLoanQuotaInsufficient},
		{"below minimum", account(), "999", KeyLoanBelowMinimum},
		{"one pending", account(events.LoanApplied{OrderNo: "L0", Amount: d("1000")}), "1000", KeyPendingReview},
		{"outstanding counts", account(disbursed("L0", "70000")...), "30001", KeyLoanQuotaInsufficient},
		{"outstanding leaves", account(disbursed("L0", "70000")...), "30000", ""},
	} {
		_, err := decideApplyLoan(c.acct, d(c.amount), prices, orderNo("L"))
		t.Run(c.name, func(t *testing.T) { commandstest.WantKey(t, err, c.key) })
	}
}

func TestDecideRepay(t *testing.T) {
	base := append(disbursed("L0", "10000"), events.LoanInterestAccrued{OrderNo: "L0", Day: "2026-03-02", Amount: d("2"),
		Postings: events.InterestPostings("m1", "TWD", d("2"))},
		events.DepositApproved{OrderNo: "D1", Currency: "TWD", Amount: d("100"),
			Postings: events.Transfer(events.HouseBankClearing, events.MemberAvailable("m1"), "TWD", d("100"))})
	for _, c := range []struct {
		amount, key         string
		interest, principal string
	}{
		{"1", "", "1", "0"},
		{"10002", "", "2", "10000"},
		{"10003", KeyRepaymentExceedsLoan, "", ""},
		{"10002.5", KeyRepaymentExceedsLoan, "", ""},
	} {
		evs, err := decideRepay(account(base...), "L0", d(c.amount), orderNo("R"))
		commandstest.WantKey(t, err, c.key)
		if c.key != "" {
			continue
		}
		r := evs[0].(events.LoanRepaid)
		if !r.Interest.Equal(d(c.interest)) || !r.Principal.Equal(d(c.principal)) {
			t.Errorf("repay %s: %+v", c.amount, r)
		}
		if err := events.CheckBalanced(r.Postings); err != nil {
			t.Error(err)
		}
	}
	_, err := decideRepay(account(events.LoanApplied{OrderNo: "L0", Amount: d("1000")}), "L0", d("1"), orderNo("R"))
	commandstest.WantKey(t, err, KeyLoanNotOutstanding)
	_, err = decideRepay(account(), "L9", d("1"), orderNo("R"))
	commandstest.WantKey(t, err, commands.KeyOrderNotFound)
}

func TestDecideAccrueIsIdempotent(t *testing.T) {
	a := account(disbursed("L0", "100000")...)
	evs, err := decideAccrue(a, "L0", "2026-03-04")
	if err != nil || len(evs) != 3 {
		t.Fatalf("three days: %v %v", evs, err)
	}
	for i, e := range evs {
		x := e.(events.LoanInterestAccrued)
		if !x.Amount.Equal(d("20")) || x.Day != []string{"2026-03-02", "2026-03-03", "2026-03-04"}[i] {
			t.Errorf("day %d: %+v", i, x)
		}
	}
	a = account(append(disbursed("L0", "100000"), evs...)...)
	if again, _ := decideAccrue(a, "L0", "2026-03-04"); len(again) != 0 {
		t.Errorf("accrued again: %v", again)
	}
	if next, _ := decideAccrue(a, "L0", "2026-03-05"); len(next) != 1 {
		t.Errorf("next day: %v", next)
	}
	if owed := a.Owed("TWD"); !owed.Equal(d("100060")) {
		t.Errorf("owed %s", owed)
	}
}

func TestDecideSeat(t *testing.T) {
	_, err := decideApplySeat(account(), orderNo("Q"))
	commandstest.WantKey(t, err, "")
	_, err = decideApplySeat(account(events.SeatApplied{OrderNo: "Q0"}), orderNo("Q"))
	commandstest.WantKey(t, err, KeyPendingReview)
	_, err = decideApplySeat(account(events.SeatApplied{OrderNo: "Q0"}, events.SeatApproved{OrderNo: "Q0"}), orderNo("Q"))
	commandstest.WantKey(t, err, KeyAlreadySeatAccount)
	_, err = decideApplySeat(account(events.SeatApplied{OrderNo: "Q0"}, events.SeatRejected{OrderNo: "Q0"}), orderNo("Q"))
	commandstest.WantKey(t, err, "")
}
