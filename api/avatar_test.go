package api

import (
	"testing"

	"github.com/lotbook/lotbook/api/wire"
)

// The member's avatar (issue 13.8): one of their own uploads (the proof upload path: checked,
// re-encoded), set with an event, shown in user info, served only to its owner and ops.
func TestAvatar(t *testing.T) {
	forEachBackend(t, func(t *testing.T, h *harness) {
		m := h.register("0912345678")
		other := h.register("0987654321")
		var info wire.UserInfo
		a := m.get("/api/vue/user/info")
		want(t, a, 200, "ok")
		a.data(t, &info)
		if info.Avatar != "" {
			t.Fatalf("a new member has an avatar: %q", info.Avatar)
		}
		// Not an image: refused by the upload path, no event.
		h.refused(415, "file_type_invalid", func() answer { return m.upload("a.png", []byte("<svg onload=alert(1)>")) })
		theirs := other.photo()
		h.refused(404, "file_not_found", func() answer { return m.post("/api/vue/user/avatar", map[string]string{"fileId": theirs}) })
		h.refused(404, "file_not_found", func() answer { return m.post("/api/vue/user/avatar", map[string]string{"fileId": ""}) })
		h.refused(400, "invalid_request", func() answer {
			return m.post("/api/vue/user/avatar", map[string]any{"fileId": theirs, "extra": 1})
		})

		id := m.photo()
		a = m.post("/api/vue/user/avatar", map[string]string{"fileId": id})
		want(t, a, 200, "ok")
		h.catchUp()
		a = m.get("/api/vue/user/info")
		want(t, a, 200, "ok")
		a.data(t, &info)
		if info.Avatar != id {
			t.Fatalf("avatar %q, want %q", info.Avatar, id)
		}
		// The same again changes nothing.
		h.unchanged(func() { want(t, m.post("/api/vue/user/avatar", map[string]string{"fileId": id}), 200, "ok") })
		// Served to its owner (re-encoded PNG) and ops, not to another member.
		if img := m.get("/api/vue/files/" + id); img.code != 200 || img.header.Get("Content-Type") != "image/png" {
			t.Fatalf("owner gets %d %s", img.code, img.header.Get("Content-Type"))
		}
		want(t, other.get("/api/vue/files/"+id), 404, "file_not_found")
		if img := h.ops.get("/api/vue/files/" + id); img.code != 200 {
			t.Fatalf("ops get %d", img.code)
		}
		h.verify()
	})
}
