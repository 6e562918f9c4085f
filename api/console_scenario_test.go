package api

import (
	"strings"
	"testing"

	"github.com/lotbook/lotbook/api/wire"
)

// TestConsoleScenario: ops define a deposit channel with its payee (members see the payee),
// create invite codes (typed and generated), a member registers with one, ops see the use and
// disable the code (registering with it is then refused as with an unknown code); ops write a
// text members read; every change is in the history with its actor and the value before and
// after; the queues count what waits. Members cannot reach the console; bad input answers its
// key and writes nothing.
func TestConsoleScenario(t *testing.T) {
	forEachBackend(t, func(t *testing.T, h *harness) {
		m := h.register("0912345678")
		channel := map[string]any{
			"id": "wire", "name": "Wire transfer", "currency": "TWD", "min": "1000", "max": "500000", "password": "chan9876",
			"window": map[string]any{"weekdays": []int{1, 2, 3, 4, 5}, "open": "09:00", "close": "17:00", "tz": "Asia/Taipei",
				"closedOnHolidays": true, "alwaysOpen": false},
			"enabled": true,
			"payee":   map[string]string{"bank": "台灣銀行", "branch": "館前分行", "account": "004-12345678", "name": "樂簿股份有限公司"},
		}
		a := h.ops.post("/api/vue/ops/channels", channel)
		want(t, a, 200, "ok")
		var ch wire.OpsDepositChannel
		a.data(t, &ch)
		if ch.Payee.Account != "004-12345678" || !ch.Enabled || ch.Min != "1000.00" {
			t.Fatalf("channel %+v", ch)
		}
		h.catchUp()
		var chans []wire.DepositChannel
		m.get("/api/vue/funds/channels").data(t, &chans)
		var seen *wire.DepositChannel
		for i := range chans {
			if chans[i].Id == "wire" {
				seen = &chans[i]
			}
		}
		if seen == nil || seen.Payee != (wire.Payee{Bank: "台灣銀行", Branch: "館前分行", Account: "004-12345678", Name: "樂簿股份有限公司"}) {
			t.Fatalf("member sees %+v", seen)
		}
		// A redefinition without a password keeps it; half a payee is refused.
		channel["password"] = ""
		channel["max"] = "600000"
		want(t, h.ops.post("/api/vue/ops/channels", channel), 200, "ok")
		bad := map[string]any{}
		for k, v := range channel {
			bad[k] = v
		}
		bad["payee"] = map[string]string{"bank": "台灣銀行", "branch": "", "account": "", "name": ""}
		h.unchanged(func() { want(t, h.ops.post("/api/vue/ops/channels", bad), 400, "payee_invalid") })
		bad["payee"] = channel["payee"]
		bad["id"] = "Bad Id"
		h.unchanged(func() { want(t, h.ops.post("/api/vue/ops/channels", bad), 400, "invalid_request") })
		h.unchanged(func() { want(t, m.post("/api/vue/ops/channels", channel), 403, "forbidden") })

		// Invite codes.
		var inv wire.InviteResult
		a = h.ops.post("/api/vue/ops/invites", map[string]string{"code": "launch26"})
		want(t, a, 200, "ok")
		a.data(t, &inv)
		if inv.Code != "LAUNCH26" {
			t.Fatalf("created %+v", inv)
		}
		var gen wire.InviteResult
		a = h.ops.post("/api/vue/ops/invites", map[string]string{"code": ""})
		want(t, a, 200, "ok")
		a.data(t, &gen)
		if len(gen.Code) != 7 || gen.Code == "LAUNCH26" {
			t.Fatalf("generated %+v", gen)
		}
		h.unchanged(func() {
			want(t, h.ops.post("/api/vue/ops/invites", map[string]string{"code": "ab"}), 400, "invite_code_invalid")
		})
		var info wire.UserInfo
		m.get("/api/vue/user/info").data(t, &info)
		h.unchanged(func() {
			want(t, h.ops.post("/api/vue/ops/invites", map[string]string{"code": info.InviteCode}), 409, "invite_code_exists")
		})
		reg := func(account string) answer {
			return h.anon().post("/api/vue/user/register", map[string]string{
				"account": account, "password": "secret123", "confirmPassword": "secret123", "inviteCode": "launch26"})
		}
		want(t, reg("0922222222"), 200, "ok")
		h.catchUp()
		var uses []wire.InviteUse
		h.ops.get("/api/vue/ops/invites/LAUNCH26/uses").data(t, &uses)
		if len(uses) != 1 || uses[0].Account != "0922222222" {
			t.Fatalf("uses %+v", uses)
		}
		h.unchanged(func() {
			want(t, h.ops.post("/api/vue/ops/invites/LAUNCH26/disable", map[string]string{"reason": " "}), 400, "remark_required")
		})
		h.unchanged(func() {
			want(t, h.ops.post("/api/vue/ops/invites/NOPE1234/disable", map[string]string{"reason": "x"}), 404, "invite_code_not_found")
		})
		want(t, h.ops.post("/api/vue/ops/invites/LAUNCH26/disable", map[string]string{"reason": "launch over"}), 200, "ok")
		h.unchanged(func() { want(t, reg("0933333333"), 422, "inviter_not_exist") })
		h.catchUp()
		var page wire.OpsInvitePage
		h.ops.get("/api/vue/ops/invites").data(t, &page)
		var launch *wire.OpsInvite
		for i := range page.Items {
			if page.Items[i].Code == "LAUNCH26" {
				launch = &page.Items[i]
			}
		}
		if launch == nil || !launch.Disabled || launch.Uses != 1 || launch.Reason != "launch over" || launch.DisabledBy != "ops:ops" || launch.CreatedBy != "ops:ops" {
			t.Fatalf("invite %+v", launch)
		}

		// Texts.
		want(t, h.ops.post("/api/vue/ops/texts", map[string]string{"name": "about", "lang": "en", "text": "We are lotbook.\n\n<b>plain</b>"}), 200, "ok")
		h.unchanged(func() {
			want(t, h.ops.post("/api/vue/ops/texts", map[string]string{"name": "about", "lang": "en", "text": "bell\a"}), 400, "text_invalid")
		})
		h.unchanged(func() {
			want(t, h.ops.post("/api/vue/ops/texts", map[string]string{"name": "title", "lang": "en", "text": "x"}), 400, "text_invalid")
		})
		h.catchUp()
		var texts []wire.SiteText
		h.anon().get("/api/vue/common/texts").data(t, &texts)
		if len(texts) != 8 || texts[0].Name != "about" || texts[1].Lang != "en" || texts[1].Text != "We are lotbook.\n\n<b>plain</b>" {
			t.Fatalf("texts %+v", texts)
		}
		var cfg []wire.ConfigEntry
		h.anon().post("/api/vue/common/config", map[string]string{"type": "all"}).data(t, &cfg)
		for _, e := range cfg {
			if strings.HasPrefix(e.Name, "text.") {
				t.Fatalf("the site config carries the long text %s", e.Name)
			}
		}

		// The history: who changed what, the value before and after, never a password hash.
		var changes wire.ConfigChangePage
		h.ops.get("/api/vue/ops/changes?kind=deposit_channel").data(t, &changes)
		if len(changes.Items) < 2 || changes.Items[1].Subject != "wire" || changes.Items[1].Before != "" {
			t.Fatalf("channel changes %+v", changes.Items)
		}
		last := changes.Items[0]
		if last.Subject != "wire" || last.Actor != "ops:ops" || !strings.Contains(last.Before, `"max":"500000"`) ||
			!strings.Contains(last.After, `"max":"600000"`) || strings.Contains(last.After, "argon2") || !strings.Contains(last.After, `"password":"set#`) {
			t.Fatalf("last change %+v", last)
		}
		if b, a := passwordOf(last.Before), passwordOf(last.After); b == "" || b != a {
			t.Fatalf("the password should be kept: before %q after %q", b, a)
		}
		want(t, h.ops.get("/api/vue/ops/changes?kind=nope"), 400, "invalid_request")
		want(t, m.get("/api/vue/ops/changes"), 403, "forbidden")

		// The queues: every declared one, with its count.
		var queues []wire.OpsQueue
		h.ops.get("/api/vue/ops/console/queues").data(t, &queues)
		ids := []string{}
		for _, q := range queues {
			ids = append(ids, q.Id)
		}
		if strings.Join(ids, ",") != "deposits,withdrawals,realname,blockApplications,creditLoans,creditSeats,placements,chipgrabAllotment,chats,newsDrafts" {
			t.Fatalf("queues %v", ids)
		}
		want(t, m.get("/api/vue/ops/console/queues"), 403, "forbidden")

		// Ops never touch staff accounts.
		h.unchanged(func() {
			want(t, h.ops.post("/api/vue/ops/members/audit/flags", map[string]any{"flag": "frozen", "on": true, "reason": "x"}), 403, "staff_account_protected")
		})
	})
}

// passwordOf is the password fingerprint in a channel's history value.
func passwordOf(v string) string {
	i := strings.Index(v, `"password":"`)
	if i < 0 {
		return ""
	}
	rest := v[i+len(`"password":"`):]
	return rest[:strings.IndexByte(rest, '"')]
}
