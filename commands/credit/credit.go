// Package credit is credit borrowing and seat accounts on the write side: the account part
// "credit" holds the member's loans (applied, reviewed, disbursed, accruing, repaid), the seat
// application, and what the limit rule reads (the credit score and the shares held, both folded
// from the account stream's own events). Loans owe on the ledger (events.KindLoan) and the part
// tells the kernel what the member owes (commands.Debtor), which withdrawals respect. See
// events/credit_events.go and the rule in commands/rules/credit.
package credit

import (
	"slices"
	"time"

	"github.com/shopspring/decimal"

	"github.com/lotbook/lotbook/commands"
	"github.com/lotbook/lotbook/commands/rules/credit"
	"github.com/lotbook/lotbook/events"
)

// Message keys of credit loans and seat accounts.
const (
	KeyLoanQuotaInsufficient = "loan_quota_insufficient"
	KeyRepaymentExceedsLoan  = "repayment_exceeds_loan"
	KeyAlreadySeatAccount    = "already_seat_account"
	KeyPendingReview         = "pending_order_review"
	KeyLoanBelowMinimum      = "loan_below_minimum"
	KeyLoanNotOutstanding    = "loan_not_outstanding"
)

const (
	twd             = commands.TWD
	loanOrderPrefix = "L"
	repayPrefix     = "R"
	seatPrefix      = "Q"
	// maxAmount bounds an amount typed in (NT$), far above any limit the rule gives.
	maxAmount = 1_000_000_000
)

// Loan states beyond the review's: a disbursed loan is outstanding until fully repaid.
const (
	LoanOutstanding = "outstanding"
	LoanRepaid      = "repaid"
)

// loan is one loan of the account.
type loan struct {
	orderNo        string
	amount         decimal.Decimal
	rate           decimal.Decimal
	status         string // events.Review* while in review; LoanOutstanding, LoanRepaid once disbursed
	principal      decimal.Decimal
	interest       decimal.Decimal // accrued and not yet paid
	disbursedDay   string
	accruedThrough string // the last Taipei day interest was charged for
	at             time.Time
}

// owed is what the loan still owes: principal and unpaid interest.
func (l *loan) owed() decimal.Decimal { return l.principal.Add(l.interest) }

// part is the account's credit part.
type part struct {
	memberShares string // the member's shares ledger account
	score        int
	shares       map[string]int64 // security -> shares held
	loans        map[string]*loan
	repays       map[string]bool
	seats        map[string]string // seat application -> review status
}

var creditPart = commands.RegisterAccountPart("credit", func(l commands.Ledger) *part {
	return &part{memberShares: events.MemberAccount(l.MemberID, events.KindShares), score: credit.Start,
		shares: map[string]int64{}, loans: map[string]*loan{}, repays: map[string]bool{}, seats: map[string]string{}}
})

// Apply evolves the part.
func (p *part) Apply(r events.RecordedEvent, pl events.Payload) {
	if m, ok := pl.(events.MovesMoney); ok {
		for _, leg := range m.MoneyPostings() {
			if leg.Security != "" && leg.Account == p.memberShares {
				p.shares[leg.Security] += leg.Amount.IntPart()
			}
		}
	}
	switch e := pl.(type) {
	case events.CreditScoreChanged:
		p.score = e.Score
	case events.LoanApplied:
		p.loans[e.OrderNo] = &loan{orderNo: e.OrderNo, amount: e.Amount, rate: e.AnnualRate, status: events.ReviewPending,
			at: r.Metadata.ServerTime}
	case events.LoanRejected:
		if l := p.loans[e.OrderNo]; l != nil {
			l.status = events.ReviewRejected
		}
	case events.LoanApproved:
		if l := p.loans[e.OrderNo]; l != nil {
			l.status = events.ReviewApproved
		}
	case events.LoanDisbursed:
		if l := p.loans[e.OrderNo]; l != nil {
			l.status, l.principal, l.disbursedDay = LoanOutstanding, e.Amount, e.Day
		}
	case events.LoanInterestAccrued:
		if l := p.loans[e.OrderNo]; l != nil {
			l.interest, l.accruedThrough = l.interest.Add(e.Amount), e.Day
		}
	case events.LoanRepaid:
		p.repays[e.RepayNo] = true
		if l := p.loans[e.OrderNo]; l != nil {
			l.interest, l.principal = l.interest.Sub(e.Interest), l.principal.Sub(e.Principal)
			if !l.owed().IsPositive() {
				l.status = LoanRepaid
			}
		}
	case events.SeatApplied:
		p.seats[e.OrderNo] = events.ReviewPending
	case events.SeatApproved:
		p.seats[e.OrderNo] = events.ReviewApproved
	case events.SeatRejected:
		p.seats[e.OrderNo] = events.ReviewRejected
	}
}

// HoldsOrder keeps new order numbers off the part's loans, repayments and seat applications.
func (p *part) HoldsOrder(no string) bool {
	_, seat := p.seats[no]
	return p.loans[no] != nil || p.repays[no] || seat
}

// Owed is what the member owes on loans in currency (commands.Debtor): withdrawals leave it.
func (p *part) Owed(currency string) decimal.Decimal {
	if currency != twd {
		return decimal.Zero
	}
	sum := decimal.Zero
	for _, l := range p.loans {
		sum = sum.Add(l.owed())
	}
	return sum
}

// used is what counts against the limit: outstanding principal and pending applications.
func (p *part) used() decimal.Decimal {
	sum := decimal.Zero
	for _, l := range p.loans {
		switch l.status {
		case events.ReviewPending:
			sum = sum.Add(l.amount)
		case LoanOutstanding:
			sum = sum.Add(l.principal)
		}
	}
	return sum
}

// seatStatus is the member's seat standing: approved when any application was, else pending when
// one waits, else "".
func (p *part) seatStatus() string {
	st := ""
	for _, s := range p.seats {
		switch s {
		case events.ReviewApproved:
			return s
		case events.ReviewPending:
			st = s
		}
	}
	return st
}

// Prices values the member's holdings for the limit: the instrument class (credit.Class*) and the
// market's last price of a security ("TW:2330"); ok false when the market does not know it.
type Prices interface {
	Price(security string) (class string, price decimal.Decimal, ok bool)
}

// Quota is the limit rule's answer for the member now, with its parts.
type Quota struct {
	Score                                    int
	Collateral, Band, Limit, Used, Available decimal.Decimal
	Principal, Interest, Owed                decimal.Decimal
	Seat                                     string
	Outstanding                              int // loans disbursed and not yet repaid
}

// quota evaluates the rule over the part with prices.
func quota(p *part, prices Prices) Quota {
	var hs []credit.Holding
	for _, sec := range slices.Sorted(func(yield func(string) bool) {
		for s := range p.shares {
			if !yield(s) {
				return
			}
		}
	}) {
		n := p.shares[sec]
		if n <= 0 {
			continue
		}
		if class, price, ok := prices.Price(sec); ok {
			hs = append(hs, credit.Holding{Class: class, Shares: n, Price: price})
		}
	}
	q := Quota{Score: p.score, Collateral: credit.Collateral(hs), Band: credit.BandAmount(p.score), Used: p.used(), Seat: p.seatStatus()}
	q.Limit = q.Collateral.Add(q.Band)
	q.Available = credit.Available(q.Limit, q.Used)
	for _, l := range p.loans {
		q.Principal, q.Interest = q.Principal.Add(l.principal), q.Interest.Add(l.interest)
		if l.status == LoanOutstanding {
			q.Outstanding++
		}
	}
	q.Owed = q.Principal.Add(q.Interest)
	return q
}

// parseAmount is a whole NT$ amount as typed: positive, no decimals.
func parseAmount(s string) (decimal.Decimal, *commands.Error) {
	return commands.WholeAmount(s, maxAmount)
}

// decideApplyLoan records an application within the available limit.
func decideApplyLoan(a *commands.Account, amount decimal.Decimal, prices Prices, orderNo func(int) string) ([]events.Payload, error) {
	p := creditPart.Of(a)
	for _, l := range p.loans {
		if l.status == events.ReviewPending {
			return nil, commands.Rule(KeyPendingReview)
		}
	}
	if amount.LessThan(credit.MinLoan) {
		return nil, commands.Rule(KeyLoanBelowMinimum)
	}
	q := quota(p, prices)
	if amount.GreaterThan(q.Available) {
		return nil, commands.Rule(KeyLoanQuotaInsufficient)
	}
	return []events.Payload{events.LoanApplied{OrderNo: a.FreeOrderNo(orderNo), Amount: amount, Currency: twd, AnnualRate: credit.AnnualRate,
		Limit: q.Limit, Available: q.Available, Score: q.Score}}, nil
}

// pendingLoan is the member's loan orderNo waiting for review, or the refusal.
func pendingLoan(a *commands.Account, orderNo string) (*loan, *commands.Error) {
	l := creditPart.Of(a).loans[orderNo]
	switch {
	case l == nil:
		return nil, commands.NotFound(commands.KeyOrderNotFound)
	case l.status != events.ReviewPending:
		return nil, commands.Rule(commands.KeyOrderNotPending)
	}
	return l, nil
}

// decideApproveLoan approves and disburses a pending loan.
func decideApproveLoan(a *commands.Account, orderNo, remark string, now time.Time) ([]events.Payload, error) {
	l, e := pendingLoan(a, orderNo)
	if e != nil {
		return nil, e
	}
	return []events.Payload{
		events.LoanApproved{OrderNo: orderNo, Remark: remark},
		events.LoanDisbursed{OrderNo: orderNo, Currency: twd, Amount: l.amount, Day: taipeiDay(now),
			Postings: events.DisbursementPostings(a.MemberID, twd, l.amount)},
	}, nil
}

// decideRejectLoan rejects a pending loan; nothing moves.
func decideRejectLoan(a *commands.Account, orderNo, remark string) ([]events.Payload, error) {
	if _, e := pendingLoan(a, orderNo); e != nil {
		return nil, e
	}
	return []events.Payload{events.LoanRejected{OrderNo: orderNo, Remark: remark}}, nil
}

// decideRepay pays part or all of an outstanding loan from available cash, interest first.
func decideRepay(a *commands.Account, orderNo string, amount decimal.Decimal, repayNo func(int) string) ([]events.Payload, error) {
	l := creditPart.Of(a).loans[orderNo]
	switch {
	case l == nil:
		return nil, commands.NotFound(commands.KeyOrderNotFound)
	case l.status != LoanOutstanding:
		return nil, commands.Rule(KeyLoanNotOutstanding)
	case amount.GreaterThan(l.owed()):
		return nil, commands.Rule(KeyRepaymentExceedsLoan)
	case amount.GreaterThan(a.Balances[twd].Available):
		return nil, commands.Rule(commands.KeyInsufficientBalance)
	}
	toInterest, toPrincipal := credit.Split(amount, l.interest)
	return []events.Payload{events.LoanRepaid{RepayNo: a.FreeOrderNo(repayNo), OrderNo: orderNo, Currency: twd, Amount: amount,
		Interest: toInterest, Principal: toPrincipal, Outstanding: l.owed().Sub(amount),
		Postings: events.RepaymentPostings(a.MemberID, twd, toInterest, toPrincipal)}}, nil
}

// decideAccrue charges each Taipei day's interest on an outstanding loan from the day after the
// last one charged (the disbursement day for the first) through the day through, on the
// principal as it stands. A day charged already is not charged again, so the accrual is
// idempotent whatever sends it and however often.
func decideAccrue(a *commands.Account, orderNo, through string) ([]events.Payload, error) {
	l := creditPart.Of(a).loans[orderNo]
	if l == nil {
		return nil, commands.NotFound(commands.KeyOrderNotFound)
	}
	if l.status != LoanOutstanding || !l.principal.IsPositive() {
		return nil, nil
	}
	day, err := time.Parse(time.DateOnly, l.disbursedDay)
	if err != nil {
		return nil, commands.Unavailable(err)
	}
	if l.accruedThrough != "" {
		last, err := time.Parse(time.DateOnly, l.accruedThrough)
		if err != nil {
			return nil, commands.Unavailable(err)
		}
		day = last.AddDate(0, 0, 1)
	}
	var out []events.Payload
	for d := day; d.Format(time.DateOnly) <= through && len(out) < maxAccrualDays; d = d.AddDate(0, 0, 1) {
		amount := credit.DailyInterest(l.principal, l.rate)
		if !amount.IsPositive() {
			// A principal so small that a day rounds to nothing: no line (the principal only
			// shrinks, so these days never owe anything later either).
			continue
		}
		out = append(out, events.LoanInterestAccrued{OrderNo: orderNo, Currency: twd, Day: d.Format(time.DateOnly),
			Principal: l.principal, AnnualRate: l.rate, Amount: amount, Postings: events.InterestPostings(a.MemberID, twd, amount)})
	}
	return out, nil
}

// taipeiDay is the Asia/Taipei date of t.
func taipeiDay(t time.Time) string { return t.In(commands.Taipei).Format(time.DateOnly) }

// maxAccrualDays bounds the days one accrual charges (a process down for longer catches up over
// several runs).
const maxAccrualDays = 366

// decideApplySeat records a seat application, refused when the member is a seat account or one
// waits for review.
func decideApplySeat(a *commands.Account, orderNo func(int) string) ([]events.Payload, error) {
	switch creditPart.Of(a).seatStatus() {
	case events.ReviewApproved:
		return nil, commands.Rule(KeyAlreadySeatAccount)
	case events.ReviewPending:
		return nil, commands.Rule(KeyPendingReview)
	}
	return []events.Payload{events.SeatApplied{OrderNo: a.FreeOrderNo(orderNo)}}, nil
}

// decideReviewSeat approves or rejects a pending seat application.
func decideReviewSeat(a *commands.Account, orderNo, remark string, approve bool) ([]events.Payload, error) {
	st, ok := creditPart.Of(a).seats[orderNo]
	switch {
	case !ok:
		return nil, commands.NotFound(commands.KeyOrderNotFound)
	case st != events.ReviewPending:
		return nil, commands.Rule(commands.KeyOrderNotPending)
	case approve:
		return []events.Payload{events.SeatApproved{OrderNo: orderNo, Remark: remark}}, nil
	}
	return []events.Payload{events.SeatRejected{OrderNo: orderNo, Remark: remark}}, nil
}
