package api

import (
	"testing"

	"github.com/google/uuid"
)

// Prices and leverage on orders and closes take the strict grammar of amounts, quantities are
// JSON integers, and a field given twice in a body is refused: each refusal is 400 and writes
// nothing.
func TestStrictInput(t *testing.T) {
	forEachBackend(t, func(t *testing.T, h *harness) {
		th := newTradeHarness(t, h, "1000000")
		m := th.m
		th.mkt.book("2603", "186.5", "186.5", lvls("186", 5000), lvls("187", 5000))
		order := func(price, leverage string) map[string]any {
			b := map[string]any{"symbol": "2603", "direction": "long", "type": "limit", "lots": 1, "price": price}
			if leverage != "" {
				b["leverage"] = leverage
			}
			return b
		}
		raw := func(path, body string) answer {
			return m.raw("POST", path, "application/json", []byte(body), "Idempotency-Key", uuid.NewString())
		}
		h.unchanged(func() {
			for _, p := range []string{"1.86e2", "186E0", "+186", " 186", "186 ", "186.000", "186.", "0186.0.0", "１８６"} {
				want(t, m.order(order(p, "")), 400, "price_invalid")
				want(t, m.post("/api/vue/trade/positions/p-1/close", map[string]any{"type": "limit", "price": p}), 400, "price_invalid")
			}
			for _, l := range []string{"15e-1", "+1.5", "1.5 ", "1.500", "1.", ".5"} {
				want(t, m.order(order("186", l)), 400, "leverage_invalid")
			}
			for _, lots := range []string{`1e0`, `1.0`, `"1"`, `true`} {
				want(t, raw("/api/vue/trade/orders", `{"symbol":"2603","direction":"long","type":"market","lots":`+lots+`}`), 400, "invalid_request")
			}
			// A name twice: encoding/json would keep the last value and place 5 lots, or pay 1.
			want(t, raw("/api/vue/trade/orders", `{"symbol":"2603","direction":"long","type":"market","lots":1,"lots":5}`), 400, "invalid_request")
			want(t, raw("/api/vue/trade/orders", `{"symbol":"2603","direction":"long","type":"limit","lots":1,"price":"186","price":"187"}`), 400, "invalid_request")
			want(t, raw("/api/vue/funds/deposits", `{"channelId":"bank","amount":"100000","proofFileId":"x","channelPassword":"8888","amount":"1000"}`), 400, "invalid_request")
			want(t, raw("/api/vue/user/cards", `{"name":"王小明","name":"王大明"}`), 400, "invalid_request")
		})
		// The same tickets in the strict form are taken.
		want(t, m.order(order("186", "1.5")), 200, "ok")
	})
}
