package seed

import (
	"context"
	"fmt"

	"github.com/lotbook/lotbook/commands/coupons"
	"github.com/lotbook/lotbook/events"
)

// The demo member's welcome coupon: NT$20 off the commission of up to three orders, valid 30
// Taipei days from the first start, granted by the ops user with its reason. The member's daily
// check-in is left to the member (home → check-in).
func init() { Register("coupons", seedCoupons) }

func seedCoupons(ctx context.Context, env Env) error {
	m := Meta("coupons:welcome")
	m.Actor = "ops:" + OpsAccount
	_, err := coupons.New(env.Kernel).Grant(ctx, m, events.MemberID(MemberAccount),
		coupons.GrantInput{Value: "20", Uses: 3, ValidDays: 30, Reason: "Welcome coupon"})
	if err != nil {
		return fmt.Errorf("welcome coupon: %w", err)
	}
	return nil
}
