package commands

import (
	"encoding/json"

	"github.com/shopspring/decimal"
)

// OrderCash is, in an account part, the cash that ordinary orders placed from a held amount (a
// copy-trade follow's commitment, an AI quant subscription) gave back to available cash, so the
// holder can put it back into its hold: trading gives an order's unused reservation back to
// available when the order is done, and a sale's net proceeds land there too. Without this the
// held amount leaks into available cash with every order. Each ref (an order number, or the id
// of a command whose cash an order was to take) belongs to one holder; what is owed is what the
// ref gave back less what was already returned for it, so returning is idempotent whatever
// triggers it and however often.
type OrderCash struct {
	holder   map[string]string          // ref -> holder id
	back     map[string]decimal.Decimal // ref -> cash it gave back to available
	returned map[string]decimal.Decimal // ref -> of that, put back into the holder's hold
}

// NewOrderCash is an empty OrderCash.
func NewOrderCash() OrderCash {
	return OrderCash{holder: map[string]string{}, back: map[string]decimal.Decimal{}, returned: map[string]decimal.Decimal{}}
}

// Own records that ref's cash belongs to holder.
func (o *OrderCash) Own(ref, holder string) { o.holder[ref] = holder }

// Holder is the holder ref belongs to, "" when none.
func (o *OrderCash) Holder(ref string) string { return o.holder[ref] }

// GaveBack records amount of ref's cash given back to available (nothing for a ref no holder owns).
func (o *OrderCash) GaveBack(ref string, amount decimal.Decimal) {
	if o.holder[ref] != "" && amount.IsPositive() {
		o.back[ref] = o.back[ref].Add(amount)
	}
}

// Returned records amount of ref's cash put back into its holder's hold.
func (o *OrderCash) Returned(ref string, amount decimal.Decimal) {
	o.returned[ref] = o.returned[ref].Add(amount)
}

// Settle forgets what ref gave back: an order took it (the reservation moved into the order).
func (o *OrderCash) Settle(ref string) { o.returned[ref] = o.back[ref] }

// Due is what ref's holder may put back into its hold now: what ref gave back and was not yet
// returned, never more than the account's available cash (the member may have spent it).
func (o *OrderCash) Due(a *Account, ref string) (holder string, amount decimal.Decimal) {
	owed := o.back[ref].Sub(o.returned[ref])
	return o.holder[ref], decimal.Max(decimal.Zero, decimal.Min(owed, a.Balances[TWD].Available))
}

// orderCashSnapshot mirrors OrderCash in its parts' aggregate snapshots.
type orderCashSnapshot struct {
	Holder   map[string]string          `json:"holder"`
	Back     map[string]decimal.Decimal `json:"back"`
	Returned map[string]decimal.Decimal `json:"returned"`
}

func (o OrderCash) MarshalJSON() ([]byte, error) {
	return json.Marshal(orderCashSnapshot{Holder: o.holder, Back: o.back, Returned: o.returned})
}

func (o *OrderCash) UnmarshalJSON(b []byte) error {
	var s orderCashSnapshot
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	*o = OrderCash{holder: CloneMap(s.Holder), back: CloneMap(s.Back), returned: CloneMap(s.Returned)}
	return nil
}
