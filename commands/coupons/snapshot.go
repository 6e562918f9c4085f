package coupons

import (
	"encoding/json"

	"github.com/shopspring/decimal"

	"github.com/lotbook/lotbook/commands"
	"github.com/lotbook/lotbook/events"
)

// bookSnapshot mirrors book for aggregate snapshots (commands.SnapshotPart).
type bookSnapshot struct {
	LastDay string                    `json:"lastDay"`
	Streak  int                       `json:"streak"`
	Coupons map[string]couponSnapshot `json:"coupons"`
	Orders  map[string]orderSnapshot  `json:"orders"`
	Pruned  string                    `json:"pruned"`
}

type couponSnapshot struct {
	events.CouponGranted
	Used     int `json:"used"`
	Reserved int `json:"reserved"`
}

type orderSnapshot struct {
	Day        string          `json:"day"`
	ByMember   bool            `json:"byMember"`
	Commission decimal.Decimal `json:"commission"`
	Done       bool            `json:"done"`
	Coupon     string          `json:"coupon"`
	Settled    bool            `json:"settled"`
}

func (b *book) SnapshotVersion() int { return 1 }

func (b *book) MarshalSnapshot() ([]byte, error) {
	return json.Marshal(bookSnapshot{LastDay: b.lastDay, Streak: b.streak, Pruned: b.pruned,
		Coupons: commands.MirrorMap(b.coupons, func(c *coupon) couponSnapshot { return couponSnapshot{c.CouponGranted, c.used, c.reserved} }),
		Orders: commands.MirrorMap(b.orders, func(o *order) orderSnapshot {
			return orderSnapshot{Day: o.day, ByMember: o.byMember, Commission: o.commission, Done: o.done, Coupon: o.coupon, Settled: o.settled}
		})})
}

func (b *book) UnmarshalSnapshot(data []byte) error {
	var s bookSnapshot
	if err := json.Unmarshal(data, &s); err != nil {
		return err
	}
	*b = book{lastDay: s.LastDay, streak: s.Streak, pruned: s.Pruned,
		coupons: commands.MirrorMap(s.Coupons, func(c couponSnapshot) *coupon {
			return &coupon{CouponGranted: c.CouponGranted, used: c.Used, reserved: c.Reserved}
		}),
		orders: commands.MirrorMap(s.Orders, func(o orderSnapshot) *order {
			return &order{day: o.Day, byMember: o.ByMember, commission: o.Commission, done: o.Done, coupon: o.Coupon, settled: o.Settled}
		})}
	return nil
}
