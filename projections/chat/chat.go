// Package chat is customer service chat's read model: each member's conversation (its state and
// each side's marks) and its messages. Unread counts are counted from the messages past the
// reading side's read mark when asked, so they are replay-equal by construction.
package chat

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/lotbook/lotbook/events"
	"github.com/lotbook/lotbook/projections"
)

// Conversation statuses.
const (
	StatusOpen   = "open"
	StatusClosed = "closed"
)

type convRow struct {
	member, status, lastSide, lastText, lastFile, closedBy string
	lastSeq, lastAt, lastPosition, startedAt               int64
	memberDelivered, memberRead, opsDelivered, opsRead     int64
}

var convMap = projections.RowMap[convRow]{
	projections.Text("member_id", func(r *convRow) *string { return &r.member }),
	projections.Text("status", func(r *convRow) *string { return &r.status }),
	projections.Text("last_side", func(r *convRow) *string { return &r.lastSide }),
	projections.Text("last_text", func(r *convRow) *string { return &r.lastText }),
	projections.Text("last_file", func(r *convRow) *string { return &r.lastFile }),
	projections.Text("closed_by", func(r *convRow) *string { return &r.closedBy }),
	projections.Integer("last_seq", func(r *convRow) *int64 { return &r.lastSeq }),
	projections.Integer("last_at", func(r *convRow) *int64 { return &r.lastAt }),
	projections.Integer("last_position", func(r *convRow) *int64 { return &r.lastPosition }),
	projections.Integer("started_at", func(r *convRow) *int64 { return &r.startedAt }),
	projections.Integer("member_delivered", func(r *convRow) *int64 { return &r.memberDelivered }),
	projections.Integer("member_read", func(r *convRow) *int64 { return &r.memberRead }),
	projections.Integer("ops_delivered", func(r *convRow) *int64 { return &r.opsDelivered }),
	projections.Integer("ops_read", func(r *convRow) *int64 { return &r.opsRead }),
}

type msgRow struct {
	member, side, text, fileID, by string
	seq, at, position              int64
}

var msgMap = projections.RowMap[msgRow]{
	projections.Text("member_id", func(r *msgRow) *string { return &r.member }),
	projections.Integer("seq", func(r *msgRow) *int64 { return &r.seq }),
	projections.Text("side", func(r *msgRow) *string { return &r.side }),
	projections.Text("body", func(r *msgRow) *string { return &r.text }),
	projections.Text("file_id", func(r *msgRow) *string { return &r.fileID }),
	projections.Text("sent_by", func(r *msgRow) *string { return &r.by }),
	projections.Integer("sent_at", func(r *msgRow) *int64 { return &r.at }),
	projections.Integer("position", func(r *msgRow) *int64 { return &r.position }),
}

var convTable = &projections.Table{
	Name:    "chat_conversations",
	Cols:    convMap.Columns(),
	Key:     []string{"member_id"},
	Indexes: []string{"status, last_position", "last_position"},
}

var msgTable = &projections.Table{
	Name: "chat_messages",
	Cols: msgMap.Columns(),
	Key:  []string{"member_id", "seq"},
}

var projector = &projections.Projector{
	Name:    "chat",
	Version: 1,
	Tables:  []*projections.Table{convTable, msgTable},
	Wants: func(p events.Payload) bool {
		switch p.(type) {
		case events.ChatMessageSent, events.ChatMarked, events.ChatClosed:
			return true
		}
		return false
	},
	Apply: apply,
}

func init() {
	projections.Register(projector)
	projections.RegisterFileSharer(sharedInChat)
}

// sharedInChat: a file attached to a message of the member's own conversation (an image ops
// sent them) is the member's to see; another member's conversation shows them nothing.
func sharedInChat(ctx context.Context, rd *projections.Reader, fileID, memberID string) (bool, error) {
	var n int64
	err := rd.Query(ctx, "chat file", "SELECT COUNT(*) FROM chat_messages WHERE member_id = ? AND file_id = ?", []any{memberID, fileID},
		func(rows projections.Rows) error { return rows.Scan(&n) })
	return n > 0, err
}

// memberOf is the member of a chat stream.
func memberOf(stream string) (string, error) {
	prefix := events.ChatStream("")
	if !strings.HasPrefix(stream, prefix) || len(stream) == len(prefix) {
		return "", fmt.Errorf("stream %q is not a chat stream", stream)
	}
	return stream[len(prefix):], nil
}

// apply folds the page over the conversations it touches (loaded once) and inserts its messages.
func apply(ctx context.Context, w *projections.Wtx, evs []projections.Decoded) error {
	convs := map[string]*convRow{}
	for _, d := range evs {
		m, err := memberOf(d.Ev.Stream)
		if err != nil {
			return d.Fail(err)
		}
		convs[m] = nil
	}
	err := w.SelectIn(ctx, convTable, "member_id", projections.KeysOf(convs), func(rows projections.Rows) error {
		var r convRow
		if err := convMap.Scan(rows, &r); err != nil {
			return err
		}
		convs[r.member] = &r
		return nil
	})
	if err != nil {
		return err
	}
	var msgs [][]any
	for _, d := range evs {
		m, _ := memberOf(d.Ev.Stream)
		c := convs[m]
		if c == nil {
			c = &convRow{member: m, status: StatusOpen, startedAt: projections.Micros(d.Ev.Metadata.ServerTime)}
			convs[m] = c
		}
		switch e := d.P.(type) {
		case events.ChatMessageSent:
			at := projections.Micros(d.Ev.Metadata.ServerTime)
			msgs = append(msgs, msgMap.Args(&msgRow{member: m, seq: e.Seq, side: e.Side, text: e.Text, fileID: e.FileID, by: e.By, at: at, position: d.Ev.Position}))
			c.lastSeq, c.lastSide, c.lastText, c.lastFile, c.lastAt, c.lastPosition = e.Seq, e.Side, e.Text, e.FileID, at, d.Ev.Position
			if e.Side == events.ChatSideMember && c.status == StatusClosed {
				c.status, c.closedBy = StatusOpen, ""
			}
		case events.ChatMarked:
			if e.Side == events.ChatSideMember {
				c.memberDelivered, c.memberRead = e.Delivered, e.Read
			} else {
				c.opsDelivered, c.opsRead = e.Delivered, e.Read
			}
		case events.ChatClosed:
			c.status, c.closedBy = StatusClosed, e.By
		}
	}
	rows := make([][]any, 0, len(convs))
	for _, c := range convs {
		rows = append(rows, convMap.Args(c))
	}
	if err := w.Upsert(ctx, msgTable, msgs); err != nil {
		return err
	}
	return w.Upsert(ctx, convTable, rows)
}

// Message is one message of a conversation.
type Message struct {
	Seq            int64
	Side, Text, By string
	FileID         string
	At             time.Time
	Position       int64
}

// Marks are one side's marks of the other side's messages.
type Marks struct{ Delivered, Read int64 }

// Conversation is a member's conversation as either side sees it.
type Conversation struct {
	MemberID, Account, Status, ClosedBy string
	LastSeq                             int64
	LastSide, LastText, LastFileID      string
	LastAt, StartedAt                   time.Time
	Member, Ops                         Marks
	// MemberUnread counts ops messages past the member's read mark; OpsUnread the member's
	// messages past the ops read mark.
	MemberUnread, OpsUnread int64
}

// convSelect reads a conversation with its member's account and both unread counts.
const convSelect = `SELECT c.member_id, COALESCE(mb.account, ''), c.status, c.closed_by, c.last_seq, c.last_side, c.last_text,
 c.last_file, c.last_at, c.started_at, c.member_delivered, c.member_read, c.ops_delivered, c.ops_read,
 (SELECT COUNT(*) FROM chat_messages m WHERE m.member_id = c.member_id AND m.side = 'ops' AND m.seq > c.member_read),
 (SELECT COUNT(*) FROM chat_messages m WHERE m.member_id = c.member_id AND m.side = 'member' AND m.seq > c.ops_read)
 FROM chat_conversations c LEFT JOIN members mb ON mb.member_id = c.member_id `

func scanConv(rows projections.Rows) (Conversation, error) {
	var c Conversation
	var lastAt, startedAt int64
	err := rows.Scan(&c.MemberID, &c.Account, &c.Status, &c.ClosedBy, &c.LastSeq, &c.LastSide, &c.LastText,
		&c.LastFileID, &lastAt, &startedAt, &c.Member.Delivered, &c.Member.Read, &c.Ops.Delivered, &c.Ops.Read,
		&c.MemberUnread, &c.OpsUnread)
	c.LastAt, c.StartedAt = projections.FromMicros(lastAt), projections.FromMicros(startedAt)
	return c, err
}

// Get is the member's conversation; projections.ErrNotFound when they never wrote.
func Get(ctx context.Context, rd *projections.Reader, memberID string) (Conversation, error) {
	var out []Conversation
	err := rd.Query(ctx, "chat conversation", convSelect+"WHERE c.member_id = ?", []any{memberID}, func(rows projections.Rows) error {
		c, err := scanConv(rows)
		out = append(out, c)
		return err
	})
	if err != nil {
		return Conversation{}, err
	}
	if len(out) == 0 {
		return Conversation{}, projections.ErrNotFound
	}
	return out[0], nil
}

// Queue lists conversations of status (all when empty), the latest activity first, and says
// whether there are more.
func Queue(ctx context.Context, rd *projections.Reader, status string, page, size int) ([]Conversation, bool, error) {
	limit, offset := projections.PageArgs(page, size)
	where, args := "", []any{}
	if status != "" {
		where, args = "WHERE c.status = ? ", append(args, status)
	}
	var out []Conversation
	err := rd.Query(ctx, "chat queue", convSelect+where+"ORDER BY c.last_position DESC LIMIT ? OFFSET ?", append(args, limit, offset),
		func(rows projections.Rows) error {
			c, err := scanConv(rows)
			out = append(out, c)
			return err
		})
	if err != nil {
		return nil, false, err
	}
	return projections.TrimPage(out, limit)
}

// MaxMessages bounds one read of messages; a client reads on from the last seq it got.
const MaxMessages = 100

// Messages lists the member's messages after seq after, oldest first, at most limit (1..MaxMessages).
func Messages(ctx context.Context, rd *projections.Reader, memberID string, after int64, limit int) ([]Message, error) {
	out := []Message{}
	err := rd.Query(ctx, "chat messages", "SELECT "+msgMap.List()+" FROM chat_messages WHERE member_id = ? AND seq > ? ORDER BY seq LIMIT ?",
		[]any{memberID, after, min(max(limit, 1), MaxMessages)}, scanMessage(&out))
	return out, err
}

// Before lists the member's last limit messages before seq before (all when before is 0), oldest
// first: the screen's first page, and each earlier page as the member scrolls back.
func Before(ctx context.Context, rd *projections.Reader, memberID string, before int64, limit int) ([]Message, error) {
	if before <= 0 {
		before = math.MaxInt64
	}
	out := []Message{}
	err := rd.Query(ctx, "chat messages", "SELECT "+msgMap.List()+" FROM chat_messages WHERE member_id = ? AND seq < ? ORDER BY seq DESC LIMIT ?",
		[]any{memberID, before, min(max(limit, 1), MaxMessages)}, scanMessage(&out))
	slices.Reverse(out)
	return out, err
}

// scanMessage appends each row to out.
func scanMessage(out *[]Message) func(projections.Rows) error {
	return func(rows projections.Rows) error {
		var r msgRow
		if err := msgMap.Scan(rows, &r); err != nil {
			return err
		}
		*out = append(*out, Message{Seq: r.seq, Side: r.side, Text: r.text, FileID: r.fileID, By: r.by,
			At: projections.FromMicros(r.at), Position: r.position})
		return nil
	}
}
