package api

import (
	"strings"
	"testing"

	"github.com/google/uuid"

	"github.com/lotbook/lotbook/api/wire"
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
			want(t, raw("/api/vue/user/cards", `{"holderName":"王小明","bankName":"Bank of Taiwan","branch":"0037",`+
				`"cardNumber":"6222020200112233","bankCode":"004","holderName":"王大明"}`), 400, "invalid_request")
		})
		// The same tickets in the strict form are taken.
		want(t, m.order(order("186", "1.5")), 200, "ok")
	})
}

// Names are kept in Unicode NFC, so a name typed with combining accents is the same name as one
// typed precomposed; a name piled with combining marks is refused with its own message.
func TestNamesAreNFCWithBoundedMarks(t *testing.T) {
	forEachBackend(t, func(t *testing.T, h *harness) {
		m := h.register("0912345678")
		zalgo := "Jose" + strings.Repeat("\u0301\u0336\u0337", 3) + " Garcia"
		front, back := m.photo(), m.photo()
		submit := func(name string) answer {
			return m.post("/api/vue/user/realname", map[string]string{"name": name, "idNumber": "A123456789", "frontFileId": front, "backFileId": back})
		}
		h.unchanged(func() {
			want(t, submit(zalgo), 400, "name_too_many_marks")
			want(t, submit("Jos"+strings.Repeat("e\u0301\u0336", 21)), 400, "name_too_many_marks")
		})
		decomposed, composed := "Jose\u0301 Garci\u0301a", "Jos\u00e9 Garc\u00eda"
		want(t, submit(decomposed), 200, "realname_submitted")
		h.catchUp()
		var view wire.RealNameView
		m.get("/api/vue/user/realname").data(t, &view)
		if view.Name != composed {
			t.Fatalf("stored name %q, want NFC %q", view.Name, composed)
		}
		want(t, h.ops.post("/api/vue/ops/realname/"+m.account+"/approve", map[string]string{}), 200, "ok")
		card := func(holder, number string) map[string]string {
			f := cardForm(number)
			f["holderName"] = holder
			return f
		}
		h.unchanged(func() {
			want(t, m.post("/api/vue/user/cards", card(zalgo, "6222020200112233")), 400, "name_too_many_marks")
		})
		// The holder typed precomposed is the verified name typed with combining accents.
		want(t, m.post("/api/vue/user/cards", card(composed, "6222020200112233")), 200, "ok")
	})
}
