package events

import (
	"github.com/shopspring/decimal"
)

// Credit borrowing (信用借款) and seat accounts, on the member's account stream.
//
// A member applies for a loan within the available credit limit (commands/rules/credit: holdings
// at a haircut by instrument class plus the credit score's band, less what is owed or pending);
// ops approve or reject it. An approval disburses the loan: the platform's lending account pays
// the member's available cash, and the member's loan account (kind "loan", owed: kept at or below
// zero) takes the liability, mirrored by the platform's receivable. Interest accrues each Taipei
// day on the outstanding principal at the published rate: the member's loan account owes more, the
// platform earns it. A repayment pays interest first, then principal, from available cash; the
// principal part closes the same amount of the platform's receivable against its lending account.
// Every leg of these postings is on the ledger, so `lotbook verify` proves the loans.

// Ledger accounts of credit loans.
var (
	// KindLoan is a member's loan payable: what the member owes (principal and unpaid interest),
	// kept at or below zero.
	KindLoan = DeclareAccountKind(AccountKind{Member: true, Name: "loan", Holds: HoldsMoney, Owed: true})
	// HouseCreditLending is the platform's lending fund, negative by the principal lent out.
	HouseCreditLending = HouseAccount("credit_lending")
	// HouseCreditReceivable is the platform's claim on the principal lent out.
	HouseCreditReceivable = HouseAccount("credit_receivable")
	// HouseCreditInterest is the interest the platform has earned on loans.
	HouseCreditInterest = HouseAccount("credit_interest")
)

// MemberLoan is a member's loan payable account.
func MemberLoan(memberID string) string { return MemberAccount(memberID, KindLoan) }

// LoanApplied is a member's loan application, pending ops review. It moves no money. Limit and
// Available are the credit limit and what was left of it when the member applied, so the reviewer
// and an auditor see what the rule said.
type LoanApplied struct {
	OrderNo    string          `json:"orderNo"`
	Amount     decimal.Decimal `json:"amount"`
	Currency   string          `json:"currency"`
	AnnualRate decimal.Decimal `json:"annualRate"` // the published rate the loan will accrue at
	Limit      decimal.Decimal `json:"limit"`
	Available  decimal.Decimal `json:"available"`
	Score      int             `json:"score"`
}

// LoanApproved is ops' approval of a pending application; LoanDisbursed follows it in the same
// command.
type LoanApproved struct {
	OrderNo string `json:"orderNo"`
	Remark  string `json:"remark,omitempty"`
}

// LoanRejected is ops' rejection of a pending application; nothing was lent.
type LoanRejected struct {
	OrderNo string `json:"orderNo"`
	Remark  string `json:"remark"`
}

// LoanDisbursed pays an approved loan out: lending -> member available, and the member's loan
// account -> the platform's receivable (the liability and the claim).
type LoanDisbursed struct {
	OrderNo  string          `json:"orderNo"`
	Currency string          `json:"currency"`
	Amount   decimal.Decimal `json:"amount"`
	Day      string          `json:"day"` // Asia/Taipei date of the disbursement: the first day interest accrues for
	Postings []Posting       `json:"postings"`
}

// LoanInterestAccrued charges one Taipei day's interest on a loan: Principal × AnnualRate / 365,
// rounded by the published rule; member loan account -> platform interest.
type LoanInterestAccrued struct {
	OrderNo    string          `json:"orderNo"`
	Currency   string          `json:"currency"`
	Day        string          `json:"day"`
	Principal  decimal.Decimal `json:"principal"`
	AnnualRate decimal.Decimal `json:"annualRate"`
	Amount     decimal.Decimal `json:"amount"`
	Postings   []Posting       `json:"postings"`
}

// LoanRepaid is a repayment from available cash: Interest first, then Principal; Outstanding is
// what the loan still owes after it (principal and unpaid interest).
type LoanRepaid struct {
	RepayNo     string          `json:"repayNo"`
	OrderNo     string          `json:"orderNo"`
	Currency    string          `json:"currency"`
	Amount      decimal.Decimal `json:"amount"`
	Interest    decimal.Decimal `json:"interest"`
	Principal   decimal.Decimal `json:"principal"`
	Outstanding decimal.Decimal `json:"outstanding"`
	Postings    []Posting       `json:"postings"`
}

// SeatApplied is a member's application to become a seat account, pending ops review.
type SeatApplied struct {
	OrderNo string `json:"orderNo"`
}

// SeatApproved makes the member a seat account.
type SeatApproved struct {
	OrderNo string `json:"orderNo"`
	Remark  string `json:"remark,omitempty"`
}

// SeatRejected refuses a seat application; the member may apply again.
type SeatRejected struct {
	OrderNo string `json:"orderNo"`
	Remark  string `json:"remark"`
}

func (LoanApplied) EventName() string         { return "LoanApplied" }
func (LoanApproved) EventName() string        { return "LoanApproved" }
func (LoanRejected) EventName() string        { return "LoanRejected" }
func (LoanDisbursed) EventName() string       { return "LoanDisbursed" }
func (LoanInterestAccrued) EventName() string { return "LoanInterestAccrued" }
func (LoanRepaid) EventName() string          { return "LoanRepaid" }
func (SeatApplied) EventName() string         { return "SeatApplied" }
func (SeatApproved) EventName() string        { return "SeatApproved" }
func (SeatRejected) EventName() string        { return "SeatRejected" }

func (e LoanDisbursed) MoneyPostings() []Posting       { return e.Postings }
func (e LoanInterestAccrued) MoneyPostings() []Posting { return e.Postings }
func (e LoanRepaid) MoneyPostings() []Posting          { return e.Postings }

// Journal line types of loans: the disbursement, each day's interest (on the loan account) and
// each repayment.
const (
	LineLoan         = "loan"
	LineLoanInterest = "loan_interest"
	LineLoanRepay    = "loan_repay"
)

// DisbursementPostings are the four legs of a disbursement of amount to memberID.
func DisbursementPostings(memberID, currency string, amount decimal.Decimal) []Posting {
	return append(Transfer(HouseCreditLending, MemberAvailable(memberID), currency, amount),
		Transfer(MemberLoan(memberID), HouseCreditReceivable, currency, amount)...)
}

// InterestPostings charge amount of interest to memberID's loan.
func InterestPostings(memberID, currency string, amount decimal.Decimal) []Posting {
	return Transfer(MemberLoan(memberID), HouseCreditInterest, currency, amount)
}

// RepaymentPostings pay interest + principal from memberID's available cash into the loan, and
// close principal of the platform's receivable.
func RepaymentPostings(memberID, currency string, interest, principal decimal.Decimal) []Posting {
	out := Transfer(MemberAvailable(memberID), MemberLoan(memberID), currency, interest.Add(principal))
	if principal.IsPositive() {
		out = append(out, Transfer(HouseCreditReceivable, HouseCreditLending, currency, principal)...)
	}
	return out
}

// JournalLines of a disbursement: the loan paid into available cash.
func (e LoanDisbursed) JournalLines() []JournalLine {
	return []JournalLine{{Type: LineLoan, OrderNo: e.OrderNo, Asset: e.Currency, Amount: e.Amount, Account: KindAvailable.Name,
		Status: LineCompleted}}
}

// JournalLines of a day's interest: owed on the loan account.
func (e LoanInterestAccrued) JournalLines() []JournalLine {
	return []JournalLine{{Type: LineLoanInterest, OrderNo: e.OrderNo, Asset: e.Currency, Amount: e.Amount.Neg(), Account: KindLoan.Name,
		Status: LineCompleted, Details: map[string]string{"day": e.Day, "principal": e.Principal.String(), "rate": e.AnnualRate.String()}}}
}

// JournalLines of a repayment: paid from available cash.
func (e LoanRepaid) JournalLines() []JournalLine {
	return []JournalLine{{Type: LineLoanRepay, OrderNo: e.OrderNo, Asset: e.Currency, Amount: e.Amount.Neg(), Account: KindAvailable.Name,
		Status: LineCompleted, Details: map[string]string{"repayNo": e.RepayNo, "interest": e.Interest.String(),
			"principal": e.Principal.String(), "outstanding": e.Outstanding.String()}}}
}

func init() {
	DeclareLineTypes(LineLoan, LineLoanInterest, LineLoanRepay)
	register(LoanApplied{}, 1, nil)
	register(LoanApproved{}, 1, nil)
	register(LoanRejected{}, 1, nil)
	register(LoanDisbursed{}, 1, nil)
	register(LoanInterestAccrued{}, 1, nil)
	register(LoanRepaid{}, 1, nil)
	register(SeatApplied{}, 1, nil)
	register(SeatApproved{}, 1, nil)
	register(SeatRejected{}, 1, nil)
}
