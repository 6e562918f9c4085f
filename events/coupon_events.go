package events

import (
	"time"

	"github.com/shopspring/decimal"
)

// Daily check-in and coupons (簽到與優惠券) live on the member's account stream (account-<id>):
// one check-in per Asia/Taipei calendar day is a rule the stream's expected version enforces, and
// a coupon is reserved against an order of the same stream. A coupon moves no money until it is
// redeemed: when its order is done (filled, or cancelled or expired after a partial fill) the
// commission discount, capped at the commission the order was charged, is paid from the house
// account promotion_expense to the member's available cash. Commission rates never change: the
// fee line stays what trading charged, and the discount is a line of its own.

// HousePromotionExpense is the platform's promotion expense: every coupon discount is paid from it.
var HousePromotionExpense = HouseAccount("promotion_expense")

// Coupon kinds and sources.
const (
	CouponCommissionDiscount = "commission_discount" // NT$ off the commission of one order
	CouponFromCheckIn        = "checkin"
	CouponFromOps            = "ops"
)

// CheckedIn records the member's check-in of one Taipei calendar day. Streak counts consecutive
// days ending with this one; CycleDay is its place in the published reward table (1..7).
type CheckedIn struct {
	Day      string `json:"day"` // YYYY-MM-DD (Asia/Taipei)
	Streak   int    `json:"streak"`
	CycleDay int    `json:"cycleDay"`
	CouponID string `json:"couponId,omitempty"` // the reward, granted by the CouponGranted written with it
}

// CouponGranted gives the member a coupon: Uses orders may use it (the attempts), until ExpiresAt
// (the end of ExpiryDay in Asia/Taipei). Ops grants carry their reason; the actor is in the metadata.
type CouponGranted struct {
	CouponID  string          `json:"couponId"`
	Kind      string          `json:"kind"`
	Value     decimal.Decimal `json:"value"` // NT$ off
	Uses      int             `json:"uses"`
	ExpiryDay string          `json:"expiryDay"` // YYYY-MM-DD (Asia/Taipei), the last day it may be applied
	ExpiresAt time.Time       `json:"expiresAt"` // the end of ExpiryDay: the next Taipei midnight
	Source    string          `json:"source"`    // checkin | ops
	Reason    string          `json:"reason,omitempty"`
}

// CouponReserved takes one use of a coupon for an order of the member.
type CouponReserved struct {
	CouponID string `json:"couponId"`
	OrderNo  string `json:"orderNo"`
}

// CouponReleased gives a reserved use back: the order ended without a commission.
type CouponReleased struct {
	CouponID string `json:"couponId"`
	OrderNo  string `json:"orderNo"`
	Reason   string `json:"reason"` // unfilled
}

// CouponRedeemed pays the discount of a reserved use once its order is done: min(value,
// commission charged), from promotion_expense to the member's available cash.
type CouponRedeemed struct {
	CouponID   string          `json:"couponId"`
	OrderNo    string          `json:"orderNo"`
	Commission decimal.Decimal `json:"commission"`
	Discount   decimal.Decimal `json:"discount"`
	Postings   []Posting       `json:"postings"`
}

func (CheckedIn) EventName() string      { return "CheckedIn" }
func (CouponGranted) EventName() string  { return "CouponGranted" }
func (CouponReserved) EventName() string { return "CouponReserved" }
func (CouponReleased) EventName() string { return "CouponReleased" }
func (CouponRedeemed) EventName() string { return "CouponRedeemed" }

func (e CouponRedeemed) MoneyPostings() []Posting { return e.Postings }

// LineCouponDiscount is the journal line of a coupon's commission discount.
const LineCouponDiscount = "coupon_discount"

// JournalLines is the discount paid to the member's cash, on the order's number.
func (e CouponRedeemed) JournalLines() []JournalLine {
	return []JournalLine{{Type: LineCouponDiscount, OrderNo: e.OrderNo, Asset: "TWD", Amount: e.Discount, Account: KindAvailable.Name,
		Status: LineCompleted}}
}

func init() {
	DeclareLineTypes(LineCouponDiscount)
	register(CheckedIn{}, 1, nil)
	register(CouponGranted{}, 1, nil)
	register(CouponReserved{}, 1, nil)
	register(CouponReleased{}, 1, nil)
	register(CouponRedeemed{}, 1, nil)
}
