package api

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/lotbook/lotbook/api/wire"
)

// loginByID posts a login by ID number.
func (h *harness) loginByID(id, password string) answer {
	h.t.Helper()
	return h.anon().post("/api/vue/user/loginById", map[string]string{"idNumber": id, "password": password})
}

// TestLoginByIDNumber: a verified member logs in with the ID number of their identity (either
// case) and their login password; a wrong password, an unknown number and an identity still
// pending review all get the same answer; a number failing its check digit is a form error.
// Nothing of it writes an event but the session.
func TestLoginByIDNumber(t *testing.T) {
	forEachBackend(t, func(t *testing.T, h *harness) {
		verified := h.register("0911" + strconv.Itoa(100000+int(imageSizes.Add(1))))
		id := twID(int(imageSizes.Add(1)))
		verified.verify(id)
		pending := h.register("0911" + strconv.Itoa(100000+int(imageSizes.Add(1))))
		pendingID := twID(int(imageSizes.Add(1)))
		want(t, pending.submitRealName("陳小華", pendingID), 200, "realname_submitted")
		h.catchUp()

		for _, typed := range []string{id, strings.ToLower(id), " " + id + " "} {
			a := h.loginByID(typed, "secret123")
			want(t, a, 200, "ok")
			var s wire.Session
			a.data(t, &s)
			if s.Account != verified.account || s.Role != wire.Member || s.Token == "" {
				t.Fatalf("session %+v", s)
			}
			c := &client{h: h, token: s.Token, account: s.Account}
			var u wire.UserInfo
			c.getOK("/api/vue/user/info", &u)
			if u.Account != verified.account {
				t.Fatalf("logged in as %s", u.Account)
			}
		}

		h.unchanged(func() {
			wrong := h.loginByID(id, "wrongpass1")
			want(t, wrong, 422, "account_or_password_wrong")
			for _, other := range []answer{
				h.loginByID(twID(int(imageSizes.Add(1))), "secret123"), // nobody's
				h.loginByID(pendingID, "secret123"),                    // pending review
			} {
				if other.code != wrong.code || other.Msg != wrong.Msg || string(other.Data) != string(wrong.Data) {
					t.Fatalf("wrong password answered %s, other %s", wrong, other)
				}
			}
			want(t, h.loginByID(id[:9]+string(rune('0'+(int(id[9]-'0')+1)%10)), "secret123"), 400, "id_number_invalid")
			want(t, h.loginByID("", "secret123"), 400, "id_number_required")
			want(t, h.loginByID(id, ""), 400, "password_required")
			want(t, h.anon().post("/api/vue/user/loginById", map[string]any{"idNumber": id, "password": "secret123", "account": "x"}), 400, "invalid_request")
			want(t, h.anon().post("/api/vue/user/loginById", map[string]any{"idNumber": 123, "password": "secret123"}), 400, "invalid_request")
		})
	})
}

// TestLoginByIDNumberIsRateLimited: the per-name limit counts attempts on one ID number like
// login counts them on one account, whether or not the number is anyone's.
func TestLoginByIDNumberIsRateLimited(t *testing.T) {
	h := newHarness(t, testDB{kind: "sqlite"}, RateLimits{LoginPerAccount: 3, LoginPerIP: 1000, RegisterPerIP: 1000, UploadPerMember: 1000})
	m := h.register("0912000111")
	id := twID(int(imageSizes.Add(1)))
	m.verify(id)
	h.catchUp()
	nobody := twID(int(imageSizes.Add(1)))
	for _, typed := range []string{id, nobody} {
		for range 3 {
			want(t, h.loginByID(typed, "wrongpass1"), 422, "account_or_password_wrong")
		}
		want(t, h.loginByID(strings.ToLower(typed), "secret123"), 429, "rate_limited")
	}
}

// waitFilled waits (10 s at most) until the order is filled, as the engine's matching lands.
func (c *client) waitFilled(orderNo string) {
	c.h.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for c.orderNamed(orderNo).Status != wire.TradeOrderStatusFilled {
		if time.Now().After(deadline) {
			c.h.t.Fatalf("not filled: %+v", c.orderNamed(orderNo))
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// wallet reads the member's wallet at pos.
func (c *client) wallet(pos int64) wire.Wallet {
	c.h.t.Helper()
	var w wire.Wallet
	c.at("/api/vue/wallet", pos, &w)
	return w
}

func walletTWD(t *testing.T, w wire.Wallet) wire.WalletCurrency {
	t.Helper()
	if len(w.Currencies) == 0 || w.Currencies[0].Currency != "TWD" {
		t.Fatalf("wallet %+v", w)
	}
	return w.Currencies[0]
}

// TestWalletHoldsAndMonthlyStatement: the wallet lists each hold on frozen cash with its reason
// (an open order, a pending withdrawal), the holds add up to frozen and go when released; the
// monthly statement's opening plus the lines that happened is its closing cash, its fills carry
// their fees and taxes, and a month before the member's first money opens and closes at zero.
func TestWalletHoldsAndMonthlyStatement(t *testing.T) {
	forEachBackend(t, func(t *testing.T, h *harness) {
		th := newTradeHarness(t, h, "")
		h.withdrawals()
		m, card := h.ready("0913"+strconv.Itoa(100000+int(imageSizes.Add(1))), twID(int(imageSizes.Add(1))), "4111111111111111", "1000000")
		th.mkt.book("2603", "186.5", "186.5", lvls("186", 5000), lvls("187", 5000))
		o := m.placed(map[string]any{"symbol": "2603", "direction": "long", "type": "limit", "lots": 2, "price": "186"})
		wd := m.withdraw("10000", card, "123456")
		want(t, wd, 200, "ok")
		var wr wire.OrderResult
		wd.data(t, &wr)

		twd := walletTWD(t, m.wallet(wr.Position))
		if twd.Available != "617470.00" || twd.Frozen != "382530.00" || twd.Unexplained != "0.00" || len(twd.Holds) != 2 {
			t.Fatalf("wallet TWD %+v", twd)
		}
		if h0, h1 := twd.Holds[0], twd.Holds[1]; h0.Reason != "trade" || h0.Ref != o.OrderNo || h0.Amount != "372530.00" ||
			h1.Reason != "withdraw" || h1.Ref != wr.OrderNo || h1.Amount != "10000.00" {
			t.Fatalf("holds %+v", twd.Holds)
		}

		// The order fills at 186 (commission 530): its hold is gone, the withdrawal's stays.
		th.mkt.book("2603", "186.5", "186", lvls("185.5", 5000), lvls("186", 5000))
		th.match("2603")
		m.waitFilled(o.OrderNo)
		twd = walletTWD(t, m.wallet(h.head()))
		if twd.Frozen != "10000.00" || len(twd.Holds) != 1 || twd.Holds[0].Reason != "withdraw" || twd.Unexplained != "0.00" {
			t.Fatalf("wallet after the fill %+v", twd)
		}
		want(t, h.ops.post("/api/vue/ops/withdrawals/"+wr.OrderNo+"/approve", map[string]string{}), 200, "ok")
		twd = walletTWD(t, m.wallet(h.head()))
		if twd.Frozen != "0.00" || len(twd.Holds) != 0 {
			t.Fatalf("wallet after the withdrawal %+v", twd)
		}

		var st wire.Statement
		m.at("/api/vue/user/statement?month=2026-03", h.head(), &st)
		if st.Month != "2026-03" || !st.From.Equal(time.Date(2026, 2, 28, 16, 0, 0, 0, time.UTC)) || len(st.Cash) != 1 {
			t.Fatalf("statement %+v", st)
		}
		cash := st.Cash[0]
		closing := dec(twd.Available).Add(dec(twd.Frozen))
		if cash.Currency != "TWD" || cash.Opening != "0.00" || !dec(cash.Closing).Equal(closing) {
			t.Fatalf("cash %+v, want closing %s", cash, closing)
		}
		// The lines that happened add up to the change, and the totals to the lines.
		sum := decimal.Zero
		for _, l := range st.Lines {
			if l.Currency == "TWD" && (l.Status == "completed" || l.Status == "approved") {
				sum = sum.Add(dec(l.Amount))
			}
		}
		totals := decimal.Zero
		for _, tot := range st.Totals {
			if tot.Currency == "TWD" {
				totals = totals.Add(dec(tot.Amount))
			}
		}
		if !sum.Equal(dec(cash.Change)) || !totals.Equal(sum) {
			t.Fatalf("lines sum %s, totals %s, change %s: %+v", sum, totals, cash.Change, st.Lines)
		}
		if len(st.Trades) != 1 {
			t.Fatalf("trades %+v", st.Trades)
		}
		if tr := st.Trades[0]; tr.OrderNo != o.OrderNo || tr.Symbol != "2603" || tr.Side != "buy" || tr.Shares != "2000" ||
			!dec(tr.Amount).Equal(dec("-372000")) || !dec(tr.Fee).Equal(dec("-530")) || !dec(tr.Tax).IsZero() {
			t.Fatalf("trade %+v", tr)
		}

		var feb wire.Statement
		m.at("/api/vue/user/statement?month=2026-02", h.head(), &feb)
		if len(feb.Cash) != 0 || len(feb.Lines) != 0 || len(feb.Trades) != 0 {
			t.Fatalf("february %+v", feb)
		}
		// The next month opens where March closed.
		h.clock.Advance(31 * 24 * time.Hour)
		m = h.login(m.account, "secret123") // the session expired
		var apr wire.Statement
		m.at("/api/vue/user/statement", h.head(), &apr)
		if apr.Month != "2026-04" || len(apr.Cash) != 1 || !dec(apr.Cash[0].Opening).Equal(closing) || apr.Cash[0].Change != "0.00" {
			t.Fatalf("april %+v", apr)
		}
		for _, bad := range []string{"2026-13", "2026-4", "26-04", "2026-05", "x"} {
			want(t, m.get("/api/vue/user/statement?month="+bad), 400, "invalid_request")
		}
		want(t, h.login("ops", "opsdemo1").get("/api/vue/wallet"), 403, "forbidden")
		want(t, h.anon().get("/api/vue/user/statement"), 401, "unauthorized")
	})
}
