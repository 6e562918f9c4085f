package api

import (
	"bytes"
	"context"
	"github.com/lotbook/lotbook/api/testimage"
	"maps"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/lotbook/lotbook/api/wire"
	"github.com/lotbook/lotbook/commands"
	fundscmd "github.com/lotbook/lotbook/commands/funds"
	"github.com/lotbook/lotbook/commands/siteconfig"
	"github.com/lotbook/lotbook/events"
)

// Scenario tests of issue 6: identity verification, bank cards, withdrawals, the credit score,
// currency exchange, and who may see what. Each runs on SQLite and PostgreSQL and ends with the
// auditor's verification (harness.verify).

// withdrawalWindow is the seeded withdrawal channel's window: weekdays 09:00-17:00 in Taipei,
// closed on exchange holidays. The test clock starts on Monday 2 March 2026, 10:00 in Taipei.
var withdrawalWindow = events.TimeWindow{Weekdays: []int{1, 2, 3, 4, 5}, Open: "09:00", Close: "17:00", TZ: "Asia/Taipei", ClosedOnHolidays: true}

// withdrawals configures the withdrawal channel (TWD 100 to 500,000).
func (h *harness) withdrawals() {
	h.t.Helper()
	_, err := h.st.Funds.ConfigureWithdrawalChannel(context.Background(), commands.Meta{CommandID: "seed-withdraw", Actor: "system"},
		fundscmd.ChannelInput{ID: "bank", Name: "Bank transfer", Currency: "TWD", Min: "100", Max: "500000", Window: withdrawalWindow, Enabled: true})
	if err != nil {
		h.t.Fatal(err)
	}
}

var imageSizes atomic.Int64

// photo uploads an image no one else has (sizes differ, so the content hash differs): an ID
// photo or a deposit proof, of which each backs one deposit.
func (c *client) photo() string {
	c.h.t.Helper()
	n := int(imageSizes.Add(1))
	a := c.upload("id.png", testimage.GradientPNG(20+n%200, 20+n/200))
	want(c.h.t, a, 200, "ok")
	var f wire.FileRef
	a.data(c.h.t, &f)
	return f.Id
}

func (c *client) submitRealName(name, id string) answer {
	c.h.t.Helper()
	return c.post("/api/vue/user/realname", map[string]string{"name": name, "idNumber": id, "frontFileId": c.photo(), "backFileId": c.photo()})
}

// verify submits an identity and has ops approve it.
func (c *client) verify(id string) {
	c.h.t.Helper()
	want(c.h.t, c.submitRealName("王小明", id), 200, "realname_submitted")
	want(c.h.t, c.h.ops.post("/api/vue/ops/realname/"+c.account+"/approve", map[string]string{}), 200, "ok")
}

func (c *client) setFundPassword() {
	c.h.t.Helper()
	want(c.h.t, c.post("/api/vue/user/fundPassword", map[string]string{"loginPassword": "secret123", "fundPassword": "123456", "confirmFundPassword": "123456"}), 200, "ok")
}

// fund deposits amount TWD and has ops approve it.
func (c *client) fund(amount string) int64 {
	c.h.t.Helper()
	o := c.deposit(amount, c.photo())
	a := c.h.ops.post("/api/vue/ops/deposits/"+o.OrderNo+"/approve", map[string]string{})
	want(c.h.t, a, 200, "ok")
	var r wire.OrderResult
	a.data(c.h.t, &r)
	return r.Position
}

func (c *client) bindCard(number string) wire.CardResult {
	c.h.t.Helper()
	a := c.post("/api/vue/user/cards", cardForm(number))
	want(c.h.t, a, 200, "ok")
	var r wire.CardResult
	a.data(c.h.t, &r)
	return r
}

func cardForm(number string) map[string]string {
	return map[string]string{"holderName": "王小明", "bankName": "Bank of Taiwan", "branch": "0037", "cardNumber": number, "bankCode": "004"}
}

// ready is a verified member with a fund password, a card and amount TWD.
func (h *harness) ready(account, id, card, amount string) (*client, string) {
	h.t.Helper()
	m := h.register(account)
	m.verify(id)
	m.setFundPassword()
	c := m.bindCard(card)
	if amount != "" {
		m.fund(amount)
	}
	return m, c.Id
}

func (c *client) withdraw(amount, cardID, fundPassword string) answer {
	c.h.t.Helper()
	return c.post("/api/vue/funds/withdrawals", map[string]string{"amount": amount, "cardId": cardID, "fundPassword": fundPassword})
}

func (c *client) records(typ string, pos int64) wire.FundRecordPage {
	c.h.t.Helper()
	a := c.get("/api/vue/funds/records?type="+typ, "Lotbook-Position", strconv.FormatInt(pos, 10))
	want(c.h.t, a, 200, "ok")
	var p wire.FundRecordPage
	a.data(c.h.t, &p)
	return p
}

// refused checks a refusal and that it wrote nothing.
func (h *harness) refused(code int, msg string, send func() answer) {
	h.t.Helper()
	h.unchanged(func() {
		h.t.Helper()
		want(h.t, send(), code, msg)
	})
}

// badField is a form's field changed to a value the server refuses with code and msg.
type badField struct {
	field string
	value any
	code  int
	msg   string
}

// refusedForms has ops post form to path with each bad field changed alone: each is refused and
// changes nothing.
func (h *harness) refusedForms(path string, form map[string]any, bad []badField) {
	h.t.Helper()
	for _, b := range bad {
		changed := maps.Clone(form)
		changed[b.field] = b.value
		h.refused(b.code, b.msg, func() answer { return h.ops.post(path, changed) })
	}
}

func TestRealNameVerification(t *testing.T) {
	forEachBackend(t, func(t *testing.T, h *harness) {
		m := h.register("0912345678")
		var view wire.RealNameView
		m.get("/api/vue/user/realname").data(t, &view)
		if view.Status != wire.RealNameStatusUnverified || view.SubmittedAt != nil {
			t.Fatalf("before submission %+v", view)
		}
		front, back := m.photo(), m.photo()
		form := func(name, id, f, b string) map[string]string {
			return map[string]string{"name": name, "idNumber": id, "frontFileId": f, "backFileId": b}
		}
		for _, c := range []struct {
			body map[string]string
			code int
			msg  string
		}{
			{form("", "A123456789", front, back), 400, "name_required"},
			{form("王小明", "", front, back), 400, "id_number_required"},
			{form("王小明", "A123456789", front, ""), 400, "id_photos_required"},
			{form("王小明", "A123456789", front, front), 400, "id_photos_required"},
			{form("X1", "A123456789", front, back), 400, "name_invalid"},
			{form("王小明", "A123456788", front, back), 400, "id_number_invalid"},
			{form("王小明", "A123456789", front, strings.Repeat("ab", 32)), 404, "file_not_found"},
		} {
			h.refused(c.code, c.msg, func() answer { return m.post("/api/vue/user/realname", c.body) })
		}
		h.refused(400, "invalid_request", func() answer {
			return m.post("/api/vue/user/realname", map[string]string{"name": "王小明", "idNumber": "A123456789", "frontFileId": front})
		})
		// Another member's photos are not found.
		other := h.register("0987654321")
		h.refused(404, "file_not_found", func() answer {
			return other.post("/api/vue/user/realname", form("陳大文", "B200000004", front, back))
		})

		a := m.post("/api/vue/user/realname", form(" 王 小明 ", "a123456789", front, back))
		want(t, a, 200, "realname_submitted")
		var res wire.RealNameResult
		a.data(t, &res)
		if res.Status != wire.RealNameStatusPending {
			t.Fatalf("answer %+v", res)
		}
		if u := m.info(res.Position); u.RealNameStatus != wire.RealNameStatusPending {
			t.Fatalf("info %+v", u)
		}
		a = m.get("/api/vue/user/realname")
		a.data(t, &view)
		if view.Status != wire.RealNameStatusPending || view.IdNumberMasked != "A12****789" || view.Name != "王 小明" ||
			view.FrontFileId != front || view.SubmittedAt == nil || view.ReviewedAt != nil || bytes.Contains(a.Data, []byte("A123456789")) {
			t.Fatalf("own view %s", a.Data)
		}
		h.refused(422, "realname_pending", func() answer { return m.post("/api/vue/user/realname", form("王小明", "A123456789", front, back)) })
		// The number belongs to this member now.
		of, ob := other.photo(), other.photo()
		h.refused(422, "id_number_exists", func() answer {
			return other.post("/api/vue/user/realname", form("王小明", "A123456789", of, ob))
		})

		// Ops see the number in the clear, and the photos.
		a = h.ops.get("/api/vue/ops/realname?status=pending", "Lotbook-Position", strconv.FormatInt(res.Position, 10))
		want(t, a, 200, "ok")
		var queue wire.OpsRealNamePage
		a.data(t, &queue)
		if len(queue.Items) != 1 || queue.Items[0].Account != m.account || queue.Items[0].IdNumber != "A123456789" ||
			queue.Items[0].IdNumberMasked != "A12****789" || queue.Items[0].BackFileId != back || queue.Items[0].ReviewedBy != "" {
			t.Fatalf("ops queue %+v", queue)
		}
		if img := h.ops.raw("GET", "/api/vue/files/"+front, "", nil); img.code != 200 {
			t.Fatalf("ops cannot see the photo: %d", img.code)
		}
		h.refused(403, "forbidden", func() answer { return m.get("/api/vue/ops/realname") })
		h.refused(400, "remark_required", func() answer {
			return h.ops.post("/api/vue/ops/realname/"+m.account+"/reject", map[string]string{"remark": "  "})
		})
		h.refused(404, "account_not_exist", func() answer {
			return h.ops.post("/api/vue/ops/realname/0900000000/approve", map[string]string{})
		})
		a = h.ops.post("/api/vue/ops/realname/"+m.account+"/reject", map[string]string{"remark": "back photo unreadable"})
		want(t, a, 200, "ok")
		var rev wire.RealNameReviewResult
		a.data(t, &rev)
		if rev.Status != wire.RealNameStatusRejected || rev.Account != m.account {
			t.Fatalf("reject %+v", rev)
		}
		m.get("/api/vue/user/realname", "Lotbook-Position", strconv.FormatInt(rev.Position, 10)).data(t, &view)
		if view.Status != wire.RealNameStatusRejected || view.Remark != "back photo unreadable" || view.ReviewedAt == nil {
			t.Fatalf("after reject %+v", view)
		}
		h.refused(422, "realname_not_pending", func() answer {
			return h.ops.post("/api/vue/ops/realname/"+m.account+"/approve", map[string]string{})
		})
		h.refused(422, "realname_not_verified", func() answer { return m.post("/api/vue/user/cards", cardForm("0123456789012")) })

		// A rejected member submits again; ops approve.
		want(t, m.submitRealName("王小明", "A123456789"), 200, "realname_submitted")
		a = h.ops.post("/api/vue/ops/realname/"+m.account+"/approve", map[string]string{"remark": "photos match"})
		want(t, a, 200, "ok")
		a.data(t, &rev)
		if u := m.info(rev.Position); u.RealNameStatus != wire.RealNameStatusVerified {
			t.Fatalf("info after approval %+v", u)
		}
		h.refused(422, "realname_verified", func() answer { return m.post("/api/vue/user/realname", form("王小明", "A123456789", front, back)) })
		var members wire.OpsMemberPage
		h.ops.get("/api/vue/ops/members?q="+m.account).data(t, &members)
		if len(members.Items) != 1 || members.Items[0].RealNameStatus != wire.RealNameStatusVerified {
			t.Fatalf("ops member list %+v", members)
		}
		// Ops find the member by its verified real name too (a LIKE pattern's % is taken as text).
		h.ops.get("/api/vue/ops/members?q="+url.QueryEscape("小明")).data(t, &members)
		if len(members.Items) != 1 || members.Items[0].Account != m.account {
			t.Fatalf("ops member search by real name %+v", members)
		}
		h.ops.get("/api/vue/ops/members?q="+url.QueryEscape("王%明")).data(t, &members)
		if len(members.Items) != 0 {
			t.Fatalf("ops member search by a pattern %+v", members)
		}
		h.ops.get("/api/vue/ops/realname?status=verified").data(t, &queue)
		if len(queue.Items) != 1 || !strings.HasPrefix(queue.Items[0].ReviewedBy, "ops:") {
			t.Fatalf("verified queue %+v", queue)
		}

		// Nobody but ops reviewing sees the number: not the auditor's timeline, not the member.
		a = h.aud.get("/api/vue/audit/accounts/" + m.account + "/timeline")
		want(t, a, 200, "ok")
		if bytes.Contains(a.Data, []byte("A123456789")) || !bytes.Contains(a.Data, []byte("RealNameApproved.v1")) {
			t.Fatalf("timeline %s", a.Data)
		}
	})
}

func TestBankCards(t *testing.T) {
	forEachBackend(t, func(t *testing.T, h *harness) {
		m := h.register("0912345678")
		m.verify("A123456789")
		with := func(k, v string) map[string]string {
			f := cardForm("0123456789012")
			f[k] = v
			return f
		}
		for _, c := range []struct {
			body map[string]string
			code int
			msg  string
		}{
			{with("branch", ""), 400, "card_fields_required"},
			{with("branch", "Taipei main"), 400, "branch_code_invalid"},
			{with("branch", "037"), 400, "branch_code_invalid"},
			{with("bankCode", "999"), 400, "bank_code_invalid"},
			{with("cardNumber", "123456789"), 400, "card_number_invalid"},
			{with("cardNumber", "12345678901234567"), 400, "card_number_invalid"},
			{with("cardNumber", "0123456789O12"), 400, "card_number_invalid"},
			{with("bankCode", "04"), 400, "bank_code_invalid"},
			// IFSC and UPI only where ops enabled them for a channel: off by default.
			{with("ifsc", "SBIN0001234"), 400, "card_field_not_enabled"},
			{with("upi", "wang@okaxis"), 400, "card_field_not_enabled"},
			{with("holderName", "陳大文"), 422, "card_not_own"},
		} {
			h.refused(c.code, c.msg, func() answer { return m.post("/api/vue/user/cards", c.body) })
		}
		if _, err := siteconfig.New(h.st.Commands).SetSiteConfig(context.Background(), commands.Meta{CommandID: newUUID(), Actor: "ops"},
			siteconfig.SiteConfig{Name: "withdrawal.bank.cardFields", Value: "ifsc,upi"}); err != nil {
			t.Fatal(err)
		}
		h.refused(400, "ifsc_invalid", func() answer { return m.post("/api/vue/user/cards", with("ifsc", "SBIN1001234")) })
		h.refused(400, "upi_invalid", func() answer { return m.post("/api/vue/user/cards", with("upi", "alice")) })
		form := cardForm("0123-4567-8901-2")
		form["ifsc"], form["upi"] = "sbin0001234", "wang@okaxis"
		a := m.post("/api/vue/user/cards", form)
		want(t, a, 200, "ok")
		var card wire.CardResult
		a.data(t, &card)
		if card.Last4 != "9012" || card.Id == "" {
			t.Fatalf("bound %+v", card)
		}
		a = m.get("/api/vue/user/cards", "Lotbook-Position", strconv.FormatInt(card.Position, 10))
		want(t, a, 200, "ok")
		var cards []wire.BankCard
		a.data(t, &cards)
		if len(cards) != 1 || cards[0].Id != card.Id || cards[0].CardNumberMasked != "**** 9012" || cards[0].Ifsc != "SBIN0001234" ||
			cards[0].Upi != "wang@okaxis" || cards[0].BankCode != "004" || cards[0].BankName != "臺灣銀行" || cards[0].Branch != "0037" || bytes.Contains(a.Data, []byte("0123456789012")) {
			t.Fatalf("cards %s", a.Data)
		}
		h.refused(422, "card_exists", func() answer { return m.post("/api/vue/user/cards", cardForm("0123 4567 89012")) })
		// Bound to one card across all members.
		other := h.register("0987654321")
		other.verify("B200000004")
		h.refused(422, "card_exists", func() answer { return other.post("/api/vue/user/cards", cardForm("0123456789012")) })
		h.refused(404, "card_not_found", func() answer {
			return other.raw("DELETE", "/api/vue/user/cards/"+card.Id, "", nil, "Idempotency-Key", newUUID())
		})
		var none []wire.BankCard
		other.get("/api/vue/user/cards").data(t, &none)
		if len(none) != 0 {
			t.Fatalf("other member sees %+v", none)
		}
		a = m.raw("DELETE", "/api/vue/user/cards/"+card.Id, "", nil, "Idempotency-Key", newUUID())
		want(t, a, 200, "card_unbound")
		var cr wire.CommandResult
		a.data(t, &cr)
		m.get("/api/vue/user/cards", "Lotbook-Position", strconv.FormatInt(cr.Position, 10)).data(t, &cards)
		if len(cards) != 0 {
			t.Fatalf("after unbind %+v", cards)
		}
		h.refused(404, "card_not_found", func() answer {
			return m.raw("DELETE", "/api/vue/user/cards/"+card.Id, "", nil, "Idempotency-Key", newUUID())
		})
		// Unbound, the number can be bound again (by its owner at once; by others after the
		// guard's grace minute).
		m.bindCard("0123456789012")
	})
}

func TestWithdrawalRules(t *testing.T) {
	forEachBackend(t, func(t *testing.T, h *harness) {
		h.withdrawals()
		m := h.register("0912345678")
		m.verify("A123456789")
		card := m.bindCard("0123456789012").Id
		m.fund("5000")

		var chans []wire.WithdrawChannel
		m.get("/api/vue/funds/withdrawChannels").data(t, &chans)
		if len(chans) != 1 || chans[0].Min != "100.00" || chans[0].Max != "500000.00" || !chans[0].OpenNow || chans[0].Window.Open != "09:00" {
			t.Fatalf("withdrawal channels %+v", chans)
		}
		h.refused(422, "fund_password_not_set", func() answer { return m.withdraw("1000", card, "123456") })
		m.setFundPassword()
		for _, c := range []struct {
			amount, card, pw string
			code             int
			msg              string
		}{
			{"", card, "123456", 400, "amount_required"},
			{"1000", "", "123456", 400, "card_required"},
			{"1000", card, "", 400, "fund_password_required"},
			{"1000", "nope", "123456", 404, "card_not_found"},
			{"1.234", card, "123456", 400, "amount_invalid"},
			{"99.99", card, "123456", 422, "amount_below_minimum"},
			{"500000.01", card, "123456", 422, "amount_above_maximum"},
			{"5000.01", card, "123456", 422, "insufficient_balance"},
		} {
			h.refused(c.code, c.msg, func() answer { return m.withdraw(c.amount, c.card, c.pw) })
		}
		want(t, h.ops.post("/api/vue/ops/members/"+m.account+"/flags", map[string]any{"flag": "withdrawal_banned", "on": true, "reason": "chargeback"}), 200, "ok")
		h.refused(403, "withdrawal_banned", func() answer { return m.withdraw("1000", card, "123456") })
		want(t, h.ops.post("/api/vue/ops/members/"+m.account+"/flags", map[string]any{"flag": "withdrawal_banned", "on": false, "reason": "cleared"}), 200, "ok")

		// A wrong fund password is recorded (it counts towards the lock) and moves no money.
		before := h.head()
		want(t, m.withdraw("1000", card, "000000"), 422, "fund_password_wrong")
		if h.head() != before+1 {
			t.Fatalf("a wrong fund password wrote %d events, want 1", h.head()-before)
		}

		a := m.withdraw("3000", card, "123456")
		want(t, a, 200, "ok")
		var o wire.OrderResult
		a.data(t, &o)
		if o.Status != wire.ReviewStatusPending || !strings.HasPrefix(o.OrderNo, "W") {
			t.Fatalf("withdrawal %+v", o)
		}
		if u := m.info(o.Position); u.Assets.Available != "2000.00" || u.Assets.Frozen != "3000.00" || u.Assets.Total != "5000.00" {
			t.Fatalf("assets %+v", u.Assets)
		}
		recs := m.records("withdraw", o.Position)
		if len(recs.Items) != 1 || recs.Items[0].Status != wire.FundRecordStatusPending || recs.Items[0].Amount != "3000.00" ||
			recs.Items[0].CardLast4 == nil || *recs.Items[0].CardLast4 != "9012" || recs.Items[0].ChannelName != "Bank transfer" {
			t.Fatalf("records %+v", recs)
		}
		h.refused(429, "submit_too_frequent", func() answer { return m.withdraw("100", card, "123456") })
		h.clock.Advance(31 * time.Second)
		h.refused(422, "fund_operation_pending", func() answer { return m.withdraw("100", card, "123456") })

		a = h.ops.get("/api/vue/ops/withdrawals?status=pending", "Lotbook-Position", strconv.FormatInt(o.Position, 10))
		want(t, a, 200, "ok")
		var q wire.OpsWithdrawalPage
		a.data(t, &q)
		if len(q.Items) != 1 || q.Items[0].OrderNo != o.OrderNo || q.Items[0].Account != m.account || q.Items[0].CardNumberMasked != "**** 9012" ||
			q.Items[0].HolderName != "王小明" || q.Items[0].BankCode != "004" || bytes.Contains(a.Data, []byte("0123456789012")) {
			t.Fatalf("ops queue %s", a.Data)
		}
		h.refused(400, "remark_required", func() answer {
			return h.ops.post("/api/vue/ops/withdrawals/"+o.OrderNo+"/reject", map[string]string{"remark": ""})
		})
		h.refused(404, "order_not_found", func() answer {
			return h.ops.post("/api/vue/ops/withdrawals/W2026030200000000000000/approve", map[string]string{})
		})
		a = h.ops.post("/api/vue/ops/withdrawals/"+o.OrderNo+"/reject", map[string]string{"remark": "account name mismatch at the bank"})
		want(t, a, 200, "ok")
		a.data(t, &o)
		if u := m.info(o.Position); u.Assets.Available != "5000.00" || u.Assets.Frozen != "0.00" {
			t.Fatalf("assets after reject %+v", u.Assets)
		}
		recs = m.records("withdraw", o.Position)
		if recs.Items[0].Status != wire.FundRecordStatusRejected || recs.Items[0].Remark != "account name mismatch at the bank" {
			t.Fatalf("records after reject %+v", recs.Items[0])
		}

		a = m.withdraw("1500.50", card, "123456")
		want(t, a, 200, "ok")
		a.data(t, &o)
		a = h.ops.post("/api/vue/ops/withdrawals/"+o.OrderNo+"/approve", map[string]string{"remark": "paid"})
		want(t, a, 200, "ok")
		a.data(t, &o)
		if o.Status != wire.ReviewStatusApproved {
			t.Fatalf("approve %+v", o)
		}
		if u := m.info(o.Position); u.Assets.Available != "3499.50" || u.Assets.Frozen != "0.00" {
			t.Fatalf("assets after payout %+v", u.Assets)
		}
		h.refused(422, "order_not_pending", func() answer {
			return h.ops.post("/api/vue/ops/withdrawals/"+o.OrderNo+"/reject", map[string]string{"remark": "late"})
		})
		all := m.records("all", o.Position)
		if len(all.Items) != 3 || all.Items[0].Type != wire.Withdraw || all.Items[0].Status != wire.FundRecordStatusApproved || all.Items[2].Type != wire.Deposit {
			t.Fatalf("all records %+v", all)
		}

		// Outside the window: Monday 18:00, then a holiday (Children's Day observed, Friday 3 April 2026).
		h.clock.Advance(8 * time.Hour)
		h.refused(422, "withdraw_window_closed", func() answer { return m.withdraw("100", card, "123456") })
		m.get("/api/vue/funds/withdrawChannels").data(t, &chans)
		if chans[0].OpenNow {
			t.Fatal("channel open at 18:00")
		}
		h.clock.Advance(31*24*time.Hour + 16*time.Hour) // Friday 3 April, 10:00
		m2 := h.register("0911111111")
		h.ops = h.login("ops", "opsdemo1") // the first session expired meanwhile
		m2.verify("F131104093")
		m2.setFundPassword()
		card2 := m2.bindCard("9876543210").Id
		h.refused(422, "withdraw_window_closed", func() answer { return m2.withdraw("100", card2, "123456") })
	})
}

func TestCreditScore(t *testing.T) {
	forEachBackend(t, func(t *testing.T, h *harness) {
		h.withdrawals()
		m, card := h.ready("0912345678", "A123456789", "0123456789012", "2000")
		var rule wire.CreditRule
		m.get("/api/vue/user/creditRule").data(t, &rule)
		if rule.Score != 100 || rule.Start != 100 || rule.WithdrawThreshold != 60 || len(rule.Changes) != 2 ||
			rule.Changes[1].Reason != wire.DepositRejected || rule.Changes[1].Delta != -5 {
			t.Fatalf("rule %+v", rule)
		}
		// Nine rejected deposits take the score from 100 to 55, below the threshold.
		var pos int64
		for i := 0; i < 9; i++ {
			o := m.deposit("1000", m.photo())
			a := h.ops.post("/api/vue/ops/deposits/"+o.OrderNo+"/reject", map[string]string{"remark": "no such transfer"})
			want(t, a, 200, "ok")
			var r wire.OrderResult
			a.data(t, &r)
			pos = r.Position
		}
		if u := m.info(pos); u.CreditScore != 55 {
			t.Fatalf("score %d, want 55", u.CreditScore)
		}
		h.refused(422, "credit_score_too_low", func() answer { return m.withdraw("100", card, "123456") })
		credits := m.records("credit", pos)
		if len(credits.Items) != 9 || credits.Items[0].Amount != "-5" || *credits.Items[0].CreditScore != 55 ||
			credits.Items[0].Remark != "deposit_rejected" || credits.Items[0].Currency != "" || credits.Items[0].Status != wire.FundRecordStatusCompleted {
			t.Fatalf("credit records %+v", credits.Items[0])
		}
		// An approved deposit adds a point back; the member sees every change.
		pos = m.fund("1000")
		if u := m.info(pos); u.CreditScore != 56 {
			t.Fatalf("score %d, want 56", u.CreditScore)
		}
		m.get("/api/vue/user/creditRule").data(t, &rule)
		if rule.Score != 56 {
			t.Fatalf("rule's score %d", rule.Score)
		}
		a := h.aud.get("/api/vue/audit/accounts/" + m.account + "/timeline?size=200")
		var tl wire.Timeline
		a.data(t, &tl)
		changes := 0
		for _, e := range tl.Items {
			if e.Type == "CreditScoreChanged.v1" {
				changes++
				if !strings.HasPrefix(e.Actor, "ops:") || e.Summary["by"] == "" {
					t.Fatalf("credit change %+v", e)
				}
			}
		}
		if changes != 10 {
			t.Fatalf("%d credit changes in the timeline", changes)
		}
	})
}

func TestFundPasswordLocksWithdrawals(t *testing.T) {
	forEachBackend(t, func(t *testing.T, h *harness) {
		h.withdrawals()
		m, card := h.ready("0912345678", "A123456789", "0123456789012", "2000")
		for i := 1; i <= 4; i++ {
			want(t, m.withdraw("100", card, "654321"), 422, "fund_password_wrong")
		}
		want(t, m.withdraw("100", card, "654321"), 403, "fund_password_locked")
		h.refused(403, "fund_password_locked", func() answer { return m.withdraw("100", card, "123456") })
		h.clock.Advance(24 * time.Hour)
		// A new day's session (sessions last 7 days, so the old one still works).
		want(t, m.withdraw("100", card, "123456"), 200, "ok")
	})
}

func TestConcurrentDoubleWithdrawal(t *testing.T) {
	forEachBackend(t, func(t *testing.T, h *harness) {
		h.withdrawals()
		m, card := h.ready("0912345678", "A123456789", "0123456789012", "5000")
		m2 := h.login(m.account, "secret123") // a second device
		answers := concurrently(8, func(i int) answer {
			c := m
			if i%2 == 1 {
				c = m2
			}
			return c.withdraw("5000", card, "123456")
		})
		won := successes(t, "withdrawal", answers, func(a answer) bool {
			return a.code == 429 && a.Msg == "submit_too_frequent" || a.code == 422 && a.Msg == "fund_operation_pending"
		})
		if len(won) != 1 {
			t.Fatalf("%d withdrawals of the whole balance succeeded, want 1", len(won))
		}
		var o wire.OrderResult
		won[0].data(t, &o)
		if u := m.info(o.Position); u.Assets.Available != "0.00" || u.Assets.Frozen != "5000.00" {
			t.Fatalf("assets %+v", u.Assets)
		}
	})
}

func TestWithdrawalApproveRejectRace(t *testing.T) {
	forEachBackend(t, func(t *testing.T, h *harness) {
		h.withdrawals()
		m, card := h.ready("0912345678", "A123456789", "0123456789012", "5000")
		a := m.withdraw("4000", card, "123456")
		want(t, a, 200, "ok")
		var o wire.OrderResult
		a.data(t, &o)
		ops2 := h.login("ops", "opsdemo1")
		answers := concurrently(8, func(i int) answer {
			c := h.ops
			if i%2 == 1 {
				c = ops2
			}
			path, body := "/approve", map[string]string{}
			if i%4 >= 2 {
				path, body = "/reject", map[string]string{"remark": "race"}
			}
			return c.post("/api/vue/ops/withdrawals/"+o.OrderNo+path, body)
		})
		wins := successes(t, "decision", answers, notPending)
		if len(wins) != 1 {
			t.Fatalf("%d decisions won, want exactly 1", len(wins))
		}
		var won wire.OrderResult
		wins[0].data(t, &won)
		u := m.info(won.Position)
		switch won.Status {
		case wire.ReviewStatusApproved:
			if u.Assets.Available != "1000.00" || u.Assets.Frozen != "0.00" {
				t.Fatalf("approved, assets %+v", u.Assets)
			}
		case wire.ReviewStatusRejected:
			if u.Assets.Available != "5000.00" || u.Assets.Frozen != "0.00" {
				t.Fatalf("rejected, assets %+v", u.Assets)
			}
		default:
			t.Fatalf("winner %+v", won)
		}
	})
}

func TestExchange(t *testing.T) {
	forEachBackend(t, func(t *testing.T, h *harness) {
		m := h.register("0912345678")
		var bals []wire.CurrencyBalance
		m.get("/api/vue/funds/balances").data(t, &bals)
		if len(bals) != 10 || bals[0].Currency != "CNY" || bals[5].Currency != "JPY" || bals[5].Available != "0" || bals[1].Total != "0.00" {
			t.Fatalf("balances %+v", bals)
		}
		m.fund("10000")
		quote := func(from, to, amount string) answer {
			return m.post("/api/vue/funds/exchange/quote", map[string]string{"from": from, "to": to, "amount": amount})
		}
		for _, c := range []struct {
			from, to, amount string
			code             int
			msg              string
		}{
			{"TWD", "USD", "", 400, "amount_required"},
			{"TWD", "EUR", "100", 400, "exchange_currency_invalid"},
			{"TWD", "TWD", "100", 400, "exchange_same_currency"},
			{"TWD", "INR", "100", 422, "exchange_pair_unsupported"},
			{"INR", "JPY", "100", 422, "exchange_pair_unsupported"},
			{"TWD", "USD", "1.001", 400, "amount_invalid"},
			{"TWD", "USD", "10000.01", 422, "insufficient_balance"},
			{"USD", "TWD", "1", 422, "insufficient_balance"},
			{"TWD", "USD", "0.01", 422, "amount_below_minimum"},
		} {
			h.refused(c.code, c.msg, func() answer { return quote(c.from, c.to, c.amount) })
		}
		a := quote("TWD", "USD", "3200")
		want(t, a, 200, "ok")
		var q wire.ExchangeQuote
		a.data(t, &q)
		rate := dec(q.Rate)
		if q.From != "TWD" || q.To != "USD" || q.Amount != "3200.00" || rate.LessThan(dec("0.0311")) || rate.GreaterThan(dec("0.0314")) ||
			!dec(q.ToAmount).Equal(dec("3200").Mul(rate).RoundDown(2)) || !q.ExpiresAt.Equal(h.clock.Now().Add(30*time.Second).UTC()) {
			t.Fatalf("quote %+v", q)
		}
		// Another member cannot use it.
		other := h.register("0987654321")
		h.refused(404, "exchange_quote_not_found", func() answer { return other.post("/api/vue/funds/exchange", map[string]string{"quoteId": q.QuoteId}) })
		h.refused(404, "exchange_quote_not_found", func() answer { return m.post("/api/vue/funds/exchange", map[string]string{"quoteId": ""}) })

		h.clock.Advance(29 * time.Second)
		a = m.post("/api/vue/funds/exchange", map[string]string{"quoteId": q.QuoteId})
		want(t, a, 200, "ok")
		var x wire.ExchangeResult
		a.data(t, &x)
		if x.FromAmount != "3200.00" || x.ToAmount != q.ToAmount || x.Rate != q.Rate || !strings.HasPrefix(x.OrderNo, "X") {
			t.Fatalf("exchange %+v", x)
		}
		h.refused(422, "exchange_quote_used", func() answer { return m.post("/api/vue/funds/exchange", map[string]string{"quoteId": q.QuoteId}) })
		u := m.info(x.Position)
		if u.Assets.Usd != q.ToAmount || u.Assets.Available != "6800.00" {
			t.Fatalf("mine after exchange %+v (USD %s)", u.Assets, q.ToAmount)
		}
		m.get("/api/vue/funds/balances", "Lotbook-Position", strconv.FormatInt(x.Position, 10)).data(t, &bals)
		if bals[1].Available != "6800.00" || bals[3].Available != q.ToAmount {
			t.Fatalf("balances %+v", bals)
		}
		recs := m.records("exchange", x.Position)
		if len(recs.Items) != 2 || recs.Items[0].Amount != "-3200.00" || recs.Items[0].Currency != "TWD" || recs.Items[1].Currency != "USD" ||
			recs.Items[1].Amount != q.ToAmount || *recs.Items[1].Rate != q.Rate || recs.Items[0].OrderNo != x.OrderNo {
			t.Fatalf("exchange records %+v", recs)
		}

		// Expired after 30 s.
		a = quote("TWD", "JPY", "1000")
		want(t, a, 200, "ok")
		a.data(t, &q)
		if strings.Contains(q.ToAmount, ".") {
			t.Fatalf("JPY amount %q has decimals", q.ToAmount)
		}
		h.clock.Advance(30 * time.Second)
		h.refused(422, "exchange_quote_expired", func() answer { return m.post("/api/vue/funds/exchange", map[string]string{"quoteId": q.QuoteId}) })

		// INR only with USD.
		a = quote("USD", "INR", "10")
		want(t, a, 200, "ok")
		a.data(t, &q)
		want(t, m.post("/api/vue/funds/exchange", map[string]string{"quoteId": q.QuoteId}), 200, "ok")
	})
}

// TestAuthorizationMatrix: another member's object ids answer 404 and no data; member tokens on
// ops and audit routes 403; tokens after logout or a password change 401.
func TestAuthorizationMatrix(t *testing.T) {
	forEachBackend(t, func(t *testing.T, h *harness) {
		h.withdrawals()
		a, card := h.ready("0912345678", "A123456789", "0123456789012", "5000")
		wa := a.withdraw("100", card, "123456")
		want(t, wa, 200, "ok")
		var w wire.OrderResult
		wa.data(t, &w)
		proof := a.photo()
		dep := a.deposit("1000", proof)
		var q wire.ExchangeQuote
		a.post("/api/vue/funds/exchange/quote", map[string]string{"from": "TWD", "to": "USD", "amount": "100"}).data(t, &q)
		var rn wire.RealNameView
		a.get("/api/vue/user/realname").data(t, &rn)
		h.catchUp()

		b := h.register("0987654321")
		b.setFundPassword()
		secrets := []string{proof, card, dep.OrderNo, w.OrderNo, q.QuoteId, rn.FrontFileId, "A12****789", "9012"}
		noData := func(ans answer) {
			t.Helper()
			for _, s := range secrets {
				if bytes.Contains(ans.Data, []byte(s)) {
					t.Fatalf("answer %s shows %q of another member", ans.Data, s)
				}
			}
		}
		for _, c := range []struct {
			name string
			send func() answer
			msg  string
		}{
			{"file", func() answer { return b.get("/api/vue/files/" + proof) }, "file_not_found"},
			{"id photo", func() answer { return b.get("/api/vue/files/" + rn.FrontFileId) }, "file_not_found"},
			{"unbind card", func() answer {
				return b.raw("DELETE", "/api/vue/user/cards/"+card, "", nil, "Idempotency-Key", newUUID())
			}, "card_not_found"},
			{"withdraw to card", func() answer { return b.withdraw("100", card, "123456") }, "card_not_found"},
			{"exchange at quote", func() answer { return b.post("/api/vue/funds/exchange", map[string]string{"quoteId": q.QuoteId}) }, "exchange_quote_not_found"},
			{"deposit with proof", func() answer {
				return b.post("/api/vue/funds/deposits", map[string]string{"channelId": "bank", "amount": "1000", "proofFileId": proof, "channelPassword": "8888"})
			}, "file_not_found"},
			{"verification with photos", func() answer {
				return b.post("/api/vue/user/realname", map[string]string{"name": "王小明", "idNumber": "B200000004", "frontFileId": rn.FrontFileId, "backFileId": rn.BackFileId})
			}, "file_not_found"},
		} {
			t.Run(c.name, func(t *testing.T) {
				var ans answer
				h.unchanged(func() { ans = c.send() })
				want(t, ans, 404, c.msg)
				noData(ans)
			})
		}
		for _, path := range []string{"/api/vue/funds/records?type=all", "/api/vue/user/cards", "/api/vue/user/realname", "/api/vue/funds/balances", "/api/vue/user/info"} {
			ans := b.get(path)
			want(t, ans, 200, "ok")
			noData(ans)
		}

		// A member on ops and auditor routes.
		opsRoutes := []struct{ method, path string }{
			{"GET", "/api/vue/ops/deposits"}, {"POST", "/api/vue/ops/deposits/" + dep.OrderNo + "/approve"},
			{"POST", "/api/vue/ops/deposits/" + dep.OrderNo + "/reject"}, {"GET", "/api/vue/ops/members"},
			{"POST", "/api/vue/ops/members/" + a.account + "/flags"}, {"GET", "/api/vue/ops/realname"},
			{"POST", "/api/vue/ops/realname/" + a.account + "/approve"}, {"POST", "/api/vue/ops/realname/" + a.account + "/reject"},
			{"GET", "/api/vue/ops/withdrawals"}, {"POST", "/api/vue/ops/withdrawals/" + w.OrderNo + "/approve"},
			{"POST", "/api/vue/ops/withdrawals/" + w.OrderNo + "/reject"}, {"GET", "/api/vue/audit/accounts/" + a.account + "/timeline"},
		}
		for _, r := range opsRoutes {
			for _, c := range []*client{a, b} {
				var ans answer
				h.unchanged(func() {
					ans = c.raw(r.method, r.path, "application/json", []byte(`{"remark":"x"}`), "Idempotency-Key", newUUID())
				})
				if ans.code != http.StatusForbidden || ans.Msg != "forbidden" {
					t.Fatalf("member on %s %s: %s", r.method, r.path, ans)
				}
				noData(ans)
			}
		}
		// Staff on member routes.
		for _, path := range []string{"/api/vue/user/realname", "/api/vue/user/cards", "/api/vue/funds/balances"} {
			want(t, h.ops.get(path), 403, "forbidden")
		}

		// After logout, and after a password change, the old tokens answer 401 everywhere.
		memberRoutes := []struct{ method, path string }{
			{"GET", "/api/vue/user/info"}, {"GET", "/api/vue/user/realname"}, {"GET", "/api/vue/user/cards"},
			{"GET", "/api/vue/funds/balances"}, {"GET", "/api/vue/funds/records"}, {"GET", "/api/vue/user/creditRule"},
			{"POST", "/api/vue/funds/withdrawals"}, {"POST", "/api/vue/funds/exchange/quote"}, {"POST", "/api/vue/user/cards"},
			{"DELETE", "/api/vue/user/cards/" + card}, {"GET", "/api/vue/files/" + proof},
		}
		want(t, a.raw("POST", "/api/vue/user/logout", "", nil), 200, "ok")
		want(t, b.post("/api/vue/user/password", map[string]string{"oldPassword": "secret123", "newPassword": "secret456", "confirmPassword": "secret456"}), 200, "password_changed")
		for _, c := range []*client{a, b} {
			for _, r := range memberRoutes {
				var ans answer
				h.unchanged(func() { ans = c.raw(r.method, r.path, "application/json", []byte(`{}`), "Idempotency-Key", newUUID()) })
				if ans.code != http.StatusUnauthorized || ans.Msg != "unauthorized" {
					t.Fatalf("%s's old token on %s %s: %s", c.account, r.method, r.path, ans)
				}
			}
		}
		// The new sessions work.
		want(t, h.login(a.account, "secret123").get("/api/vue/user/cards"), 200, "ok")
		want(t, h.login(b.account, "secret456").get("/api/vue/user/info"), 200, "ok")
	})
}
