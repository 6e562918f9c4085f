package seed

import (
	"context"
	"fmt"

	"github.com/shopspring/decimal"

	"github.com/lotbook/lotbook/commands"
	"github.com/lotbook/lotbook/commands/credit"
	"github.com/lotbook/lotbook/events"
)

func init() { Register("credit", demoCredit) }

// CreditAccount is the demo borrower (password MemberPassword, fund password FundPassword): one
// loan repaid, one outstanding, both borrowed and reviewed when the demo was first seeded; the
// outstanding one accrues interest from that day on.
const CreditAccount = "0966000001"

// noPrices values no holding: the demo borrower has none, and its limit is its score band.
type noPrices struct{}

func (noPrices) Price(string) (string, decimal.Decimal, bool) { return "", decimal.Zero, false }

func demoCredit(ctx context.Context, env Env) error {
	k := env.Kernel
	_, err := k.Register(ctx, meta("credit:member"), commands.RegisterInput{
		Account: CreditAccount, Password: MemberPassword, ConfirmPassword: MemberPassword, InviteCode: InviteCode,
	})
	if err != nil && !alreadyDone(err, "account_exists") {
		return fmt.Errorf("member %s: %w", CreditAccount, err)
	}
	member := events.MemberID(CreditAccount)
	_, err = k.SetFundPassword(ctx, meta("credit:fund-password"), commands.SetFundPassword{MemberID: member, LoginPassword: MemberPassword,
		FundPassword: FundPassword, Confirm: FundPassword})
	if err != nil && !alreadyDone(err, "fund_password_already_set") {
		return fmt.Errorf("fund password of %s: %w", CreditAccount, err)
	}
	cmd := credit.New(k)
	loan := func(step, amount string) (string, error) {
		r, err := cmd.Borrow(ctx, meta("credit:"+step+":borrow"), member, credit.Borrow{Amount: amount, FundPassword: FundPassword}, noPrices{})
		if err != nil {
			return "", fmt.Errorf("loan %s: %w", step, err)
		}
		_, err = cmd.ApproveLoan(ctx, meta("credit:"+step+":approve"), credit.Review{MemberID: member, OrderNo: r.OrderNo, Remark: "demo"})
		if err != nil && !alreadyDone(err, commands.KeyOrderNotPending) {
			return "", fmt.Errorf("approve loan %s: %w", step, err)
		}
		return r.OrderNo, nil
	}
	repaid, err := loan("repaid", "20000")
	if err != nil {
		return err
	}
	_, err = cmd.Repay(ctx, meta("credit:repaid:repay"), member, credit.Repay{OrderNo: repaid, Amount: "20000", FundPassword: FundPassword})
	if err != nil && !alreadyDone(err, credit.KeyLoanNotOutstanding, credit.KeyRepaymentExceedsLoan) {
		return fmt.Errorf("repay loan %s: %w", repaid, err)
	}
	_, err = loan("outstanding", "30000")
	return err
}
