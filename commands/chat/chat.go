// Package chat is customer service chat on the write side: one conversation per member on its
// own stream (chat-<memberID>), written by the member and by any ops user. The member's id always
// comes from their session (the API passes it), so a member writes only to their own
// conversation; an image message must reference one of the member's own uploads, checked on the
// member's stream as deposit proofs are.
package chat

import (
	"context"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/lotbook/lotbook/commands"
	"github.com/lotbook/lotbook/events"
)

// Refusal keys of chat (message keys of the HTTP contract).
const (
	KeyMessageEmpty   = "chat_message_empty"
	KeyMessageTooLong = "chat_message_too_long"
	KeyNotFound       = "chat_not_found"
)

// MaxTextRunes bounds a message's text: a chat line, not a document.
const MaxTextRunes = 1000

// conversation is a member's conversation: how many messages, each side's marks, open or closed.
type conversation struct {
	seq    int64
	marks  map[string]events.ChatMarked // by the side that marked
	closed bool
}

func newConversation(string) commands.State {
	return &conversation{marks: map[string]events.ChatMarked{}}
}

func init() { commands.RegisterStreams(events.ChatStream(""), newConversation) }

// Apply evolves the conversation.
func (c *conversation) Apply(_ events.RecordedEvent, p events.Payload) {
	switch e := p.(type) {
	case events.ChatMessageSent:
		c.seq = e.Seq
		if e.Side == events.ChatSideMember {
			c.closed = false
		}
	case events.ChatMarked:
		c.marks[e.Side] = e
	case events.ChatClosed:
		c.closed = true
	}
}

// CleanText trims a message's text and checks it: valid UTF-8, no control characters but line
// breaks and tabs, at most MaxTextRunes. Empty text is allowed here (an image needs none).
func CleanText(text string) (string, error) {
	text = strings.TrimSpace(text)
	if !utf8.ValidString(text) {
		return "", commands.Invalid(commands.KeyInvalidRequest)
	}
	if utf8.RuneCountInString(text) > MaxTextRunes {
		return "", commands.Invalid(KeyMessageTooLong)
	}
	for _, r := range text {
		if unicode.IsControl(r) && r != '\n' && r != '\t' {
			return "", commands.Invalid(commands.KeyInvalidRequest)
		}
	}
	return text, nil
}

// decideSend appends one message from side. A member's message may start the conversation (and
// reopens a closed one); ops answer only a conversation a member started.
func decideSend(c *conversation, side, text, fileID, by string) ([]events.Payload, error) {
	if text == "" && fileID == "" {
		return nil, commands.Invalid(KeyMessageEmpty)
	}
	if side == events.ChatSideOps && c.seq == 0 {
		return nil, commands.NotFound(KeyNotFound)
	}
	return []events.Payload{events.ChatMessageSent{Seq: c.seq + 1, Side: side, Text: text, FileID: fileID, By: by}}, nil
}

// decideMark moves side's marks of the other side's messages forward: read implies delivered, a
// mark never moves back, and a mark past the last message is refused. No move writes nothing.
func decideMark(c *conversation, side string, delivered, read int64) ([]events.Payload, error) {
	if delivered < 0 || read < 0 || delivered > c.seq || read > c.seq {
		return nil, commands.Invalid(commands.KeyInvalidRequest)
	}
	old := c.marks[side]
	next := events.ChatMarked{Side: side, Read: max(old.Read, read)}
	next.Delivered = max(old.Delivered, delivered, next.Read)
	if next == old || next == (events.ChatMarked{Side: side}) {
		return nil, nil
	}
	return []events.Payload{next}, nil
}

// decideClose closes an open conversation; closing a closed one changes nothing.
func decideClose(c *conversation, by string) ([]events.Payload, error) {
	if c.seq == 0 {
		return nil, commands.NotFound(KeyNotFound)
	}
	if c.closed {
		return nil, nil
	}
	return []events.Payload{events.ChatClosed{By: by}}, nil
}

// Commands are chat's commands over the kernel k.
type Commands struct{ k *commands.Service }

// New returns chat's commands over the kernel k.
func New(k *commands.Service) *Commands { return &Commands{k: k} }

// MemberMessage is a member's message to customer service; MemberID is the session's.
type MemberMessage struct{ MemberID, Text, FileID string }

// OpsMessage is an ops user's answer in a member's conversation; By is the ops account and ByID
// their id (whose uploads an attached image must be among).
type OpsMessage struct{ MemberID, Text, FileID, By, ByID string }

// Mark is side's delivered and read marks in a member's conversation.
type Mark struct {
	MemberID, Side  string
	Delivered, Read int64
}

// Sent answers a message: its seq in the conversation and the event's position.
type Sent struct {
	Seq      int64
	Position int64
}

// SendAsMember appends the member's message. The member must exist, be enabled, and own the
// image they attach.
func (s *Commands) SendAsMember(ctx context.Context, meta commands.Meta, in MemberMessage) (Sent, error) {
	c, text, err := s.begin(meta, "chat.member.send", in.MemberID, in.Text, commands.KeyAccountNotExist)
	if err != nil {
		return Sent{}, err
	}
	refusal, err := commands.View(ctx, s.k, events.MemberStream(in.MemberID), func(m *commands.Member, _ *commands.Entry) error {
		return memberMayWrite(m, in.FileID)
	})
	if err != nil {
		return Sent{}, err
	}
	if refusal != nil {
		return Sent{}, refusal
	}
	return s.send(ctx, c, in.MemberID, func(cv *conversation) ([]events.Payload, error) {
		return decideSend(cv, events.ChatSideMember, text, in.FileID, "")
	})
}

// memberMayWrite: a registered, enabled member, and an attached file among their uploads (a
// foreign or unknown file id is not found, as the files module answers it).
func memberMayWrite(m *commands.Member, fileID string) error {
	if !m.IsMember() {
		return commands.NotFound(commands.KeyAccountNotExist)
	}
	if err := m.RefuseFlags(events.FlagDisabled); err != nil {
		return err
	}
	if fileID != "" && !m.OwnsFile(fileID) {
		return commands.NotFound(commands.KeyFileNotFound)
	}
	return nil
}

// SendAsOps appends an ops user's answer, attributed to them; an attached image must be among
// the ops user's own uploads (checked on their stream as a member's are).
func (s *Commands) SendAsOps(ctx context.Context, meta commands.Meta, in OpsMessage) (Sent, error) {
	c, text, err := s.begin(meta, "chat.ops.send", in.MemberID, in.Text, KeyNotFound)
	if err != nil {
		return Sent{}, err
	}
	if in.FileID != "" {
		if !commands.ValidMemberID(in.ByID) {
			return Sent{}, commands.NotFound(commands.KeyFileNotFound)
		}
		refusal, err := commands.View(ctx, s.k, events.MemberStream(in.ByID), func(m *commands.Member, _ *commands.Entry) error {
			if !m.OwnsFile(in.FileID) {
				return commands.NotFound(commands.KeyFileNotFound)
			}
			return nil
		})
		if err != nil {
			return Sent{}, err
		}
		if refusal != nil {
			return Sent{}, refusal
		}
	}
	return s.send(ctx, c, in.MemberID, func(cv *conversation) ([]events.Payload, error) {
		return decideSend(cv, events.ChatSideOps, text, in.FileID, in.By)
	})
}

// begin starts a message: the command, its text cleaned, and the member's id checked (an id that
// cannot be a member's answers notFound).
func (s *Commands) begin(meta commands.Meta, name, memberID, text, notFound string) (commands.Cmd, string, error) {
	c, err := s.k.Begin(meta, name)
	if err != nil {
		return commands.Cmd{}, "", err
	}
	if text, err = CleanText(text); err != nil {
		return commands.Cmd{}, "", err
	}
	if !commands.ValidMemberID(memberID) {
		return commands.Cmd{}, "", commands.NotFound(notFound)
	}
	return c, text, nil
}

func (s *Commands) send(ctx context.Context, c commands.Cmd, memberID string, decide func(*conversation) ([]events.Payload, error)) (Sent, error) {
	rec, err := commands.Execute(ctx, s.k, c, events.ChatStream(memberID), decide)
	if err != nil {
		return Sent{}, err
	}
	for _, p := range rec.Payloads {
		if e, ok := p.(events.ChatMessageSent); ok {
			return Sent{Seq: e.Seq, Position: rec.Position}, nil
		}
	}
	return Sent{Position: rec.Position}, nil
}

// MarkSeen moves side's marks in the member's conversation.
func (s *Commands) MarkSeen(ctx context.Context, meta commands.Meta, in Mark) (commands.Result, error) {
	c, err := s.k.Begin(meta, "chat.mark")
	if err != nil {
		return commands.Result{}, err
	}
	if in.Side != events.ChatSideMember && in.Side != events.ChatSideOps {
		return commands.Result{}, commands.Invalid(commands.KeyInvalidRequest)
	}
	if !commands.ValidMemberID(in.MemberID) {
		return commands.Result{}, commands.NotFound(KeyNotFound)
	}
	rec, err := commands.Execute(ctx, s.k, c, events.ChatStream(in.MemberID), func(cv *conversation) ([]events.Payload, error) {
		return decideMark(cv, in.Side, in.Delivered, in.Read)
	})
	if err != nil {
		return commands.Result{}, err
	}
	return commands.Result{Position: rec.Position}, nil
}

// Close closes the member's conversation, attributed to the ops user by.
func (s *Commands) Close(ctx context.Context, meta commands.Meta, memberID, by string) (commands.Result, error) {
	c, err := s.k.Begin(meta, "chat.close")
	if err != nil {
		return commands.Result{}, err
	}
	if !commands.ValidMemberID(memberID) {
		return commands.Result{}, commands.NotFound(KeyNotFound)
	}
	rec, err := commands.Execute(ctx, s.k, c, events.ChatStream(memberID), func(cv *conversation) ([]events.Payload, error) {
		return decideClose(cv, by)
	})
	if err != nil {
		return commands.Result{}, err
	}
	return commands.Result{Position: rec.Position}, nil
}
