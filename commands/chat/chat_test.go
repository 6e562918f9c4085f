package chat

import (
	"reflect"
	"strings"
	"testing"

	"github.com/lotbook/lotbook/commands"
	"github.com/lotbook/lotbook/commands/commandstest"
	"github.com/lotbook/lotbook/events"
)

// conv is a conversation that has lived through ps.
func conv(ps ...events.Payload) *conversation {
	c := newConversation("m1").(*conversation)
	for _, p := range ps {
		c.Apply(events.RecordedEvent{}, p)
	}
	return c
}

func msg(seq int64, side string) events.ChatMessageSent {
	return events.ChatMessageSent{Seq: seq, Side: side, Text: "x"}
}

func TestCleanText(t *testing.T) {
	for _, tc := range []struct {
		in, want, key string
	}{
		{"  hello \n", "hello", ""},
		{"第一行\n第二行\t好", "第一行\n第二行\t好", ""},
		{"", "", ""},
		{strings.Repeat("字", MaxTextRunes), strings.Repeat("字", MaxTextRunes), ""},
		{strings.Repeat("字", MaxTextRunes+1), "", KeyMessageTooLong},
		{"bell\a", "", commands.KeyInvalidRequest},
		{"nul\x00", "", commands.KeyInvalidRequest},
		{"bad \xff utf8", "", commands.KeyInvalidRequest},
	} {
		got, err := CleanText(tc.in)
		commandstest.WantKey(t, err, tc.key)
		if got != tc.want {
			t.Errorf("CleanText(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestDecideSend(t *testing.T) {
	for _, tc := range []struct {
		name               string
		c                  *conversation
		side, text, fileID string
		want               []events.Payload
		key                string
	}{
		{"member starts", conv(), events.ChatSideMember, "hi", "", []events.Payload{events.ChatMessageSent{Seq: 1, Side: "member", Text: "hi"}}, ""},
		{"member image", conv(msg(1, "member")), events.ChatSideMember, "", "f1", []events.Payload{events.ChatMessageSent{Seq: 2, Side: "member", FileID: "f1"}}, ""},
		{"ops answers", conv(msg(1, "member")), events.ChatSideOps, "hello", "", []events.Payload{events.ChatMessageSent{Seq: 2, Side: "ops", Text: "hello", By: "ops1"}}, ""},
		{"ops cannot start", conv(), events.ChatSideOps, "hello", "", nil, KeyNotFound},
		{"empty", conv(msg(1, "member")), events.ChatSideMember, "", "", nil, KeyMessageEmpty},
		{"member reopens closed", conv(msg(1, "member"), events.ChatClosed{By: "ops1"}), events.ChatSideMember, "again", "", []events.Payload{events.ChatMessageSent{Seq: 2, Side: "member", Text: "again"}}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			by := ""
			if tc.side == events.ChatSideOps {
				by = "ops1"
			}
			got, err := decideSend(tc.c, tc.side, tc.text, tc.fileID, by)
			commandstest.WantKey(t, err, tc.key)
			if !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("got %#v, want %#v", got, tc.want)
			}
		})
	}
	if c := conv(msg(1, "member"), events.ChatClosed{By: "o"}, msg(2, "member")); c.closed {
		t.Fatal("a member's message did not reopen the conversation")
	}
	if c := conv(msg(1, "member"), events.ChatClosed{By: "o"}, msg(2, "ops")); !c.closed {
		t.Fatal("an ops message reopened the conversation")
	}
}

func TestDecideMark(t *testing.T) {
	three := conv(msg(1, "member"), msg(2, "ops"), msg(3, "ops"))
	marked := conv(msg(1, "member"), msg(2, "ops"), msg(3, "ops"), events.ChatMarked{Side: "member", Delivered: 3, Read: 2})
	for _, tc := range []struct {
		name            string
		c               *conversation
		side            string
		delivered, read int64
		want            []events.Payload
		key             string
	}{
		{"read implies delivered", three, "member", 0, 2, []events.Payload{events.ChatMarked{Side: "member", Delivered: 2, Read: 2}}, ""},
		{"delivered only", three, "ops", 3, 0, []events.Payload{events.ChatMarked{Side: "ops", Delivered: 3}}, ""},
		{"forward", marked, "member", 3, 3, []events.Payload{events.ChatMarked{Side: "member", Delivered: 3, Read: 3}}, ""},
		{"never back", marked, "member", 1, 1, nil, ""},
		{"same again", marked, "member", 3, 2, nil, ""},
		{"nothing to mark", conv(), "member", 0, 0, nil, ""},
		{"past the last message", three, "member", 0, 4, nil, commands.KeyInvalidRequest},
		{"negative", three, "ops", -1, 0, nil, commands.KeyInvalidRequest},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := decideMark(tc.c, tc.side, tc.delivered, tc.read)
			commandstest.WantKey(t, err, tc.key)
			if !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("got %#v, want %#v", got, tc.want)
			}
		})
	}
}

func TestDecideClose(t *testing.T) {
	for _, tc := range []struct {
		name string
		c    *conversation
		want []events.Payload
		key  string
	}{
		{"open", conv(msg(1, "member")), []events.Payload{events.ChatClosed{By: "ops1"}}, ""},
		{"closed already", conv(msg(1, "member"), events.ChatClosed{By: "ops2"}), nil, ""},
		{"no conversation", conv(), nil, KeyNotFound},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := decideClose(tc.c, "ops1")
			commandstest.WantKey(t, err, tc.key)
			if !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("got %#v, want %#v", got, tc.want)
			}
		})
	}
}

// TestChatAgainstTheStore: a member writes text and an image of their own, ops answer, marks
// move; a foreign file, a staff user as member, and bad input are refused without writing.
func TestChatAgainstTheStore(t *testing.T) {
	f := commandstest.New(t)
	f.SeedMembers()
	a := f.Register("0912345678", "LOTBOOK")
	b := f.Register("0987654321", "LOTBOOK")
	chat := New(f.Svc)
	meta := commandstest.Meta

	s1, err := chat.SendAsMember(f.Ctx, meta("member:0912345678"), MemberMessage{MemberID: a.MemberID, Text: " hello "})
	f.Must(err)
	img := f.Upload(a.MemberID)
	s2, err := chat.SendAsMember(f.Ctx, meta("member:0912345678"), MemberMessage{MemberID: a.MemberID, FileID: img})
	f.Must(err)
	s3, err := chat.SendAsOps(f.Ctx, meta("ops:0900000001"), OpsMessage{MemberID: a.MemberID, Text: "hi", By: "0900000001"})
	f.Must(err)
	if s1.Seq != 1 || s2.Seq != 2 || s3.Seq != 3 || s3.Position <= s1.Position {
		t.Fatalf("seqs %+v %+v %+v", s1, s2, s3)
	}
	_, err = chat.MarkSeen(f.Ctx, meta("member:0912345678"), Mark{MemberID: a.MemberID, Side: events.ChatSideMember, Read: 3})
	f.Must(err)
	_, err = chat.Close(f.Ctx, meta("ops:0900000001"), a.MemberID, "0900000001")
	f.Must(err)

	all := f.CheckLog()
	if n := commandstest.Count(all, "ChatMessageSent"); n != 3 {
		t.Fatalf("%d messages", n)
	}
	for _, r := range all {
		if r.Type == "ChatMessageSent.v1" && r.Stream != events.ChatStream(a.MemberID) {
			t.Fatalf("message on %s", r.Stream)
		}
	}

	for _, tc := range []struct {
		name string
		send func() error
		key  string
	}{
		{"another member's file", func() error {
			_, err := chat.SendAsMember(f.Ctx, meta("member:0987654321"), MemberMessage{MemberID: b.MemberID, FileID: img})
			return err
		}, commands.KeyFileNotFound},
		{"unknown member", func() error {
			_, err := chat.SendAsMember(f.Ctx, meta("member:x"), MemberMessage{MemberID: events.MemberID("0900000999"), Text: "x"})
			return err
		}, commands.KeyAccountNotExist},
		{"not a member id", func() error {
			_, err := chat.SendAsMember(f.Ctx, meta("member:x"), MemberMessage{MemberID: "../member-x", Text: "x"})
			return err
		}, commands.KeyAccountNotExist},
		{"too long", func() error {
			_, err := chat.SendAsMember(f.Ctx, meta("member:x"), MemberMessage{MemberID: b.MemberID, Text: strings.Repeat("a", MaxTextRunes+1)})
			return err
		}, KeyMessageTooLong},
		{"empty", func() error {
			_, err := chat.SendAsMember(f.Ctx, meta("member:x"), MemberMessage{MemberID: b.MemberID, Text: "  "})
			return err
		}, KeyMessageEmpty},
		{"ops to no conversation", func() error {
			_, err := chat.SendAsOps(f.Ctx, meta("ops:x"), OpsMessage{MemberID: b.MemberID, Text: "x", By: "x"})
			return err
		}, KeyNotFound},
		{"mark past the end", func() error {
			_, err := chat.MarkSeen(f.Ctx, meta("ops:x"), Mark{MemberID: a.MemberID, Side: events.ChatSideOps, Read: 9})
			return err
		}, commands.KeyInvalidRequest},
	} {
		commandstest.WantKey(t, tc.send(), tc.key)
	}
	if n := len(f.All()); n != len(all) {
		t.Fatalf("refusals wrote %d events", n-len(all))
	}
}
