// Package chat is customer service chat's HTTP side: the member's conversation (always their
// own: the member is the session's), ops' queue of conversations and their answers, and the
// socket: new messages, marks and closing pushed from the event log to the member's sockets and
// to every ops socket, typing relayed between them and never stored.
package chat

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/hashicorp/golang-lru/v2/simplelru"

	"github.com/lotbook/lotbook/api/httpx"
	"github.com/lotbook/lotbook/api/wire"
	"github.com/lotbook/lotbook/commands"
	chatcmd "github.com/lotbook/lotbook/commands/chat"
	"github.com/lotbook/lotbook/events"
	"github.com/lotbook/lotbook/projections"
	"github.com/lotbook/lotbook/projections/chat"
)

// Commands are the write side's chat operations this module sends (*chatcmd.Commands).
type Commands interface {
	SendAsMember(ctx context.Context, meta commands.Meta, in chatcmd.MemberMessage) (chatcmd.Sent, error)
	SendAsOps(ctx context.Context, meta commands.Meta, in chatcmd.OpsMessage) (chatcmd.Sent, error)
	MarkSeen(ctx context.Context, meta commands.Meta, in chatcmd.Mark) (commands.Result, error)
	Close(ctx context.Context, meta commands.Meta, memberID, by string) (commands.Result, error)
}

// Module serves chat's routes and its socket pushes.
type Module struct {
	cmd       Commands
	read      *projections.ReadDB
	store     events.Store
	perMember *httpx.Limiter // messages a member may send
	log       *slog.Logger
	accounts  *accountCache
}

// New is the chat module over its commands, the read models and the event log (which its pushes
// follow); perMember limits how fast a member sends.
func New(cmd Commands, read *projections.ReadDB, store events.Store, perMember *httpx.Limiter, log *slog.Logger) *Module {
	return &Module{cmd: cmd, read: read, store: store, perMember: perMember, log: log, accounts: newAccountCache(read, log)}
}

// Routes are chat's operations of openapi.yaml.
func (m *Module) Routes() []httpx.Route {
	return []httpx.Route{
		httpx.Op(httpx.Member, "GET", "/api/vue/chat", httpx.IdemNone, m.conversation),
		httpx.Op(httpx.Member, "POST", "/api/vue/chat/messages", httpx.IdemRequired, m.send),
		httpx.Op(httpx.Member, "POST", "/api/vue/chat/marks", httpx.IdemRequired, m.mark),
		httpx.Op(httpx.Ops, "GET", "/api/vue/ops/chats", httpx.IdemNone, m.queue),
		httpx.Op(httpx.Ops, "GET", "/api/vue/ops/chats/{account}", httpx.IdemNone, m.opsConversation),
		httpx.Op(httpx.Ops, "POST", "/api/vue/ops/chats/{account}/messages", httpx.IdemRequired, m.reply),
		httpx.Op(httpx.Ops, "POST", "/api/vue/ops/chats/{account}/marks", httpx.IdemRequired, m.opsMark),
		httpx.Op(httpx.Ops, "POST", "/api/vue/ops/chats/{account}/close", httpx.IdemRequired, m.close),
	}
}

var errNoChat = httpx.Refuse(http.StatusNotFound, wire.MessageKeyChatNotFound, nil)

// window is which messages a read asks for: those after a seq (after >= 0), else the last
// ones before a seq (before > 0), else the latest.
type window struct{ after, before int64 }

// windowOf reads the after and before queries (message seqs); at most one of them.
func windowOf(c *httpx.Call) (window, error) {
	w := window{after: -1}
	q := c.R.URL.Query()
	for _, p := range []struct {
		name string
		dst  *int64
	}{{"after", &w.after}, {"before", &w.before}} {
		if v := q.Get(p.name); v != "" {
			n, err := httpx.QueryCount(v)
			if err != nil {
				return window{}, httpx.InvalidRequest(err)
			}
			*p.dst = int64(n)
		}
	}
	if w.after >= 0 && w.before > 0 {
		return window{}, httpx.InvalidRequest(errors.New("after and before"))
	}
	return w, nil
}

// read reads a member's conversation and its messages in one snapshot.
func read(c *httpx.Call, memberID, account string, w window) (wire.ChatView, error) {
	var conv chat.Conversation
	var msgs []chat.Message
	err := c.Snapshot(func(rd *projections.Reader) error {
		var err error
		conv, err = chat.Get(c.Ctx(), rd, memberID)
		if httpx.IsNotFound(err) {
			conv, msgs = chat.Conversation{Status: string(wire.ChatViewStatusNone)}, nil
			return nil
		}
		if err != nil {
			return err
		}
		if w.after >= 0 {
			msgs, err = chat.Messages(c.Ctx(), rd, memberID, w.after, chat.MaxMessages)
		} else {
			msgs, err = chat.Before(c.Ctx(), rd, memberID, w.before, chat.MaxMessages)
		}
		return err
	})
	if err != nil {
		return wire.ChatView{}, err
	}
	out := wire.ChatView{
		Account: account, Status: wire.ChatViewStatus(conv.Status), LastSeq: conv.LastSeq,
		MemberUnread: conv.MemberUnread, OpsUnread: conv.OpsUnread,
		Member:   wire.ChatMarks{Delivered: conv.Member.Delivered, Read: conv.Member.Read},
		Ops:      wire.ChatMarks{Delivered: conv.Ops.Delivered, Read: conv.Ops.Read},
		Messages: make([]wire.ChatMessage, 0, len(msgs)),
	}
	if conv.ClosedBy != "" {
		out.ClosedBy = &conv.ClosedBy
	}
	for _, msg := range msgs {
		out.Messages = append(out.Messages, messageOut(msg.Seq, msg.Side, msg.Text, msg.FileID, msg.By, msg.At))
	}
	return out, nil
}

func messageOut(seq int64, side, text, fileID, by string, at time.Time) wire.ChatMessage {
	out := wire.ChatMessage{Seq: seq, Side: wire.ChatMessageSide(side), Text: text, At: at.UTC()}
	if fileID != "" {
		out.FileId = &fileID
	}
	if by != "" {
		out.By = &by
	}
	return out
}

func (m *Module) conversation(c *httpx.Call) (httpx.Reply, error) {
	w, err := windowOf(c)
	if err != nil {
		return httpx.Reply{}, err
	}
	v, err := read(c, c.Sess.MemberID, c.Sess.Account, w)
	if err != nil {
		return httpx.Reply{}, err
	}
	return httpx.OK(v)
}

func (m *Module) send(c *httpx.Call) (httpx.Reply, error) {
	if err := httpx.Limit(c, func() (bool, time.Duration) { return m.perMember.Allow(c.Sess.MemberID) }); err != nil {
		return httpx.Reply{}, httpx.Refuse(http.StatusTooManyRequests, wire.MessageKeyChatRateLimited, err)
	}
	var req wire.ChatSendRequest
	if err := c.Decode("ChatSendRequest", &req); err != nil {
		return httpx.Reply{}, err
	}
	res, err := m.cmd.SendAsMember(c.Ctx(), c.Meta(), chatcmd.MemberMessage{MemberID: c.Sess.MemberID, Text: httpx.Deref(req.Text), FileID: httpx.Deref(req.FileId)})
	if err != nil {
		return httpx.Reply{}, err
	}
	return httpx.OK(wire.ChatSendResult{Seq: res.Seq, Position: res.Position})
}

func (m *Module) mark(c *httpx.Call) (httpx.Reply, error) {
	return m.markAs(c, c.Sess.MemberID, events.ChatSideMember)
}

func (m *Module) markAs(c *httpx.Call, memberID, side string) (httpx.Reply, error) {
	var req wire.ChatMarkRequest
	if err := c.Decode("ChatMarkRequest", &req); err != nil {
		return httpx.Reply{}, err
	}
	res, err := m.cmd.MarkSeen(c.Ctx(), c.Meta(), chatcmd.Mark{MemberID: memberID, Side: side, Delivered: httpx.Deref(req.Delivered), Read: httpx.Deref(req.Read)})
	if err != nil {
		return httpx.Reply{}, err
	}
	return httpx.OK(wire.CommandResult{Position: res.Position})
}

func (m *Module) queue(c *httpx.Call) (httpx.Reply, error) {
	status, page, size, err := httpx.QueueQuery(c, chat.StatusOpen, func(s string) bool {
		return s == chat.StatusOpen || s == chat.StatusClosed || s == "all"
	})
	if err != nil {
		return httpx.Reply{}, err
	}
	if status == "all" {
		status = ""
	}
	var convs []chat.Conversation
	var more bool
	err = c.Snapshot(func(rd *projections.Reader) (err error) {
		convs, more, err = chat.Queue(c.Ctx(), rd, status, page, size)
		return err
	})
	if err != nil {
		return httpx.Reply{}, err
	}
	items := make([]wire.ChatSummary, 0, len(convs))
	for _, cv := range convs {
		items = append(items, wire.ChatSummary{
			Account: cv.Account, Status: wire.ChatSummaryStatus(cv.Status), LastSeq: cv.LastSeq,
			LastSide: wire.ChatSummaryLastSide(cv.LastSide), LastText: cv.LastText, HasImage: cv.LastFileID != "",
			LastAt: cv.LastAt.UTC(), OpsUnread: cv.OpsUnread,
		})
	}
	return httpx.OK(wire.ChatQueuePage{Items: items, Page: page, HasMore: more})
}

// member is the member the path's account names: a member (never a staff user) with a
// conversation or about to be answered; anything else is chat_not_found.
func (m *Module) member(c *httpx.Call) (string, error) {
	account := c.Var("account")
	mem, err := m.read.MemberByAccount(c.Ctx(), account)
	if httpx.IsNotFound(err) || err == nil && mem.Role != events.RoleMember {
		return "", errNoChat
	}
	if err != nil {
		return "", fmt.Errorf("member %s: %w", account, err)
	}
	return mem.MemberID, nil
}

func (m *Module) opsConversation(c *httpx.Call) (httpx.Reply, error) {
	w, err := windowOf(c)
	if err != nil {
		return httpx.Reply{}, err
	}
	id, err := m.member(c)
	if err != nil {
		return httpx.Reply{}, err
	}
	v, err := read(c, id, c.Var("account"), w)
	if err != nil {
		return httpx.Reply{}, err
	}
	if v.Status == wire.ChatViewStatusNone {
		return httpx.Reply{}, errNoChat
	}
	return httpx.OK(v)
}

func (m *Module) reply(c *httpx.Call) (httpx.Reply, error) {
	var req wire.ChatReplyRequest
	if err := c.Decode("ChatReplyRequest", &req); err != nil {
		return httpx.Reply{}, err
	}
	id, err := m.member(c)
	if err != nil {
		return httpx.Reply{}, err
	}
	res, err := m.cmd.SendAsOps(c.Ctx(), c.Meta(), chatcmd.OpsMessage{MemberID: id, Text: httpx.Deref(req.Text), FileID: httpx.Deref(req.FileId), By: c.Sess.Account, ByID: c.Sess.MemberID})
	if err != nil {
		return httpx.Reply{}, err
	}
	return httpx.OK(wire.ChatSendResult{Seq: res.Seq, Position: res.Position})
}

func (m *Module) opsMark(c *httpx.Call) (httpx.Reply, error) {
	id, err := m.member(c)
	if err != nil {
		return httpx.Reply{}, err
	}
	return m.markAs(c, id, events.ChatSideOps)
}

func (m *Module) close(c *httpx.Call) (httpx.Reply, error) {
	var req wire.Empty
	if err := c.Decode("Empty", &req); err != nil {
		return httpx.Reply{}, err
	}
	id, err := m.member(c)
	if err != nil {
		return httpx.Reply{}, err
	}
	res, err := m.cmd.Close(c.Ctx(), c.Meta(), id, c.Sess.Account)
	if err != nil {
		return httpx.Reply{}, err
	}
	return httpx.OK(wire.CommandResult{Position: res.Position})
}

// SocketOp relays typing (httpx.SocketReceiver): a member's to every ops socket, an ops user's
// to the sockets of the member whose account the request names. Nothing is stored.
func (m *Module) SocketOp(ctx context.Context, req wire.WsRequest, sess httpx.SocketSession, s httpx.Sockets) (bool, wire.MessageKey) {
	if req.Op != wire.WsOpTyping {
		return false, ""
	}
	switch sess.Role {
	case events.RoleMember:
		side := wire.WsChatFrameSideMember
		s.ToOps(wire.WsChatFrame{Type: wire.WsChatFrameTypeChat, Kind: wire.WsChatFrameKindTyping, Account: sess.Account, Side: &side})
	case events.RoleOps:
		account := httpx.Deref(req.Account)
		mem, err := m.read.MemberByAccount(ctx, account)
		if err != nil || mem.Role != events.RoleMember {
			return true, wire.MessageKeyChatNotFound
		}
		side := wire.WsChatFrameSideOps
		s.ToMember(mem.MemberID, wire.WsChatFrame{Type: wire.WsChatFrameTypeChat, Kind: wire.WsChatFrameKindTyping, Account: account, Side: &side})
	default:
		return true, wire.MessageKeyForbidden
	}
	return true, ""
}

// Push follows the event log and pushes every chat event to the member's sockets and to every
// ops socket (httpx.Pusher). Following the log, not the handlers, is what makes a message
// written on another instance, or by the seed, reach the sockets too.
func (m *Module) Push(ctx context.Context, s httpx.Sockets) error {
	return httpx.FollowLog(ctx, m.store, m.log, "chat push", func(ctx context.Context, r events.RecordedEvent) { m.push(ctx, s, r) })
}

// push pushes one event of the log when it is a chat event.
func (m *Module) push(ctx context.Context, s httpx.Sockets, r events.RecordedEvent) {
	memberID, ok := strings.CutPrefix(r.Stream, events.ChatStream(""))
	if !ok {
		return
	}
	p, err := events.DecodeRecorded(r)
	if err != nil {
		m.log.ErrorContext(ctx, "chat push: decode", "position", r.Position, "err", err)
		return
	}
	pos := r.Position
	f := wire.WsChatFrame{Type: wire.WsChatFrameTypeChat, Account: m.accounts.of(ctx, memberID), Position: &pos}
	switch e := p.(type) {
	case events.ChatMessageSent:
		msg := messageOut(e.Seq, e.Side, e.Text, e.FileID, e.By, r.Metadata.ServerTime)
		f.Kind, f.Message = wire.WsChatFrameKindMessage, &msg
	case events.ChatMarked:
		side := wire.WsChatFrameSide(e.Side)
		f.Kind, f.Side, f.Marks = wire.WsChatFrameKindMarks, &side, &wire.ChatMarks{Delivered: e.Delivered, Read: e.Read}
	case events.ChatClosed:
		f.Kind = wire.WsChatFrameKindClosed
	default:
		return
	}
	s.ToMember(memberID, f)
	s.ToOps(f)
}

// accountCache remembers members' accounts (an account never changes) for the pushes, bounded;
// only the Push goroutine uses it.
type accountCache struct {
	read *projections.ReadDB
	log  *slog.Logger
	lru  *simplelru.LRU[string, string]
}

const maxCachedAccounts = 10_000

func newAccountCache(read *projections.ReadDB, log *slog.Logger) *accountCache {
	lru, err := simplelru.NewLRU[string, string](maxCachedAccounts, nil)
	if err != nil {
		panic("chat: account cache: " + err.Error()) // a positive constant size
	}
	return &accountCache{read: read, log: log, lru: lru}
}

// of is the member's account; "" when the read model does not know it yet (the frame still
// reaches the member; ops re-read their queue).
func (a *accountCache) of(ctx context.Context, memberID string) string {
	if acc, ok := a.lru.Get(memberID); ok {
		return acc
	}
	mem, err := a.read.MemberByID(ctx, memberID)
	if err != nil {
		if !errors.Is(err, projections.ErrNotFound) && ctx.Err() == nil {
			a.log.WarnContext(ctx, "chat push: member account", "member", memberID, "err", err)
		}
		return ""
	}
	a.lru.Add(memberID, mem.Account)
	return mem.Account
}
