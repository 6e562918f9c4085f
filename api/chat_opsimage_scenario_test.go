package api

import (
	"testing"

	"github.com/lotbook/lotbook/api/wire"
)

// TestChatOpsImageScenario: ops answer a member with an image they uploaded; the member sees the
// image message and may fetch the image, another member gets not found for it (as for any file
// not theirs), and ops may not attach an upload that is not their own. Bad input changes nothing.
func TestChatOpsImageScenario(t *testing.T) {
	forEachBackend(t, func(t *testing.T, h *harness) {
		a, b := h.register("0912345678"), h.register("0987654321")
		want(t, a.post("/api/vue/chat/messages", map[string]string{"text": "where do I send the money?"}), 200, "ok")
		h.catchUp()

		img := h.ops.photo()
		r := h.ops.post("/api/vue/ops/chats/"+a.account+"/messages", map[string]string{"fileId": img})
		want(t, r, 200, "ok")
		var sent wire.ChatSendResult
		r.data(t, &sent)
		if sent.Seq != 2 {
			t.Fatalf("sent %+v", sent)
		}

		h.catchUp()
		v := a.chat("/api/vue/chat")
		if len(v.Messages) != 2 || v.MemberUnread != 1 {
			t.Fatalf("member view %+v", v)
		}
		m := v.Messages[1]
		if m.Side != wire.ChatMessageSideOps || m.FileId == nil || *m.FileId != img || m.Text != "" || m.By == nil || *m.By != "ops" {
			t.Fatalf("ops image message %+v", m)
		}
		if q, _ := summaryOf(h.ops.chatQueue("open"), a.account); !q.HasImage || q.LastSide != wire.ChatSummaryLastSideOps {
			t.Fatalf("ops queue %+v", q)
		}
		if f := a.get("/api/vue/files/" + img); f.code != 200 {
			t.Fatalf("member reading ops' image: %s", f)
		}
		if f := h.ops.get("/api/vue/files/" + img); f.code != 200 {
			t.Fatalf("ops reading their image: %s", f)
		}
		want(t, b.get("/api/vue/files/"+img), 404, "file_not_found")

		// The member's own upload is not ops' to attach; nor is an unknown id.
		mine := a.photo()
		h.unchanged(func() {
			want(t, h.ops.post("/api/vue/ops/chats/"+a.account+"/messages", map[string]string{"fileId": mine}), 404, "file_not_found")
			want(t, h.ops.post("/api/vue/ops/chats/"+a.account+"/messages", map[string]string{"fileId": "nope"}), 404, "file_not_found")
			want(t, h.ops.post("/api/vue/ops/chats/"+a.account+"/messages", map[string]string{}), 400, "chat_message_empty")
			want(t, h.ops.post("/api/vue/ops/chats/"+b.account+"/messages", map[string]string{"fileId": img}), 404, "chat_not_found")
		})
		// A member never sees another member's conversation's images by starting their own.
		want(t, b.post("/api/vue/chat/messages", map[string]string{"text": "hello"}), 200, "ok")
		h.catchUp()
		want(t, b.get("/api/vue/files/"+img), 404, "file_not_found")
	})
}
