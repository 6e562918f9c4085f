package api

import (
	"bytes"
	"fmt"
	"github.com/lotbook/lotbook/api/testimage"
	"mime/multipart"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/google/uuid"

	"github.com/lotbook/lotbook/api/wire"
)

// deposit asks for a deposit through the bank channel and returns the order number.
func (c *client) deposit(amount, proof string) wire.OrderResult {
	c.h.t.Helper()
	a := c.post("/api/vue/funds/deposits", map[string]string{
		"channelId": "bank", "amount": amount, "proofFileId": proof, "channelPassword": "8888",
	})
	want(c.h.t, a, 200, "ok")
	var o wire.OrderResult
	a.data(c.h.t, &o)
	return o
}

func (c *client) info(pos int64) wire.UserInfo {
	c.h.t.Helper()
	a := c.get("/api/vue/user/info", "Lotbook-Position", strconv.FormatInt(pos, 10))
	want(c.h.t, a, 200, "ok")
	var u wire.UserInfo
	a.data(c.h.t, &u)
	return u
}

func TestJourney(t *testing.T) {
	forEachBackend(t, func(t *testing.T, h *harness) {
		m := h.register("0912345678")

		u := m.info(0)
		if u.Account != "0912345678" || u.Role != wire.Member || u.RealNameStatus != wire.RealNameStatusUnverified ||
			u.FundPasswordSet || len(u.Flags) != 0 || u.InviteCode == "" {
			t.Fatalf("new member %+v", u)
		}
		if u.Assets != (wire.Assets{Total: "0.00", Available: "0.00", Frozen: "0.00", Profit: "0.00", Usd: "0.00"}) {
			t.Fatalf("new member's assets %+v", u.Assets)
		}

		var chans []wire.DepositChannel
		m.get("/api/vue/funds/channels").data(t, &chans)
		open := map[string]bool{}
		for _, c := range chans {
			open[c.Id] = c.OpenNow
		}
		if !open["bank"] || open["night"] || len(chans) != 2 {
			t.Fatalf("channels %+v", chans)
		}

		proof := m.photo()
		order := m.deposit("5000", proof)
		if order.Status != wire.ReviewStatusPending || order.OrderNo == "" || order.Position <= 0 {
			t.Fatalf("deposit answer %+v", order)
		}

		// The queue shows it at once to a reader that sends the position it saw.
		a := h.ops.get("/api/vue/ops/deposits?status=pending", "Lotbook-Position", strconv.FormatInt(order.Position, 10))
		want(t, a, 200, "ok")
		var queue wire.OpsDepositPage
		a.data(t, &queue)
		if len(queue.Items) != 1 || queue.Items[0].OrderNo != order.OrderNo || queue.Items[0].Account != m.account ||
			queue.Items[0].Amount != "5000.00" || queue.Items[0].ProofFileId != proof {
			t.Fatalf("queue %+v", queue)
		}
		if a := h.ops.raw("GET", "/api/vue/files/"+proof, "", nil); a.code != 200 {
			t.Fatalf("ops cannot see the proof: %d", a.code)
		}

		a = h.ops.post("/api/vue/ops/deposits/"+order.OrderNo+"/approve", map[string]string{"remark": "matched bank statement"})
		want(t, a, 200, "ok")
		var approved wire.OrderResult
		a.data(t, &approved)
		if approved.Status != wire.ReviewStatusApproved || approved.Position <= order.Position {
			t.Fatalf("approve answer %+v", approved)
		}

		u = m.info(approved.Position)
		if u.Assets.Available != "5000.00" || u.Assets.Total != "5000.00" || u.Assets.Frozen != "0.00" {
			t.Fatalf("assets after approval %+v", u.Assets)
		}

		var recs wire.FundRecordPage
		m.get("/api/vue/funds/records?type=deposit", "Lotbook-Position", strconv.FormatInt(approved.Position, 10)).data(t, &recs)
		if len(recs.Items) != 1 || recs.Items[0].Status != wire.FundRecordStatusApproved || recs.Items[0].Amount != "5000.00" ||
			recs.Items[0].Remark != "matched bank statement" || recs.Items[0].ChannelName != "Bank transfer" || recs.HasMore {
			t.Fatalf("records %+v", recs)
		}
		m.get("/api/vue/funds/records?type=withdraw").data(t, &recs)
		if len(recs.Items) != 0 {
			t.Fatalf("withdraw records %+v", recs)
		}

		a = h.aud.get("/api/vue/audit/accounts/" + m.account + "/timeline")
		want(t, a, 200, "ok")
		var tl wire.Timeline
		a.data(t, &tl)
		last := tl.Items[len(tl.Items)-1]
		if last.Type != "DepositApproved.v1" || last.Balances["TWD"].Available != "5000.00" ||
			!strings.HasPrefix(last.Actor, "ops:") || len(last.Postings) != 2 {
			t.Fatalf("timeline's last event %+v", last)
		}
		if bytes.Contains(a.Data, []byte("passwordHash")) || bytes.Contains(a.Data, []byte("tokenHash")) {
			t.Fatal("timeline leaks secrets")
		}

		// Owner sees the proof; another member does not, and cannot tell it exists.
		img := m.raw("GET", "/api/vue/files/"+proof, "", nil)
		if img.code != 200 {
			t.Fatalf("owner's proof: %d", img.code)
		}
		other := h.register("0987654321")
		want(t, other.get("/api/vue/files/"+proof), 404, "file_not_found")

		want(t, m.raw("POST", "/api/vue/user/logout", "", nil), 200, "ok")
		want(t, m.get("/api/vue/user/info"), 401, "unauthorized")
	})
}

func TestFileServedSafely(t *testing.T) {
	h := newHarness(t, testDB{kind: "sqlite"}, RateLimits{})
	m := h.register("0912345678")
	id := m.photo()
	req, _ := http.NewRequest("GET", h.srv.URL+"/api/vue/files/"+id, nil)
	req.Header.Set("token", m.token)
	req.Header.Set("account", m.account)
	resp, err := h.srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	for k, v := range map[string]string{"Content-Type": "image/png", "X-Content-Type-Options": "nosniff", "Cache-Control": "private, no-store"} {
		if got := resp.Header.Get(k); got != v {
			t.Errorf("%s: %q, want %q", k, got, v)
		}
	}
	want(t, m.get("/api/vue/files/"+strings.Repeat("0", 64)), 404, "file_not_found")
	want(t, m.get("/api/vue/files/..%2f..%2fetc%2fpasswd"), 404, "not_found")
}

func TestConcurrentDoubleApproveCreditsOnce(t *testing.T) {
	forEachBackend(t, func(t *testing.T, h *harness) {
		m := h.register("0912345678")
		order := m.deposit("2000", m.photo())
		ops2 := h.login("ops", "opsdemo1")
		var wg sync.WaitGroup
		answers := make([]answer, 8)
		for i := range answers {
			wg.Add(1)
			go func(i int) {
				defer wg.Done()
				c := h.ops
				if i%2 == 1 {
					c = ops2
				}
				answers[i] = c.post("/api/vue/ops/deposits/"+order.OrderNo+"/approve", map[string]string{})
			}(i)
		}
		wg.Wait()
		oks := 0
		var last int64
		for _, a := range answers {
			switch {
			case a.code == 200:
				oks++
				var o wire.OrderResult
				a.data(t, &o)
				last = max(last, o.Position)
			case a.code == 422 && a.Msg == "order_not_pending":
			default:
				t.Fatalf("approve answered %s", a)
			}
		}
		if oks != 1 {
			t.Fatalf("%d approvals succeeded, want 1", oks)
		}
		if u := m.info(last); u.Assets.Available != "2000.00" {
			t.Fatalf("available %s after double approve, want 2000.00", u.Assets.Available)
		}
	})
}

func TestIdempotentRetry(t *testing.T) {
	forEachBackend(t, func(t *testing.T, h *harness) {
		m := h.register("0912345678")
		proof := m.photo()
		key := uuid.NewString()
		body := map[string]string{"channelId": "bank", "amount": "3000", "proofFileId": proof, "channelPassword": "8888"}
		first := m.postKey("/api/vue/funds/deposits", key, body)
		want(t, first, 200, "ok")
		h.unchanged(func() {
			again := m.postKey("/api/vue/funds/deposits", key, body)
			want(t, again, 200, "ok")
			if !bytes.Equal(again.Data, first.Data) || again.header.Get("Idempotent-Replayed") != "true" {
				t.Fatalf("retry answered %s, first %s", again.Data, first.Data)
			}
		})
		h.unchanged(func() {
			body["amount"] = "4000"
			want(t, m.postKey("/api/vue/funds/deposits", key, body), 409, "idempotency_key_reused")
		})
		// Another user's key is not theirs to replay.
		other := h.register("0987654321")
		h.unchanged(func() {
			want(t, other.postKey("/api/vue/funds/deposits", key, body), 409, "idempotency_key_reused")
		})

		// Concurrent duplicates: one applies, every answer is the same.
		key2 := uuid.NewString()
		body2 := map[string]string{"channelId": "bank", "amount": "1500", "proofFileId": m.photo(), "channelPassword": "8888"}
		var wg sync.WaitGroup
		answers := make([]answer, 6)
		for i := range answers {
			wg.Add(1)
			go func(i int) {
				defer wg.Done()
				answers[i] = m.postKey("/api/vue/funds/deposits", key2, body2)
			}(i)
		}
		wg.Wait()
		for _, a := range answers {
			want(t, a, 200, "ok")
			if !bytes.Equal(a.Data, answers[0].Data) {
				t.Fatalf("duplicates answered differently: %s vs %s", a.Data, answers[0].Data)
			}
		}
		var recs wire.FundRecordPage
		h.catchUp()
		m.get("/api/vue/funds/records").data(t, &recs)
		if len(recs.Items) != 2 {
			t.Fatalf("%d deposit records, want 2: %+v", len(recs.Items), recs.Items)
		}

		// Approving twice with the same key: one credit, the same answer.
		var o wire.OrderResult
		first.data(t, &o)
		akey := uuid.NewString()
		a1 := h.ops.postKey("/api/vue/ops/deposits/"+o.OrderNo+"/approve", akey, map[string]string{})
		want(t, a1, 200, "ok")
		h.unchanged(func() {
			a2 := h.ops.postKey("/api/vue/ops/deposits/"+o.OrderNo+"/approve", akey, map[string]string{})
			want(t, a2, 200, "ok")
			if !bytes.Equal(a1.Data, a2.Data) {
				t.Fatalf("approve retry %s vs %s", a2.Data, a1.Data)
			}
		})
		var ao wire.OrderResult
		a1.data(t, &ao)
		if u := m.info(ao.Position); u.Assets.Available != "3000.00" {
			t.Fatalf("available %s", u.Assets.Available)
		}
	})
}

func TestIdempotencyKeyRules(t *testing.T) {
	h := newHarness(t, testDB{kind: "sqlite"}, RateLimits{})
	m := h.register("0912345678")
	body := []byte(`{"oldPassword":"secret123","newPassword":"secret456","confirmPassword":"secret456"}`)
	h.unchanged(func() {
		want(t, m.raw("POST", "/api/vue/user/password", "application/json", body), 400, "idempotency_key_required")
		want(t, m.raw("POST", "/api/vue/user/password", "application/json", body, "Idempotency-Key", "not-a-uuid"), 400, "invalid_request")
		want(t, m.raw("POST", "/api/vue/files", "application/json", body), 400, "idempotency_key_required")
	})
	// Optional on login and register.
	want(t, h.anon().raw("POST", "/api/vue/user/login", "application/json", []byte(`{"account":"0912345678","password":"secret123"}`)), 200, "ok")
}

func TestLotbookPositionHeader(t *testing.T) {
	h := newHarness(t, testDB{kind: "sqlite"}, RateLimits{})
	m := h.register("0912345678")
	for _, bad := range []string{"x", "-1", "1.5"} {
		want(t, m.get("/api/vue/user/info", "Lotbook-Position", bad), 400, "invalid_request")
	}
	a := m.get("/api/vue/user/info", "Lotbook-Position", fmt.Sprint(h.head()))
	want(t, a, 200, "ok")
	if p, _ := strconv.ParseInt(a.header.Get("Lotbook-Position"), 10, 64); p < h.head() {
		t.Fatalf("answer at position %d, head %d", p, h.head())
	}
}

func TestUploadRetryReplays(t *testing.T) {
	h := newHarness(t, testDB{kind: "sqlite"}, RateLimits{})
	m := h.register("0912345678")
	key := uuid.NewString()
	send := func(img []byte) answer {
		var b bytes.Buffer
		mw := multipart.NewWriter(&b) // a new boundary each time, as a browser retry makes
		fw, _ := mw.CreateFormFile("file", "proof.png")
		_, _ = fw.Write(img)
		_ = mw.Close()
		return m.raw("POST", "/api/vue/files", mw.FormDataContentType(), b.Bytes(), "Idempotency-Key", key)
	}
	img := testimage.GradientPNG(12, 12)
	first := send(img)
	want(t, first, 200, "ok")
	h.unchanged(func() {
		again := send(img)
		want(t, again, 200, "ok")
		if !bytes.Equal(again.Data, first.Data) {
			t.Fatalf("retry answered %s, first %s", again.Data, first.Data)
		}
		want(t, send(testimage.GradientPNG(13, 13)), 409, "idempotency_key_reused")
	})
}
