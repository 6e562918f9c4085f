package api

import (
	"bytes"
	"fmt"
	"github.com/lotbook/lotbook/api/testimage"
	"io"
	"mime/multipart"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
)

func TestRegistrationRules(t *testing.T) {
	forEachBackend(t, func(t *testing.T, h *harness) {
		h.register("0912345678")
		form := func(account, pw, confirm, invite string) map[string]string {
			return map[string]string{"account": account, "password": pw, "confirmPassword": confirm, "inviteCode": invite}
		}
		cases := []struct {
			name string
			body map[string]string
			code int
			msg  string
		}{
			{"account empty", form("", "secret123", "secret123", "LOTBOOK"), 400, "account_required"},
			{"password empty", form("0911111111", "", "secret123", "LOTBOOK"), 400, "password_required"},
			{"confirmation empty", form("0911111111", "secret123", "", "LOTBOOK"), 400, "confirm_password_required"},
			{"invite empty", form("0911111111", "secret123", "secret123", ""), 400, "invite_code_required"},
			{"passwords differ", form("0911111111", "secret123", "secret124", "LOTBOOK"), 400, "passwords_inconsistent"},
			{"account not a phone", form("12345", "secret123", "secret123", "LOTBOOK"), 400, "account_invalid"},
			{"account with letters", form("09abcdefgh", "secret123", "secret123", "LOTBOOK"), 400, "account_invalid"},
			{"bad ID check digit", form("A123456788", "secret123", "secret123", "LOTBOOK"), 400, "account_invalid"},
			{"password too short", form("0911111111", "abc123", "abc123", "LOTBOOK"), 400, "password_invalid"},
			{"password with symbols", form("0911111111", "secret12!", "secret12!", "LOTBOOK"), 400, "password_invalid"},
			{"account exists", form("0912345678", "secret123", "secret123", "LOTBOOK"), 422, "account_exists"},
			{"unknown invite", form("0911111111", "secret123", "secret123", "NOPE42"), 422, "inviter_not_exist"},
		}
		for _, tc := range cases {
			h.unchanged(func() {
				a := h.anon().post("/api/vue/user/register", tc.body)
				if a.code != tc.code || a.Msg != tc.msg {
					t.Errorf("%s: got %s, want %d %s", tc.name, a, tc.code, tc.msg)
				}
			})
		}
		// A Taiwan ID number with a valid check digit registers.
		h.register("A123456789")
	})
}

func TestLoginAndPasswords(t *testing.T) {
	forEachBackend(t, func(t *testing.T, h *harness) {
		m := h.register("0912345678")
		login := func(account, pw string) answer {
			return h.anon().post("/api/vue/user/login", map[string]string{"account": account, "password": pw})
		}
		h.unchanged(func() {
			want(t, login("0912345678", "wrongpass1"), 422, "account_or_password_wrong")
			want(t, login("0900000000", "secret123"), 422, "account_or_password_wrong")
			want(t, login("", "secret123"), 400, "account_required")
			want(t, login("0912345678", ""), 400, "password_required")
		})

		// Change of login password: wrong old, mismatch, then success ends every session.
		second := h.login("0912345678", "secret123")
		pw := func(c *client, old, nw, confirm string) answer {
			return c.post("/api/vue/user/password", map[string]string{"oldPassword": old, "newPassword": nw, "confirmPassword": confirm})
		}
		h.unchanged(func() {
			want(t, pw(m, "", "secret456", "secret456"), 400, "old_password_required")
			want(t, pw(m, "wrongpass1", "secret456", "secret456"), 422, "old_password_wrong")
			want(t, pw(m, "secret123", "secret456", "secret457"), 400, "passwords_inconsistent")
			want(t, pw(m, "secret123", "short", "short"), 400, "password_invalid")
		})
		want(t, pw(m, "secret123", "secret456", "secret456"), 200, "password_changed")
		h.catchUp()
		want(t, m.get("/api/vue/user/info"), 401, "unauthorized")
		want(t, second.get("/api/vue/user/info"), 401, "unauthorized")
		want(t, login("0912345678", "secret123"), 422, "account_or_password_wrong")
		m = h.login("0912345678", "secret456")

		// Fund password: set once (6 digits, login password checked), then change.
		fund := func(loginPw, fp, confirm string) answer {
			return m.post("/api/vue/user/fundPassword", map[string]string{"loginPassword": loginPw, "fundPassword": fp, "confirmFundPassword": confirm})
		}
		change := func(old, fp, confirm string) answer {
			return m.post("/api/vue/user/fundPassword/change", map[string]string{"oldFundPassword": old, "fundPassword": fp, "confirmFundPassword": confirm})
		}
		h.unchanged(func() {
			want(t, change("123456", "654321", "654321"), 422, "fund_password_not_set")
			want(t, fund("secret456", "", ""), 400, "fund_password_required")
			want(t, fund("secret456", "12345a", "12345a"), 400, "fund_password_invalid")
			want(t, fund("secret456", "1234567", "1234567"), 400, "fund_password_invalid")
			want(t, fund("secret456", "123456", "123457"), 400, "passwords_inconsistent")
		})
		a := fund("secret456", "123456", "123456")
		want(t, a, 200, "ok")
		h.unchanged(func() {
			want(t, fund("secret456", "123456", "123456"), 422, "fund_password_already_set")
		})
		want(t, change("123456", "654321", "654321"), 200, "ok")
		if u := m.info(h.head()); !u.FundPasswordSet {
			t.Fatal("fund password not shown as set")
		}
	})
}

func TestDepositRules(t *testing.T) {
	forEachBackend(t, func(t *testing.T, h *harness) {
		m := h.register("0912345678")
		proof := m.photo()
		other := h.register("0987654321")
		othersProof := other.upload("x.jpg", testimage.GradientJPEG(10, 10))
		want(t, othersProof, 200, "ok")
		var of struct{ Id string }
		othersProof.data(t, &of)
		dep := func(ch, amount, proof, pw string) map[string]string {
			return map[string]string{"channelId": ch, "amount": amount, "proofFileId": proof, "channelPassword": pw}
		}
		cases := []struct {
			name string
			body map[string]string
			code int
			msg  string
		}{
			{"amount empty", dep("bank", "", proof, "8888"), 400, "amount_required"},
			{"amount zero", dep("bank", "0", proof, "8888"), 400, "amount_invalid"},
			{"amount negative", dep("bank", "-1000", proof, "8888"), 400, "amount_invalid"},
			{"amount NaN", dep("bank", "NaN", proof, "8888"), 400, "amount_invalid"},
			{"amount Infinity", dep("bank", "Infinity", proof, "8888"), 400, "amount_invalid"},
			{"amount exponent", dep("bank", "1e4", proof, "8888"), 400, "amount_invalid"},
			{"amount hex", dep("bank", "0x1000", proof, "8888"), 400, "amount_invalid"},
			{"amount too precise", dep("bank", "1000.001", proof, "8888"), 400, "amount_invalid"},
			{"amount with spaces", dep("bank", " 1000", proof, "8888"), 400, "amount_invalid"},
			{"amount with comma", dep("bank", "1,000", proof, "8888"), 400, "amount_invalid"},
			{"amount below minimum", dep("bank", "999.99", proof, "8888"), 422, "amount_below_minimum"},
			{"amount above maximum", dep("bank", "1000000.01", proof, "8888"), 422, "amount_above_maximum"},
			{"unknown channel", dep("nope", "1000", proof, "8888"), 404, "channel_not_found"},
			{"wrong channel password", dep("bank", "1000", proof, "1234"), 422, "channel_password_wrong"},
			{"no proof", dep("bank", "1000", "", "8888"), 400, "deposit_proof_required"},
			{"someone else's proof", dep("bank", "1000", of.Id, "8888"), 404, "file_not_found"},
			{"made-up proof", dep("bank", "1000", strings.Repeat("a", 64), "8888"), 404, "file_not_found"},
			{"window closed", dep("night", "1000", proof, "8888"), 422, "deposit_window_closed"},
			{"channel switched off", dep("off", "1000", proof, "8888"), 422, "channel_closed"},
		}
		for _, tc := range cases {
			h.unchanged(func() {
				a := m.post("/api/vue/funds/deposits", tc.body)
				if a.code != tc.code || a.Msg != tc.msg {
					t.Errorf("%s: got %s, want %d %s", tc.name, a, tc.code, tc.msg)
				}
			})
		}
		// At the edges: the minimum and the maximum are accepted.
		m.deposit("1000", m.photo())
		m.deposit("1000000.00", m.photo())

		// Review rules.
		order := m.deposit("1500", m.photo())
		h.unchanged(func() {
			want(t, h.ops.post("/api/vue/ops/deposits/NOPE/approve", map[string]string{}), 404, "order_not_found")
			want(t, h.ops.post("/api/vue/ops/deposits/"+order.OrderNo+"/reject", map[string]string{"remark": ""}), 400, "remark_required")
			want(t, h.ops.post("/api/vue/ops/deposits/"+order.OrderNo+"/reject", map[string]string{}), 400, "invalid_request")
		})
		a := h.ops.post("/api/vue/ops/deposits/"+order.OrderNo+"/reject", map[string]string{"remark": "no such transfer"})
		want(t, a, 200, "ok")
		h.unchanged(func() {
			want(t, h.ops.post("/api/vue/ops/deposits/"+order.OrderNo+"/approve", map[string]string{}), 422, "order_not_pending")
		})
		if u := m.info(h.head()); u.Assets.Available != "0.00" {
			t.Fatalf("a rejected deposit moved money: %+v", u.Assets)
		}

		// Holidays and after hours close the bank channel.
		h.clock.Advance(10 * time.Hour) // 20:00 in Taipei
		h.unchanged(func() {
			want(t, m.post("/api/vue/funds/deposits", dep("bank", "1000", proof, "8888")), 422, "deposit_window_closed")
		})
	})
}

// TestOpsCannotFlagStaff: no flag on an ops or auditor account through the API, whatever the
// spelling of the account; the staff keep working.
func TestOpsCannotFlagStaff(t *testing.T) {
	forEachBackend(t, func(t *testing.T, h *harness) {
		h.unchanged(func() {
			for _, account := range []string{"ops", "audit"} {
				for _, f := range []string{"frozen", "login_banned", "trade_banned", "withdrawal_banned", "disabled"} {
					a := h.ops.post("/api/vue/ops/members/"+account+"/flags", map[string]any{"flag": f, "on": true, "reason": "takeover"})
					want(t, a, 403, "staff_account_protected")
				}
			}
		})
		h.catchUp()
		want(t, h.ops.get("/api/vue/ops/deposits"), 200, "ok")
		want(t, h.aud.get("/api/vue/audit/accounts/ops/timeline"), 200, "ok")
	})
}

func TestAccountFlags(t *testing.T) {
	forEachBackend(t, func(t *testing.T, h *harness) {
		m := h.register("0912345678")
		proof := m.photo()
		flag := func(flag string, on bool) answer {
			return h.ops.post("/api/vue/ops/members/0912345678/flags", map[string]any{"flag": flag, "on": on, "reason": "test"})
		}
		login := func() answer {
			return h.anon().post("/api/vue/user/login", map[string]string{"account": "0912345678", "password": "secret123"})
		}
		h.unchanged(func() {
			want(t, flag("bogus", true), 400, "flag_invalid")
			want(t, h.ops.post("/api/vue/ops/members/0900000000/flags", map[string]any{"flag": "frozen", "on": true, "reason": "x"}), 404, "account_not_exist")
			want(t, m.post("/api/vue/ops/members/0912345678/flags", map[string]any{"flag": "frozen", "on": true, "reason": "x"}), 403, "forbidden")
		})

		want(t, flag("frozen", true), 200, "ok")
		h.catchUp()
		want(t, login(), 403, "account_frozen")
		h.unchanged(func() {
			want(t, m.post("/api/vue/funds/deposits", map[string]string{"channelId": "bank", "amount": "1000", "proofFileId": proof, "channelPassword": "8888"}), 403, "account_frozen")
		})
		want(t, flag("frozen", false), 200, "ok")

		want(t, flag("login_banned", true), 200, "ok")
		want(t, login(), 403, "login_banned")
		want(t, flag("login_banned", false), 200, "ok")

		for _, f := range []string{"trade_banned", "withdrawal_banned"} {
			a := flag(f, true)
			want(t, a, 200, "ok")
			var res struct {
				Account  string
				Flags    []string
				Position int64
			}
			a.data(t, &res)
			if len(res.Flags) != 1 || res.Flags[0] != f {
				t.Fatalf("flags after %s: %v", f, res.Flags)
			}
			if u := m.info(res.Position); len(u.Flags) != 1 || string(u.Flags[0]) != f {
				t.Fatalf("info flags %v, want [%s]", u.Flags, f)
			}
			want(t, flag(f, false), 200, "ok")
		}

		a := flag("disabled", true)
		want(t, a, 200, "ok")
		h.catchUp()
		want(t, m.get("/api/vue/user/info"), 403, "account_disabled")
		want(t, m.get("/api/vue/funds/channels"), 403, "account_disabled")
		want(t, login(), 403, "account_disabled")
		want(t, flag("disabled", false), 200, "ok")
		h.catchUp()
		want(t, m.get("/api/vue/user/info"), 200, "ok")

		var page struct {
			Items []struct {
				Account string
				Flags   []string
			}
			Page    int
			HasMore bool
		}
		a = h.ops.get("/api/vue/ops/members?q=0912")
		want(t, a, 200, "ok")
		json := string(a.Data)
		if !strings.Contains(json, "0912345678") {
			t.Fatalf("member search: %s", json)
		}
		_ = page
	})
}

func TestAuthAndRoles(t *testing.T) {
	h := newHarness(t, testDB{kind: "sqlite"}, RateLimits{})
	m := h.register("0912345678")
	anon := h.anon()
	want(t, anon.get("/api/vue/user/info"), 401, "unauthorized")
	forged := &client{h: h, token: "not-a-token", account: "0912345678"}
	want(t, forged.get("/api/vue/user/info"), 401, "unauthorized")
	wrongAccount := &client{h: h, token: m.token, account: "0987654321"}
	want(t, wrongAccount.get("/api/vue/user/info"), 401, "unauthorized")

	want(t, m.get("/api/vue/ops/deposits"), 403, "forbidden")
	want(t, m.get("/api/vue/ops/members"), 403, "forbidden")
	want(t, m.get("/api/vue/audit/accounts/0912345678/timeline"), 403, "forbidden")
	want(t, h.ops.get("/api/vue/audit/accounts/0912345678/timeline"), 403, "forbidden")
	want(t, h.aud.get("/api/vue/ops/deposits"), 403, "forbidden")
	want(t, h.ops.get("/api/vue/funds/records"), 403, "forbidden")
	want(t, h.aud.get("/api/vue/audit/accounts/0900000000/timeline"), 404, "account_not_exist")

	for _, q := range []string{"?status=bogus", "?page=0", "?page=x", "?size=101", "?size=0"} {
		want(t, h.ops.get("/api/vue/ops/deposits"+q), 400, "invalid_request")
	}
	want(t, m.get("/api/vue/funds/records?type=bogus"), 400, "invalid_request")

	// Sessions expire (7 days).
	h.clock.Advance(7*24*time.Hour + time.Minute)
	want(t, m.get("/api/vue/user/info"), 401, "unauthorized")
}

func TestBadInput(t *testing.T) {
	forEachBackend(t, func(t *testing.T, h *harness) {
		m := h.register("0912345678")
		proof := m.photo()
		post := func(path, body string) answer {
			return m.raw("POST", path, "application/json", []byte(body), "Idempotency-Key", uuid.NewString())
		}
		good := fmt.Sprintf(`{"channelId":"bank","amount":"1000","proofFileId":%q,"channelPassword":"8888"}`, proof)
		bodies := map[string]string{
			"malformed":        `{"channelId":"bank",`,
			"not an object":    `["bank"]`,
			"amount as number": strings.Replace(good, `"1000"`, `1000`, 1),
			"amount exponent":  strings.Replace(good, `"1000"`, `1e3`, 1),
			"amount NaN bare":  strings.Replace(good, `"1000"`, `NaN`, 1),
			"amount null":      strings.Replace(good, `"1000"`, `null`, 1),
			"missing field":    strings.Replace(good, `"channelPassword":"8888"`, `"x":1`, 1),
			"unknown field":    strings.Replace(good, `}`, `,"admin":true}`, 1),
			"wrong case":       strings.Replace(good, `"channelId"`, `"ChannelId"`, 1),
			"two objects":      good + good,
			"trailing garbage": good + "]",
			"huge":             `{"channelId":"` + strings.Repeat("a", 70<<10) + `"}`,
			"empty":            ``,
		}
		for name, body := range bodies {
			h.unchanged(func() {
				a := post("/api/vue/funds/deposits", body)
				if a.code != 400 || a.Msg != "invalid_request" {
					t.Errorf("%s: got %s, want 400 invalid_request", name, a)
				}
			})
		}
		h.unchanged(func() {
			want(t, post("/api/vue/user/fundPassword", `{"loginPassword":"secret123","fundPassword":123456,"confirmFundPassword":"123456"}`), 400, "invalid_request")
			want(t, post("/api/vue/ops/members/x/flags", `{}`), 403, "forbidden")
			want(t, h.ops.raw("POST", "/api/vue/ops/members/0912345678/flags", "application/json", []byte(`{"flag":"frozen","on":"yes","reason":"x"}`), "Idempotency-Key", uuid.NewString()), 400, "invalid_request")
			want(t, h.anon().raw("POST", "/api/vue/common/config", "application/json", []byte(`{"type":"some"}`)), 400, "invalid_request")
			want(t, h.anon().raw("POST", "/api/vue/user/login", "application/json", []byte(`{"account":"0912345678"}`)), 400, "invalid_request")
		})
	})
}

func TestUploadRules(t *testing.T) {
	forEachBackend(t, func(t *testing.T, h *harness) {
		m := h.register("0912345678")
		h.unchanged(func() {
			want(t, m.upload("proof.png", []byte("GIF89a not really")), 415, "file_type_invalid")
			want(t, m.upload("proof.png", []byte("<svg onload=alert(1)>")), 415, "file_type_invalid")
			want(t, m.upload("proof.jpg", append([]byte{0xFF, 0xD8, 0xFF}, bytes.Repeat([]byte{0}, 100)...)), 415, "file_type_invalid")
			want(t, m.upload("big.png", append(testimage.GradientPNG(8, 8), bytes.Repeat([]byte{0}, 6<<20)...)), 413, "file_too_large")
			want(t, m.upload("bomb.png", testimage.PNGClaiming(60000, 60000)), 422, "image_too_large")
			want(t, m.upload("empty.png", nil), 400, "file_required")

			var b bytes.Buffer
			mw := multipart.NewWriter(&b)
			fw, _ := mw.CreateFormFile("other", "a.png")
			_, _ = fw.Write(testimage.GradientPNG(4, 4))
			_ = mw.Close()
			want(t, m.raw("POST", "/api/vue/files", mw.FormDataContentType(), b.Bytes(), "Idempotency-Key", uuid.NewString()), 400, "file_required")
			want(t, m.raw("POST", "/api/vue/files", "application/json", []byte(`{}`), "Idempotency-Key", uuid.NewString()), 400, "invalid_request")
			want(t, h.anon().upload("a.png", testimage.GradientPNG(4, 4)), 401, "unauthorized")
		})
		for _, img := range [][]byte{testimage.GradientPNG(16, 16), testimage.GradientJPEG(16, 16), testimage.WebP()} {
			want(t, m.upload("x", img), 200, "ok")
		}
	})
}

func TestRateLimits(t *testing.T) {
	h := newHarness(t, testDB{kind: "sqlite"}, RateLimits{LoginPerAccount: 3, LoginPerIP: 100, RegisterPerIP: 2})
	login := func(pw string) answer {
		return h.anon().post("/api/vue/user/login", map[string]string{"account": "ops", "password": pw})
	}
	// The harness logged ops in once already.
	want(t, login("wrongpass1"), 422, "account_or_password_wrong")
	want(t, login("opsdemo1"), 200, "ok")
	a := login("opsdemo1")
	want(t, a, 429, "rate_limited")
	if ra := a.header.Get("Retry-After"); ra == "" || ra == "0" {
		t.Fatalf("Retry-After %q", ra)
	}
	h.clock.Advance(time.Minute)
	want(t, login("opsdemo1"), 200, "ok")

	reg := func(account string) answer {
		return h.anon().post("/api/vue/user/register", map[string]string{"account": account, "password": "secret123", "confirmPassword": "secret123", "inviteCode": "LOTBOOK"})
	}
	want(t, reg("0911000001"), 200, "ok")
	want(t, reg("0911000002"), 200, "ok")
	h.unchanged(func() { want(t, reg("0911000003"), 429, "rate_limited") })
	// account_exists tells that an account exists: past the limit it is not answered either.
	h.unchanged(func() { want(t, reg("0911000001"), 429, "rate_limited") })
}

func TestPlainEndpointsAndStatic(t *testing.T) {
	h := newHarness(t, testDB{kind: "sqlite"}, RateLimits{})
	get := func(path string) (int, string, string) {
		resp, err := h.srv.Client().Get(h.srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var b bytes.Buffer
		_, _ = b.ReadFrom(resp.Body)
		return resp.StatusCode, resp.Header.Get("Cache-Control"), b.String()
	}
	if code, _, body := get("/healthz"); code != 200 || !strings.HasPrefix(body, "ok") {
		t.Fatalf("healthz %d %q", code, body)
	}
	h.catchUp()
	if code, _, body := get("/readyz"); code != 200 {
		t.Fatalf("readyz %d %q", code, body)
	}
	// Metrics have their own listener; the public one does not serve them.
	if code, _, body := get("/metrics"); code != 404 || strings.Contains(body, "lotbook_") {
		t.Fatalf("public /metrics answered %d", code)
	}
	metrics := httptest.NewServer(h.st.MetricsHandler())
	defer metrics.Close()
	resp, err := metrics.Client().Get(metrics.URL + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(page), "lotbook_http_requests_total") || !strings.Contains(string(page), "lotbook_projection") {
		t.Fatalf("metrics %d, missing series", resp.StatusCode)
	}
	if code, cc, body := get("/"); code != 200 || cc != "no-cache" || !strings.Contains(body, "<title>lotbook") {
		t.Fatalf("index %d %q", code, cc)
	}
	if code, cc, _ := get("/assets/app-1a2b.js"); code != 200 || !strings.Contains(cc, "immutable") {
		t.Fatalf("asset %d %q", code, cc)
	}
	if code, _, _ := get("/nope.txt"); code != 404 {
		t.Fatalf("missing static file %d", code)
	}
	if code, _, body := get("/api/logo.svg"); code != 200 || !strings.HasPrefix(body, "<svg") {
		t.Fatalf("logo %d", code)
	}
	want(t, h.anon().get("/api/vue/nope"), 404, "not_found")

	a := h.anon().raw("POST", "/api/vue/common/config", "application/json", []byte(`{"type":"all"}`))
	want(t, a, 200, "ok")
	var entries []struct{ Name, Value string }
	a.data(t, &entries)
	got := map[string]string{}
	for _, e := range entries {
		got[e.Name] = e.Value
	}
	if got["demo"] != "true" || got["logo"] == "" || got["title"] == "" {
		t.Fatalf("config %v", got)
	}
}
