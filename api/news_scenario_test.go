package api

import (
	"strings"
	"testing"
	"time"

	"github.com/lotbook/lotbook/api/wire"
)

// TestNewsScenario: ops draft a notice whose HTML carries a script, an onerror attribute and a
// javascript: link (all gone when it is stored), schedule it; the member does not see it before
// its time and does after; reading it drops the unread count; withdrawn, it is gone. Members
// cannot write, ops cannot pose as readers, and bad input answers its key and writes nothing.
func TestNewsScenario(t *testing.T) {
	forEachBackend(t, func(t *testing.T, h *harness) {
		m := h.register("0912345678")
		text := map[string]string{
			"titleTw": "休市公告", "titleEn": "Market holiday",
			"bodyTw": `<p>12 月 25 日休市<script>alert(1)</script></p>`,
			"bodyEn": `<p onclick="alert(1)">Closed on 25 December.<img src=x onerror="alert(2)"> <a href="javascript:alert(3)">details</a> <a href="https://www.twse.com.tw/">TWSE</a></p>`,
		}
		draft := map[string]string{"kind": "notice"}
		for k, v := range text {
			draft[k] = v
		}
		a := h.ops.post("/api/vue/ops/news", draft)
		want(t, a, 200, "ok")
		var w wire.NewsWriteResult
		a.data(t, &w)
		id := w.Id

		unread := func(c *client) wire.NewsUnread {
			t.Helper()
			var u wire.NewsUnread
			a := c.get("/api/vue/news/unread")
			want(t, a, 200, "ok")
			a.data(t, &u)
			return u
		}
		notices := func() []wire.NewsSummary {
			t.Helper()
			var p wire.NewsPage
			a := m.get("/api/vue/news/items?kind=notice")
			want(t, a, 200, "ok")
			a.data(t, &p)
			return p.Items
		}
		hidden := func() {
			t.Helper()
			if got := notices(); len(got) != 0 {
				t.Fatalf("member sees %+v", got)
			}
			if u := unread(m); u.Notices != 0 {
				t.Fatalf("unread %+v", u)
			}
			want(t, m.get("/api/vue/news/items/"+id), 404, "news_not_found")
			h.unchanged(func() { want(t, m.post("/api/vue/news/items/"+id+"/read", map[string]string{}), 404, "news_not_found") })
		}
		h.catchUp()
		hidden() // a draft

		at := h.clock.Now().Add(time.Hour)
		want(t, h.ops.post("/api/vue/ops/news/"+id+"/schedule", map[string]string{"at": at.Format(time.RFC3339)}), 200, "ok")
		h.catchUp() // ops' writes reach the member's reads once projected
		h.clock.Advance(59 * time.Minute)
		hidden() // scheduled, a minute early

		h.clock.Advance(time.Minute)
		got := notices()
		if len(got) != 1 || got[0].Id != id || got[0].Read || got[0].TitleEn != "Market holiday" || !got[0].PublishedAt.Equal(at) {
			t.Fatalf("at its time the member sees %+v", got)
		}
		if u := unread(m); u != (wire.NewsUnread{Notices: 1}) {
			t.Fatalf("unread %+v", u)
		}
		var item wire.NewsItem
		a = m.get("/api/vue/news/items/" + id)
		want(t, a, 200, "ok")
		a.data(t, &item)
		for _, body := range []string{item.BodyTw, item.BodyEn} {
			for _, bad := range []string{"<script", "alert", "onerror", "onclick", "javascript:", "<img"} {
				if strings.Contains(strings.ToLower(body), bad) {
					t.Fatalf("body keeps %q: %s", bad, body)
				}
			}
		}
		if !strings.Contains(item.BodyEn, `<a href="https://www.twse.com.tw/" rel="nofollow noreferrer noopener" target="_blank">TWSE</a>`) ||
			!strings.Contains(item.BodyTw, "12 月 25 日休市") {
			t.Fatalf("sanitised bodies %q %q", item.BodyTw, item.BodyEn)
		}

		key := "4c7f2a10-8d3e-4b6a-9f21-0e5d7c3b1a99"
		a = m.postKey("/api/vue/news/items/"+id+"/read", key, map[string]string{})
		want(t, a, 200, "ok")
		h.unchanged(func() { want(t, m.postKey("/api/vue/news/items/"+id+"/read", key, map[string]string{}), 200, "ok") })
		h.unchanged(func() { want(t, m.post("/api/vue/news/items/"+id+"/read", map[string]string{}), 200, "ok") })
		if u := unread(m); u.Notices != 0 {
			t.Fatalf("unread after reading %+v", u)
		}
		if got := notices(); len(got) != 1 || !got[0].Read {
			t.Fatalf("after reading %+v", got)
		}
		other := h.register("0987654321")
		if u := unread(other); u.Notices != 1 {
			t.Fatalf("another member's unread %+v", u)
		}
		var seen wire.NewsPage
		a = h.ops.get("/api/vue/news/items?kind=notice")
		want(t, a, 200, "ok")
		if a.data(t, &seen); len(seen.Items) != 1 || seen.Items[0].Read {
			t.Fatalf("ops see %+v", seen.Items)
		}

		// Members cannot write, nor see ops' lists; staff read what members see but record no reads.
		h.unchanged(func() {
			want(t, m.post("/api/vue/ops/news", draft), 403, "forbidden")
			want(t, m.post("/api/vue/ops/news/"+id+"/withdraw", map[string]string{}), 403, "forbidden")
			want(t, m.get("/api/vue/ops/news"), 403, "forbidden")
			want(t, h.ops.post("/api/vue/news/items/"+id+"/read", map[string]string{}), 403, "forbidden")
			want(t, h.anon().get("/api/vue/news/items?kind=notice"), 401, "unauthorized")
		})

		// Bad input: its key, nothing written.
		with := func(k, v string) map[string]string {
			out := map[string]string{}
			for kk, vv := range draft {
				out[kk] = vv
			}
			out[k] = v
			return out
		}
		h.unchanged(func() {
			want(t, h.ops.post("/api/vue/ops/news", with("titleEn", " ")), 400, "news_title_invalid")
			want(t, h.ops.post("/api/vue/ops/news", with("titleTw", strings.Repeat("長", 121))), 400, "news_title_invalid")
			want(t, h.ops.post("/api/vue/ops/news", with("bodyEn", "<script>alert(1)</script>")), 400, "news_body_invalid")
			want(t, h.ops.post("/api/vue/ops/news", with("bodyTw", strings.Repeat("字", 8001))), 400, "news_body_invalid")
			want(t, h.ops.post("/api/vue/ops/news", with("kind", "ad")), 400, "news_kind_invalid")
			want(t, h.ops.get("/api/vue/ops/news?kind=ad"), 400, "news_kind_invalid")
			want(t, h.ops.get("/api/vue/ops/news?state=gone"), 400, "invalid_request")
			want(t, m.get("/api/vue/news/items"), 400, "news_kind_invalid")
			want(t, h.ops.post("/api/vue/ops/news/"+id+"/schedule", map[string]string{"at": h.clock.Now().Add(time.Hour).Format(time.RFC3339)}), 422, "news_state_invalid")
			want(t, h.ops.post("/api/vue/ops/news/"+noNews+"/publish", map[string]string{}), 404, "news_not_found")
			want(t, h.ops.post("/api/vue/ops/news/not-an-id/publish", map[string]string{}), 404, "news_not_found")
			want(t, h.ops.get("/api/vue/ops/news/"+noNews), 404, "news_not_found")
		})

		a = h.ops.post("/api/vue/ops/news/"+id+"/withdraw", map[string]string{"reason": "date corrected"})
		want(t, a, 200, "ok")
		h.catchUp()
		hidden()
		if u := unread(other); u.Notices != 0 {
			t.Fatalf("withdrawn, still unread %+v", u)
		}

		var d struct {
			wire.OpsNewsSummary
			BodyTw, BodyEn string
			History        []wire.NewsAction
		}
		a = h.ops.get("/api/vue/ops/news/" + id)
		want(t, a, 200, "ok")
		a.data(t, &d)
		var actions []string
		for _, x := range d.History {
			if x.Actor != "ops:ops" {
				t.Fatalf("action by %q", x.Actor)
			}
			actions = append(actions, x.Action)
		}
		if d.State != wire.NewsState("withdrawn") || strings.Join(actions, ",") != "draft,schedule,withdraw" || d.CreatedBy != "ops:ops" {
			t.Fatalf("ops see %+v %v", d.OpsNewsSummary, actions)
		}
	})
}
