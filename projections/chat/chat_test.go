package chat

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/lotbook/lotbook/events"
	"github.com/lotbook/lotbook/projections"
	"github.com/lotbook/lotbook/projections/projtest"
)

func sent(seq int64, side, text string) events.ChatMessageSent {
	return events.ChatMessageSent{Seq: seq, Side: side, Text: text}
}

// TestChat: unread counts per side follow messages and read marks, closing and a member's
// reopening show in the queue, members see only their own, and a rebuild equals the live model.
func TestChat(t *testing.T) {
	projtest.Backends(t, func(t *testing.T, e *projtest.Env) {
		ctx := context.Background()
		a, b := e.Register("0912345678"), e.Register("0987654321")
		add := func(m string, actor string, ps ...events.Payload) { e.Add(events.ChatStream(m), actor, ps...) }
		add(a, "member:0912345678", sent(1, "member", "hello"), events.ChatMessageSent{Seq: 2, Side: "member", FileID: "f1"})
		add(b, "member:0987654321", sent(1, "member", "hi"))
		add(a, "ops:0900000001", events.ChatMarked{Side: "ops", Delivered: 2, Read: 1}, events.ChatMessageSent{Seq: 3, Side: "ops", Text: "yes?", By: "0900000001"})
		add(b, "ops:0900000001", events.ChatClosed{By: "0900000001"})

		_, r := e.Start()
		r.WaitFor(t, e.Head())
		check := func(member string, status string, memberUnread, opsUnread int64, lastText string) {
			t.Helper()
			var c Conversation
			_, err := r.Snapshot(ctx, func(rd *projections.Reader) (err error) { c, err = Get(ctx, rd, member); return err })
			if err != nil {
				t.Fatal(err)
			}
			if c.Status != status || c.MemberUnread != memberUnread || c.OpsUnread != opsUnread || c.LastText != lastText {
				t.Fatalf("conversation %+v, want %s member unread %d ops unread %d last %q", c, status, memberUnread, opsUnread, lastText)
			}
		}
		check(a, StatusOpen, 1, 1, "yes?")
		check(b, StatusClosed, 0, 1, "hi")

		var queue []Conversation
		var msgs []Message
		f1 := func(rd *projections.Reader) (err error) {
			if queue, _, err = Queue(ctx, rd, StatusOpen, 1, 20); err != nil {
				return err
			}
			msgs, err = Messages(ctx, rd, a, 1, 10)
			return err
		}
		if _, err := r.Snapshot(ctx, f1); err != nil {
			t.Fatal(err)
		}
		if len(queue) != 1 || queue[0].MemberID != a || queue[0].Account != "0912345678" {
			t.Fatalf("open queue %+v", queue)
		}
		if len(msgs) != 2 || msgs[0].FileID != "f1" || msgs[1].By != "0900000001" || msgs[1].Seq != 3 {
			t.Fatalf("messages after 1: %+v", msgs)
		}
		for _, tc := range []struct {
			before int64
			limit  int
			want   []int64
		}{{0, 10, []int64{1, 2, 3}}, {0, 2, []int64{2, 3}}, {3, 10, []int64{1, 2}}, {2, 1, []int64{1}}, {1, 10, nil}} {
			var got []Message
			if _, err := r.Snapshot(ctx, func(rd *projections.Reader) (err error) {
				got, err = Before(ctx, rd, a, tc.before, tc.limit)
				return err
			}); err != nil {
				t.Fatal(err)
			}
			seqs := []int64(nil)
			for _, m := range got {
				seqs = append(seqs, m.Seq)
			}
			if !slices.Equal(seqs, tc.want) {
				t.Fatalf("before %d limit %d: %v, want %v", tc.before, tc.limit, seqs, tc.want)
			}
		}
		projtest.NoDiffs(t, r.Runner)

		add(b, "member:0987654321", sent(2, "member", "again"))
		add(a, "member:0912345678", events.ChatMarked{Side: "member", Delivered: 3, Read: 3})
		r.WaitFor(t, e.Head())
		check(a, StatusOpen, 0, 1, "yes?")
		check(b, StatusOpen, 0, 2, "again")
		if err := r.Rebuild(ctx, "chat", nil); err != nil {
			t.Fatal(err)
		}
		check(b, StatusOpen, 0, 2, "again")
		projtest.NoDiffs(t, r.Runner)
		_, err := r.Snapshot(ctx, func(rd *projections.Reader) error {
			_, err := Get(ctx, rd, events.MemberID("0900000000"))
			return err
		})
		if !errors.Is(err, projections.ErrNotFound) {
			t.Fatalf("no conversation: %v", err)
		}
	})
}

// TestChatOneByOne: the page fold agrees with applying every event in its own page.
func TestChatOneByOne(t *testing.T) {
	e := projtest.SQLite(t)
	ctx := context.Background()
	m := e.Register("0912345678")
	e.Add(events.ChatStream(m), "member:x", sent(1, "member", "a"), events.ChatClosed{By: "o"}, sent(2, "member", "b"),
		events.ChatMarked{Side: "ops", Delivered: 2, Read: 1}, sent(3, "ops", "c"))
	db := e.OneByOne(projector)
	c, err := Get(ctx, db.Reader, m)
	if err != nil {
		t.Fatal(err)
	}
	if c.Status != StatusOpen || c.LastSeq != 3 || c.OpsUnread != 1 || c.MemberUnread != 1 || c.Ops.Read != 1 {
		t.Fatalf("conversation %+v", c)
	}
}
