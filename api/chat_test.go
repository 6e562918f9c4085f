package api

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/lotbook/lotbook/api/wire"
	"github.com/lotbook/lotbook/events"
)

func (c *client) chat(path string) wire.ChatView {
	c.h.t.Helper()
	a := c.get(path)
	want(c.h.t, a, 200, "ok")
	var v wire.ChatView
	a.data(c.h.t, &v)
	return v
}

func (c *client) chatQueue(status string) []wire.ChatSummary {
	c.h.t.Helper()
	a := c.get("/api/vue/ops/chats?status=" + status)
	want(c.h.t, a, 200, "ok")
	var p wire.ChatQueuePage
	a.data(c.h.t, &p)
	return p.Items
}

func summaryOf(items []wire.ChatSummary, account string) (wire.ChatSummary, bool) {
	for _, s := range items {
		if s.Account == account {
			return s, true
		}
	}
	return wire.ChatSummary{}, false
}

// TestChatScenario: a member writes text with an image, ops see it unread, read it and answer
// (attributed), the member sees the answer unread and reads it, ops close and the member's next
// message opens the conversation again. Another member can neither read nor write the first
// one's conversation, nor attach their image, and members never reach ops' routes. Bad input
// changes nothing.
func TestChatScenario(t *testing.T) {
	forEachBackend(t, func(t *testing.T, h *harness) {
		a, b := h.register("0912345678"), h.register("0987654321")
		img := a.photo()

		if v := a.chat("/api/vue/chat"); v.Status != wire.ChatViewStatusNone || len(v.Messages) != 0 {
			t.Fatalf("before the first message: %+v", v)
		}
		s := a.post("/api/vue/chat/messages", map[string]string{"text": "  my deposit is missing  ", "fileId": img})
		want(t, s, 200, "ok")
		var sent wire.ChatSendResult
		s.data(t, &sent)
		if sent.Seq != 1 || sent.Position <= 0 {
			t.Fatalf("sent %+v", sent)
		}

		h.catchUp() // ops read what another session wrote (their client sends the pushed position)
		q, ok := summaryOf(h.ops.chatQueue("open"), a.account)
		if !ok || q.OpsUnread != 1 || q.LastText != "my deposit is missing" || !q.HasImage || q.LastSide != wire.ChatSummaryLastSideMember {
			t.Fatalf("ops queue %+v (found %v)", q, ok)
		}
		v := h.ops.chat("/api/vue/ops/chats/" + a.account)
		if len(v.Messages) != 1 || v.Messages[0].FileId == nil || *v.Messages[0].FileId != img || v.OpsUnread != 1 {
			t.Fatalf("ops view %+v", v)
		}
		// Ops may open the member's image; the other member may not.
		if r := h.ops.get("/api/vue/files/" + img); r.code != 200 {
			t.Fatalf("ops reading the image: %s", r)
		}
		want(t, b.get("/api/vue/files/"+img), 404, "file_not_found")

		want(t, h.ops.post("/api/vue/ops/chats/"+a.account+"/marks", map[string]int64{"read": 1}), 200, "ok")
		r := h.ops.post("/api/vue/ops/chats/"+a.account+"/messages", map[string]string{"text": "Let me check."})
		want(t, r, 200, "ok")
		if q, _ := summaryOf(h.ops.chatQueue("open"), a.account); q.OpsUnread != 0 || q.LastSide != wire.ChatSummaryLastSideOps {
			t.Fatalf("ops queue after reading and answering %+v", q)
		}

		h.catchUp()
		v = a.chat("/api/vue/chat")
		if v.MemberUnread != 1 || v.Ops.Read != 1 || len(v.Messages) != 2 || v.Messages[1].By == nil || *v.Messages[1].By != "ops" {
			t.Fatalf("member view %+v", v)
		}
		want(t, a.post("/api/vue/chat/marks", map[string]int64{"delivered": 2, "read": 2}), 200, "ok")
		if v = a.chat("/api/vue/chat"); v.MemberUnread != 0 || v.Member.Read != 2 || v.Member.Delivered != 2 {
			t.Fatalf("member view after reading %+v", v)
		}
		if v = a.chat("/api/vue/chat?after=1"); len(v.Messages) != 1 || v.Messages[0].Seq != 2 {
			t.Fatalf("messages after 1: %+v", v.Messages)
		}
		if v = a.chat("/api/vue/chat?before=2"); len(v.Messages) != 1 || v.Messages[0].Seq != 1 {
			t.Fatalf("messages before 2: %+v", v.Messages)
		}
		h.catchUp()
		if v = h.ops.chat("/api/vue/ops/chats/" + a.account); v.Member.Read != 2 {
			t.Fatalf("ops do not see the member's read mark: %+v", v.Member)
		}

		// The other member: their own (empty) conversation only; no way to name another's.
		if v := b.chat("/api/vue/chat"); v.Status != wire.ChatViewStatusNone || len(v.Messages) != 0 || v.Account != b.account {
			t.Fatalf("second member sees %+v", v)
		}
		h.unchanged(func() {
			want(t, b.post("/api/vue/chat/messages", map[string]string{"fileId": img}), 404, "file_not_found")
			want(t, b.post("/api/vue/chat/messages", map[string]any{"text": "hi", "memberId": "x"}), 400, "invalid_request")
			want(t, b.post("/api/vue/chat/marks", map[string]int64{"read": 2}), 400, "invalid_request")
			want(t, b.get("/api/vue/ops/chats"), 403, "forbidden")
			want(t, b.get("/api/vue/ops/chats/"+a.account), 403, "forbidden")
			want(t, b.post("/api/vue/ops/chats/"+a.account+"/messages", map[string]string{"text": "x"}), 403, "forbidden")
			want(t, b.post("/api/vue/ops/chats/"+a.account+"/close", map[string]string{}), 403, "forbidden")
			want(t, h.ops.post("/api/vue/chat/messages", map[string]string{"text": "x"}), 403, "forbidden")
			want(t, b.post("/api/vue/chat/messages", map[string]string{"text": "   "}), 400, "chat_message_empty")
			want(t, b.post("/api/vue/chat/messages", map[string]string{"text": strings.Repeat("長", 1001)}), 400, "chat_message_too_long")
			want(t, b.post("/api/vue/chat/messages", map[string]string{"text": "bell\a"}), 400, "invalid_request")
			want(t, h.ops.get("/api/vue/ops/chats/"+b.account), 404, "chat_not_found")
			want(t, h.ops.post("/api/vue/ops/chats/"+b.account+"/messages", map[string]string{"text": "hello?"}), 404, "chat_not_found")
			want(t, h.ops.post("/api/vue/ops/chats/ops/messages", map[string]string{"text": "x"}), 404, "chat_not_found")
			want(t, h.ops.post("/api/vue/ops/chats/0900000000/close", map[string]string{}), 404, "chat_not_found")
			want(t, h.ops.post("/api/vue/ops/chats/"+a.account+"/messages", map[string]string{"text": ""}), 400, "chat_message_empty")
			want(t, h.ops.get("/api/vue/ops/chats?status=nope"), 400, "invalid_request")
			want(t, a.get("/api/vue/chat?after=-1"), 400, "invalid_request")
			want(t, a.get("/api/vue/chat?after=1&before=2"), 400, "invalid_request")
		})

		want(t, h.ops.post("/api/vue/ops/chats/"+a.account+"/close", map[string]string{}), 200, "ok")
		if _, open := summaryOf(h.ops.chatQueue("open"), a.account); open {
			t.Fatal("closed conversation still in the open queue")
		}
		if q, ok := summaryOf(h.ops.chatQueue("closed"), a.account); !ok || q.Status != wire.ChatSummaryStatusClosed {
			t.Fatalf("closed queue %+v", q)
		}
		h.catchUp()
		if v := a.chat("/api/vue/chat"); v.Status != wire.ChatViewStatusClosed || v.ClosedBy == nil || *v.ClosedBy != "ops" {
			t.Fatalf("member sees %+v after closing", v)
		}
		want(t, a.post("/api/vue/chat/messages", map[string]string{"text": "one more thing"}), 200, "ok")
		h.catchUp()
		if q, ok := summaryOf(h.ops.chatQueue("open"), a.account); !ok || q.OpsUnread != 1 || q.LastSeq != 3 {
			t.Fatalf("reopened %+v (found %v)", q, ok)
		}
		// Every event of the conversation names who wrote it.
		evs, err := h.st.Store.ReadStream(t.Context(), events.ChatStream(events.MemberID(a.account)), 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range evs {
			if !strings.HasPrefix(e.Metadata.Actor, "member:"+a.account) && e.Metadata.Actor != "ops:ops" {
				t.Fatalf("%s written by %q", e.Type, e.Metadata.Actor)
			}
		}
	})
}

// TestChatRateLimit: past the per-member limit a message is refused with its own key and
// Retry-After, nothing is written, and another member is not limited.
func TestChatRateLimit(t *testing.T) {
	h := newHarness(t, testDB{kind: "sqlite"}, RateLimits{LoginPerAccount: 1000, LoginPerIP: 1000, RegisterPerIP: 1000, UploadPerMember: 1000, ChatPerMember: 3})
	a, b := h.register("0912345678"), h.register("0987654321")
	for i := range 3 {
		want(t, a.post("/api/vue/chat/messages", map[string]string{"text": fmt.Sprint("message ", i)}), 200, "ok")
	}
	h.unchanged(func() {
		r := a.post("/api/vue/chat/messages", map[string]string{"text": "too fast"})
		want(t, r, 429, "chat_rate_limited")
		if r.header.Get("Retry-After") == "" {
			t.Fatal("no Retry-After")
		}
	})
	want(t, b.post("/api/vue/chat/messages", map[string]string{"text": "hello"}), 200, "ok")
	h.clock.Advance(time.Minute)
	want(t, a.post("/api/vue/chat/messages", map[string]string{"text": "later"}), 200, "ok")
}

// untilRaw reads frames until match accepts one (given decoded and raw); it fails after wait.
func (w *wsClient) untilRaw(wait time.Duration, what string, match func(f wsFrame, raw []byte) bool) {
	w.t.Helper()
	w.startReading()
	end := time.After(wait)
	for {
		select {
		case b := <-w.frames:
			var f wsFrame
			if err := json.Unmarshal(b, &f); err != nil {
				w.t.Fatalf("frame %q: %v", b, err)
			}
			if match(f, b) {
				return
			}
		case err := <-w.err:
			w.t.Fatalf("read: %v", err)
		case <-end:
			w.t.Fatalf("no %s within %s", what, wait)
		}
	}
}

// socket is a socket bound to c's session.
func (c *client) socket() *wsClient {
	c.h.t.Helper()
	ws := c.h.mustDial()
	ws.send(map[string]string{"op": "auth", "token": c.token, "account": c.account})
	return ws
}

// untilChat reads frames until a chat frame match accepts.
func (w *wsClient) untilChat(what string, match func(wire.WsChatFrame) bool) wire.WsChatFrame {
	w.t.Helper()
	var got wire.WsChatFrame
	w.untilRaw(10*time.Second, what, func(f wsFrame, raw []byte) bool {
		if f.Type != "chat" {
			return false
		}
		if err := strictJSON(raw, &got); err != nil {
			w.t.Fatalf("chat frame %s: %v", raw, err)
		}
		return match(got)
	})
	return got
}

// TestChatSocket: a message reaches the other side's socket, typing goes both ways and is never
// stored, a socket without a session gets nothing, another member's socket hears nothing of the
// conversation, a member who reconnects reads what was written while away, and a socket whose
// session was logged out hears no more.
func TestChatSocket(t *testing.T) {
	h := newHarness(t, testDB{kind: "sqlite"}, RateLimits{LoginPerAccount: 1000, LoginPerIP: 1000, RegisterPerIP: 1000, UploadPerMember: 1000})
	a, b := h.register("0912345678"), h.register("0987654321")
	anon := h.mustDial()
	anon.send(map[string]string{"op": "typing"})
	anon.wantError("unauthorized", "")
	bad := h.mustDial()
	bad.send(map[string]string{"op": "auth", "token": "nope", "account": a.account})
	bad.wantError("unauthorized", "")

	opsWS, aWS, bWS := h.ops.socket(), a.socket(), b.socket()
	// A socket's auth is applied before its next request: typing from each member reaching ops
	// proves all three are bound before anything is pushed.
	before := h.head()
	typingOf := func(account string) func(wire.WsChatFrame) bool {
		return func(f wire.WsChatFrame) bool { return f.Kind == wire.WsChatFrameKindTyping && f.Account == account }
	}
	opsWS.send(map[string]string{"op": "typing", "account": "0900000000"})
	opsWS.wantError("chat_not_found", "")
	bWS.send(map[string]string{"op": "typing"})
	opsWS.untilChat("the other member typing", typingOf(b.account))
	aWS.send(map[string]string{"op": "typing"})
	f := opsWS.untilChat("member typing", typingOf(a.account))
	if f.Account != a.account || f.Side == nil || *f.Side != wire.WsChatFrameSideMember {
		t.Fatalf("typing frame %+v", f)
	}

	want(t, a.post("/api/vue/chat/messages", map[string]string{"text": "hello"}), 200, "ok")
	f = opsWS.untilChat("the member's message", func(f wire.WsChatFrame) bool { return f.Kind == wire.WsChatFrameKindMessage })
	if f.Account != a.account || f.Message == nil || f.Message.Text != "hello" || f.Message.Seq != 1 || f.Position == nil {
		t.Fatalf("ops got %+v", f)
	}
	aWS.untilChat("own message echoed", func(f wire.WsChatFrame) bool { return f.Kind == wire.WsChatFrameKindMessage })

	opsWS.send(map[string]string{"op": "typing", "account": a.account})
	aWS.untilChat("ops typing", func(f wire.WsChatFrame) bool {
		return f.Kind == wire.WsChatFrameKindTyping && f.Side != nil && *f.Side == wire.WsChatFrameSideOps
	})

	want(t, h.ops.post("/api/vue/ops/chats/"+a.account+"/messages", map[string]string{"text": "hi, how can I help?"}), 200, "ok")
	f = aWS.untilChat("the answer", func(f wire.WsChatFrame) bool { return f.Kind == wire.WsChatFrameKindMessage && f.Message.Seq == 2 })
	if f.Message.By == nil || *f.Message.By != "ops" {
		t.Fatalf("answer %+v", f.Message)
	}
	lastSeen := f.Message.Seq

	// The member's socket drops; ops answer twice; the member reconnects and reads what it missed.
	aWS.ws.Close()
	for _, text := range []string{"are you there?", "we found your deposit"} {
		want(t, h.ops.post("/api/vue/ops/chats/"+a.account+"/messages", map[string]string{"text": text}), 200, "ok")
	}
	aWS = a.socket()
	h.catchUp()
	v := a.chat(fmt.Sprint("/api/vue/chat?after=", lastSeen))
	if len(v.Messages) != 2 || v.Messages[0].Text != "are you there?" || v.Messages[1].Seq != 4 || v.MemberUnread != 3 {
		t.Fatalf("after reconnecting: %+v", v)
	}
	want(t, a.post("/api/vue/chat/marks", map[string]int64{"read": 4}), 200, "ok")
	f = opsWS.untilChat("the read mark", func(f wire.WsChatFrame) bool { return f.Kind == wire.WsChatFrameKindMarks })
	if f.Marks == nil || f.Marks.Read != 4 || *f.Side != wire.WsChatFrameSideMember {
		t.Fatalf("marks frame %+v", f)
	}
	aWS.untilChat("own read mark", func(f wire.WsChatFrame) bool { return f.Kind == wire.WsChatFrameKindMarks })

	// The other member heard nothing of it.
	for {
		f, ok := bWS.next(300 * time.Millisecond)
		if !ok {
			break
		}
		if f.Type == "chat" {
			t.Fatalf("another member's socket got %+v", f)
		}
	}
	// Typing was never stored: the log holds the messages and the marks only.
	evs, err := h.st.Store.ReadAll(t.Context(), before, 1000)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range evs {
		if !strings.HasPrefix(e.Type, "ChatMessageSent.") && !strings.HasPrefix(e.Type, "ChatMarked.") {
			t.Fatalf("unexpected event %s", e.Type)
		}
	}

	// The member logs out: the socket bound to that session hears so and nothing more.
	want(t, a.post("/api/vue/user/logout", nil), 200, "ok")
	aWS.wantError("unauthorized", "")
	want(t, h.ops.post("/api/vue/ops/chats/"+a.account+"/messages", map[string]string{"text": "still there?"}), 200, "ok")
	opsWS.untilChat("the last answer", func(f wire.WsChatFrame) bool { return f.Kind == wire.WsChatFrameKindMessage && f.Message.Seq == 5 })
	for {
		f, ok := aWS.next(300 * time.Millisecond)
		if !ok {
			break
		}
		if f.Type == "chat" {
			t.Fatalf("a logged-out socket got %+v", f)
		}
	}
	aWS.send(map[string]string{"op": "typing"})
	aWS.wantError("unauthorized", "")
}
