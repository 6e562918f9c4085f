package api

import (
	"testing"
	"time"

	"github.com/lotbook/lotbook/api/wire"
)

func (c *client) credit() wire.CreditSummary {
	c.h.t.Helper()
	var s wire.CreditSummary
	c.at("/api/vue/credit", c.h.head(), &s)
	return s
}

func (c *client) loans() []wire.LoanRecord {
	c.h.t.Helper()
	var p wire.LoanPage
	c.at("/api/vue/credit/loans", c.h.head(), &p)
	return p.Items
}

// Credit borrowing over HTTP on SQLite and PostgreSQL: a member with the full credit score may
// borrow the score band's 100,000 (no holdings); above it, malformed amounts and a second
// application while one waits are refused without an event; two ops approve at once and the loan
// is disbursed once; interest accrues each Taipei day as the clock moves (7.3 %/yr on 60,000 is 12
// a day); the loan keeps its amount from being withdrawn (withdrawable = own equity); a partial
// repayment pays interest first; one above what is owed is refused; the full one closes the loan
// and frees the cash. A rejection lends nothing; the seat account is applied for once. The harness
// checks the ledger and the read models against replay after it.
func TestCreditLoanScenario(t *testing.T) {
	forEachBackend(t, func(t *testing.T, h *harness) {
		h.withdrawals()
		m, card := h.ready("0955000001", "A123456789", "4111111111111111", "50000")
		s := m.credit()
		if s.Limit != "100000.00" || s.Loanable != "100000.00" || s.Band != "100000.00" || s.Collateral != "0.00" || s.Score != 100 ||
			s.Debt != "0.00" || s.AnnualRate != "0.073" || len(s.Rule.Haircuts) != 3 || len(s.Rule.Bands) != 4 || s.Seat != wire.CreditSummarySeatNone {
			t.Fatalf("summary %+v", s)
		}
		borrow := func(amount, pw string) answer {
			return m.post("/api/vue/credit/loans", map[string]string{"amount": amount, "fundPassword": pw})
		}
		h.unchanged(func() {
			want(t, borrow("100001", "123456"), 422, "loan_quota_insufficient")
			want(t, borrow("999", "123456"), 422, "loan_below_minimum")
			want(t, borrow("1000.5", "123456"), 400, "amount_invalid")
			want(t, borrow("-5", "123456"), 400, "amount_invalid")
			want(t, borrow("", "123456"), 400, "amount_required")
			want(t, borrow("1000", ""), 400, "fund_password_required")
			want(t, m.post("/api/vue/credit/loans", map[string]any{"amount": 1000, "fundPassword": "123456"}), 400, "invalid_request")
			want(t, h.ops.post("/api/vue/credit/loans", map[string]string{"amount": "1000", "fundPassword": "123456"}), 403, "forbidden")
		})
		a := borrow("60000", "123456")
		want(t, a, 200, "loan_applied")
		var applied wire.CreditResult
		a.data(t, &applied)
		if applied.Status != wire.CreditResultStatusPending {
			t.Fatalf("applied %+v", applied)
		}
		h.unchanged(func() {
			want(t, borrow("1000", "123456"), 422, "pending_order_review")
			want(t, m.post("/api/vue/credit/loans/"+applied.OrderNo+"/repay", map[string]string{"amount": "1", "fundPassword": "123456"}), 422, "loan_not_outstanding")
		})
		if s := m.credit(); s.Loanable != "40000.00" || s.Used != "60000.00" || s.Borrowed != "0.00" {
			t.Fatalf("summary while pending %+v", s)
		}
		var queue wire.LoanPage
		h.ops.at("/api/vue/ops/credit/loans", h.head(), &queue)
		if len(queue.Items) != 1 || queue.Items[0].OrderNo != applied.OrderNo || queue.Items[0].Account == nil || *queue.Items[0].Account != m.account {
			t.Fatalf("ops queue %+v", queue)
		}

		// Two ops approve at once: one disburses, the other is refused.
		answers := concurrently(2, func(int) answer {
			return h.ops.post("/api/vue/ops/credit/loans/"+applied.OrderNo+"/approve", map[string]string{"remark": "ok"})
		})
		if ok := successes(t, "approvals", answers, notPending); len(ok) != 1 {
			t.Fatalf("approvals %v", answers)
		}
		m.wantCash(h.head(), "110000.00", "0.00")
		s = m.credit()
		if s.Borrowed != "60000.00" || s.Debt != "60000.00" || s.Loanable != "40000.00" || s.Interest != "0.00" || s.Outstanding != 1 {
			t.Fatalf("summary after disbursement %+v", s)
		}
		ls := m.loans()
		if len(ls) != 1 || ls[0].Status != wire.LoanStatusOutstanding || ls[0].Borrowed != "60000.00" || ls[0].Account != nil {
			t.Fatalf("loans %+v", ls)
		}

		// The loan is not the member's to withdraw: own equity is 110,000 − 60,000.
		if b := m.balancesAt(h.head())["TWD"]; b.Withdrawable != "50000.00" {
			t.Fatalf("withdrawable %+v", b)
		}
		h.unchanged(func() { want(t, m.withdraw("50001", card, "123456"), 422, "loan_unpaid") })

		// Interest: each Taipei day at midnight, for the day before.
		h.clock.Advance(24 * time.Hour)
		h.until("the first day's interest", func() bool { return m.credit().Interest == "12.00" })
		h.clock.Advance(24 * time.Hour)
		h.until("the second day's interest", func() bool { return m.credit().Interest == "24.00" })
		if s := m.credit(); s.Debt != "60024.00" || s.Borrowed != "60000.00" {
			t.Fatalf("summary after two days %+v", s)
		}
		if b := m.balancesAt(h.head())["TWD"]; b.Withdrawable != "49976.00" {
			t.Fatalf("withdrawable with interest %+v", b)
		}

		// Repay part: interest first.
		repay := func(amount string) answer {
			return m.post("/api/vue/credit/loans/"+applied.OrderNo+"/repay", map[string]string{"amount": amount, "fundPassword": "123456"})
		}
		a = repay("10000")
		want(t, a, 200, "loan_repaid")
		var r wire.CreditResult
		a.data(t, &r)
		if r.Status != wire.CreditResultStatusOutstanding || r.RepayNo == nil {
			t.Fatalf("partial repayment %+v", r)
		}
		if s := m.credit(); s.Borrowed != "50024.00" || s.Interest != "0.00" || s.Debt != "50024.00" {
			t.Fatalf("after partial repayment %+v", s)
		}
		h.unchanged(func() {
			want(t, repay("50025"), 422, "repayment_exceeds_loan")
			want(t, repay("0"), 400, "amount_invalid")
			want(t, m.post("/api/vue/credit/loans/L000/repay", map[string]string{"amount": "1", "fundPassword": "123456"}), 404, "order_not_found")
		})
		a = repay("50024")
		want(t, a, 200, "loan_repaid")
		a.data(t, &r)
		if r.Status != wire.CreditResultStatusRepaid {
			t.Fatalf("full repayment %+v", r)
		}
		m.wantCash(h.head(), "49976.00", "0.00")
		if s := m.credit(); s.Debt != "0.00" || s.Loanable != "100000.00" {
			t.Fatalf("after full repayment %+v", s)
		}
		ls = m.loans()
		if len(ls) != 1 || ls[0].Status != wire.LoanStatusRepaid || ls[0].Repaid != "60024.00" || ls[0].InterestTotal != "24.00" || ls[0].Debt != "0.00" {
			t.Fatalf("loans after repayment %+v", ls)
		}
		lines := map[string]int{}
		for _, rec := range m.records("all", h.head()).Items {
			lines[string(rec.Type)]++
		}
		if lines["loan"] != 1 || lines["loan_interest"] != 2 || lines["loan_repay"] != 2 {
			t.Fatalf("fund record lines %v", lines)
		}
		// A repaid loan accrues nothing more.
		h.clock.Advance(24 * time.Hour)
		time.Sleep(1500 * time.Millisecond)
		if s := m.credit(); s.Interest != "0.00" {
			t.Fatalf("interest after repayment %+v", s)
		}

		// A rejected application lends nothing.
		a = borrow("1000", "123456")
		want(t, a, 200, "loan_applied")
		var second wire.CreditResult
		a.data(t, &second)
		h.ops.at("/api/vue/ops/credit/loans", second.Position, &queue)
		want(t, h.ops.post("/api/vue/ops/credit/loans/"+second.OrderNo+"/reject", map[string]string{"remark": " "}), 400, "remark_required")
		want(t, h.ops.post("/api/vue/ops/credit/loans/"+second.OrderNo+"/reject", map[string]string{"remark": "no"}), 200, "ok")
		want(t, h.ops.post("/api/vue/ops/credit/loans/"+second.OrderNo+"/approve", map[string]string{}), 422, "order_not_pending")
		m.wantCash(h.head(), "49976.00", "0.00")

		// Free to withdraw all of it again.
		want(t, m.withdraw("49976", card, "123456"), 200, "ok")

		// Seat account.
		var seats wire.SeatPage
		a = m.post("/api/vue/credit/seat", map[string]any{})
		want(t, a, 200, "seat_applied")
		var seat wire.CreditResult
		a.data(t, &seat)
		h.ops.at("/api/vue/ops/credit/seats", seat.Position, &seats)
		h.unchanged(func() { want(t, m.post("/api/vue/credit/seat", map[string]any{}), 422, "pending_order_review") })
		h.ops.at("/api/vue/ops/credit/seats", h.head(), &seats)
		if len(seats.Items) != 1 || seats.Items[0].Account != m.account {
			t.Fatalf("seat queue %+v", seats)
		}
		want(t, h.ops.post("/api/vue/ops/credit/seats/"+seat.OrderNo+"/approve", map[string]string{}), 200, "ok")
		h.unchanged(func() { want(t, m.post("/api/vue/credit/seat", map[string]any{}), 422, "already_seat_account") })
		if s := m.credit(); s.Seat != wire.CreditSummarySeatApproved {
			t.Fatalf("seat %+v", s)
		}
	})
}

// Racing repayments never repay more than owed: eight repayments of the whole debt (60,024 after
// two days' interest) sent at once repay it exactly once; the others are refused because the loan
// is repaid, and the cash paid out is the debt, not a multiple of it.
func TestCreditRacingRepayments(t *testing.T) {
	forEachBackend(t, func(t *testing.T, h *harness) {
		m, _ := h.ready("0955000002", "A123456789", "4111111111111111", "200000")
		a := m.post("/api/vue/credit/loans", map[string]string{"amount": "60000", "fundPassword": "123456"})
		want(t, a, 200, "loan_applied")
		var loan wire.CreditResult
		a.data(t, &loan)
		h.ops.at("/api/vue/ops/credit/loans", loan.Position, &wire.LoanPage{})
		want(t, h.ops.post("/api/vue/ops/credit/loans/"+loan.OrderNo+"/approve", map[string]string{}), 200, "ok")
		m.wantCash(h.head(), "260000.00", "0.00")
		h.clock.Advance(48 * time.Hour)
		h.until("two days' interest", func() bool { return m.credit().Debt == "60024.00" })

		answers := concurrently(8, func(int) answer {
			return m.post("/api/vue/credit/loans/"+loan.OrderNo+"/repay", map[string]string{"amount": "60024", "fundPassword": "123456"})
		})
		repaid := func(a answer) bool {
			return a.code == 422 && (a.Msg == "loan_not_outstanding" || a.Msg == "repayment_exceeds_loan")
		}
		if ok := successes(t, "repayments", answers, repaid); len(ok) != 1 {
			t.Fatalf("repayments %v", answers)
		}
		m.wantCash(h.head(), "199976.00", "0.00")
		if s := m.credit(); s.Debt != "0.00" || s.Borrowed != "0.00" || s.Outstanding != 0 {
			t.Fatalf("after the race %+v", s)
		}
		ls := m.loans()
		if len(ls) != 1 || ls[0].Status != wire.LoanStatusRepaid || ls[0].Repaid != "60024.00" {
			t.Fatalf("loans after the race %+v", ls)
		}
	})
}
