package events

import (
	"time"

	"github.com/shopspring/decimal"
)

// Price alerts, on the member's stream (member-<id>): a member sets an alert on a symbol, the
// alerts process manager fires it once when the market crosses it, and the member reads the
// notifications it made.

// Alert kinds: a price at or above / at or below a level, or a move from the previous close of
// at least Value percent up / down.
const (
	AlertPriceAbove = "price_above"
	AlertPriceBelow = "price_below"
	AlertRisePct    = "rise_pct"
	AlertFallPct    = "fall_pct"
)

// AlertSet is a new active alert.
type AlertSet struct {
	AlertID string          `json:"alertId"`
	Symbol  string          `json:"symbol"`
	Kind    string          `json:"kind"`
	Value   decimal.Decimal `json:"value"` // a price (NT$) or a percentage
}

// AlertCancelled is the member removing an active alert.
type AlertCancelled struct {
	AlertID string `json:"alertId"`
}

// AlertFired is an alert the market crossed: the quote that crossed it (its last price and the
// previous close) and the quote's time. It fires once; it is also the member's notification.
type AlertFired struct {
	AlertID   string          `json:"alertId"`
	Symbol    string          `json:"symbol"`
	Kind      string          `json:"kind"`
	Value     decimal.Decimal `json:"value"`
	Price     decimal.Decimal `json:"price"`
	PrevClose decimal.Decimal `json:"prevClose"`
	QuoteTime time.Time       `json:"quoteTime"`
}

// AlertNotificationsRead marks the member's notifications read up to a global position.
type AlertNotificationsRead struct {
	Through int64 `json:"through"`
}

func (AlertSet) EventName() string               { return "AlertSet" }
func (AlertCancelled) EventName() string         { return "AlertCancelled" }
func (AlertFired) EventName() string             { return "AlertFired" }
func (AlertNotificationsRead) EventName() string { return "AlertNotificationsRead" }

func init() {
	register(AlertSet{}, 1, nil)
	register(AlertCancelled{}, 1, nil)
	register(AlertFired{}, 1, nil)
	register(AlertNotificationsRead{}, 1, nil)
}
