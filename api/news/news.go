// Package news is the HTTP side of news and notices: every signed-in user reads the published
// articles and notices with their own read state and unread counts (staff see what members
// see), members mark one read; ops write items through their life (draft, edit, schedule,
// publish, withdraw) and see every item with who did what. News needs a session: the spec
// shows it inside the app, after login, not on the welcome screen.
package news

import (
	"fmt"
	"net/http"
	"time"

	"github.com/lotbook/lotbook/api/httpx"
	"github.com/lotbook/lotbook/api/wire"
	"github.com/lotbook/lotbook/commands"
	newscmd "github.com/lotbook/lotbook/commands/news"
	"github.com/lotbook/lotbook/events"
	"github.com/lotbook/lotbook/projections"
	"github.com/lotbook/lotbook/projections/news"
)

// Module serves the news routes.
type Module struct {
	cmd  *newscmd.Commands
	read *projections.ReadDB
	now  func() time.Time
}

// New is the news module over the kernel k (its commands, and its clock, which decides what
// members see of scheduled items) and the read models.
func New(k *commands.Service, read *projections.ReadDB) *Module {
	return &Module{cmd: newscmd.New(k), read: read, now: k.Now}
}

// Routes are news and notices' operations of openapi.yaml.
func (m *Module) Routes() []httpx.Route {
	return []httpx.Route{
		httpx.Op(httpx.AnyUser, "GET", "/api/vue/news/items", httpx.IdemNone, m.items),
		httpx.Op(httpx.AnyUser, "GET", "/api/vue/news/items/{id}", httpx.IdemNone, m.item),
		httpx.Op(httpx.Member, "POST", "/api/vue/news/items/{id}/read", httpx.IdemRequired, m.markRead),
		httpx.Op(httpx.AnyUser, "GET", "/api/vue/news/unread", httpx.IdemNone, m.unread),
		httpx.Op(httpx.Ops, "GET", "/api/vue/ops/news", httpx.IdemNone, m.opsItems),
		httpx.Op(httpx.Ops, "POST", "/api/vue/ops/news", httpx.IdemRequired, m.draft),
		httpx.Op(httpx.Ops, "GET", "/api/vue/ops/news/{id}", httpx.IdemNone, m.opsItem),
		httpx.Op(httpx.Ops, "POST", "/api/vue/ops/news/{id}/edit", httpx.IdemRequired, onItem("NewsTextRequest", m.edit)),
		httpx.Op(httpx.Ops, "POST", "/api/vue/ops/news/{id}/schedule", httpx.IdemRequired, onItem("NewsScheduleRequest", m.schedule)),
		httpx.Op(httpx.Ops, "POST", "/api/vue/ops/news/{id}/publish", httpx.IdemRequired, onItem("Empty", m.publish)),
		httpx.Op(httpx.Ops, "POST", "/api/vue/ops/news/{id}/withdraw", httpx.IdemRequired, onItem("NewsWithdrawRequest", m.withdraw)),
	}
}

var errNotFound = httpx.Refuse(http.StatusNotFound, newscmd.KeyNewsNotFound, nil)

// notFound maps a read model's "no such row" to 404 news_not_found.
func notFound(err error, what string) error {
	if httpx.IsNotFound(err) {
		return errNotFound
	}
	return fmt.Errorf("%s: %w", what, err)
}

// kindOf reads the kind query value; required says whether it may be absent.
func kindOf(c *httpx.Call, required bool) (string, error) {
	k := c.R.URL.Query().Get("kind")
	if k == "" && !required {
		return "", nil
	}
	if !wire.NewsKind(k).Valid() {
		return "", httpx.Refuse(http.StatusBadRequest, newscmd.KeyNewsKindInvalid, fmt.Errorf("kind %q", k))
	}
	return k, nil
}

func (m *Module) items(c *httpx.Call) (httpx.Reply, error) {
	kind, err := kindOf(c, true)
	if err != nil {
		return httpx.Reply{}, err
	}
	page, size, err := httpx.Paging(c.R.URL.Query())
	if err != nil {
		return httpx.Reply{}, err
	}
	items, more, err := news.Published(c.Ctx(), m.read.Reader, c.Sess.MemberID, kind, m.now(), page, size)
	if err != nil {
		return httpx.Reply{}, fmt.Errorf("news of %s: %w", c.Sess.MemberID, err)
	}
	out := make([]wire.NewsSummary, len(items))
	for i, it := range items {
		out[i] = wire.NewsSummary{Id: it.ID, Kind: wire.NewsKind(it.Kind), TitleTw: it.TitleTW, TitleEn: it.TitleEN, PublishedAt: it.At, Read: it.Read}
	}
	return httpx.OK(wire.NewsPage{Items: out, Page: page, HasMore: more})
}

func (m *Module) item(c *httpx.Call) (httpx.Reply, error) {
	it, err := news.PublishedItem(c.Ctx(), m.read.Reader, c.Sess.MemberID, c.Var("id"), m.now())
	if err != nil {
		return httpx.Reply{}, notFound(err, "news item")
	}
	return httpx.OK(wire.NewsItem{Id: it.ID, Kind: wire.NewsKind(it.Kind), TitleTw: it.TitleTW, TitleEn: it.TitleEN,
		BodyTw: it.BodyTW, BodyEn: it.BodyEN, PublishedAt: it.At, Read: it.Read})
}

func (m *Module) markRead(c *httpx.Call) (httpx.Reply, error) {
	var req wire.Empty
	if err := c.Decode("Empty", &req); err != nil {
		return httpx.Reply{}, err
	}
	res, err := m.cmd.MarkRead(c.Ctx(), c.Meta(), c.Sess.MemberID, c.Var("id"))
	if err != nil {
		return httpx.Reply{}, err
	}
	return httpx.OK(wire.NewsReadResult{Position: res.Position})
}

func (m *Module) unread(c *httpx.Call) (httpx.Reply, error) {
	u, err := news.UnreadCounts(c.Ctx(), m.read.Reader, c.Sess.MemberID, m.now())
	if err != nil {
		return httpx.Reply{}, fmt.Errorf("unread news of %s: %w", c.Sess.MemberID, err)
	}
	return httpx.OK(wire.NewsUnread{Articles: u.Articles, Notices: u.Notices})
}

func opsSummary(it news.Item) wire.OpsNewsSummary {
	s := wire.OpsNewsSummary{Id: it.ID, Kind: wire.NewsKind(it.Kind), State: wire.NewsState(it.State), TitleTw: it.TitleTW, TitleEn: it.TitleEN,
		CreatedBy: it.CreatedBy, CreatedAt: it.CreatedAt, UpdatedBy: it.UpdatedBy, UpdatedAt: it.UpdatedAt}
	if !it.At.IsZero() {
		at := it.At
		s.At = &at
	}
	return s
}

func (m *Module) opsItems(c *httpx.Call) (httpx.Reply, error) {
	kind, err := kindOf(c, false)
	if err != nil {
		return httpx.Reply{}, err
	}
	state := c.R.URL.Query().Get("state")
	if state != "" && !wire.NewsState(state).Valid() {
		return httpx.Reply{}, httpx.InvalidRequest(fmt.Errorf("state %q", state))
	}
	page, size, err := httpx.Paging(c.R.URL.Query())
	if err != nil {
		return httpx.Reply{}, err
	}
	items, more, err := news.All(c.Ctx(), m.read.Reader, kind, state, m.now(), page, size)
	if err != nil {
		return httpx.Reply{}, fmt.Errorf("ops news: %w", err)
	}
	out := make([]wire.OpsNewsSummary, len(items))
	for i, it := range items {
		out[i] = opsSummary(it)
	}
	return httpx.OK(wire.OpsNewsPage{Items: out, Page: page, HasMore: more})
}

// opsDetail is the OpsNewsDetail schema: the summary with the bodies and the history (same
// JSON as the generated struct, without copying every field).
type opsDetail struct {
	wire.OpsNewsSummary
	BodyTw  string            `json:"bodyTw"`
	BodyEn  string            `json:"bodyEn"`
	History []wire.NewsAction `json:"history"`
}

func (m *Module) opsItem(c *httpx.Call) (httpx.Reply, error) {
	id := c.Var("id")
	it, err := news.Get(c.Ctx(), m.read.Reader, id, m.now())
	if err != nil {
		return httpx.Reply{}, notFound(err, "news item")
	}
	h, err := news.History(c.Ctx(), m.read.Reader, id)
	if err != nil {
		return httpx.Reply{}, err
	}
	out := opsDetail{OpsNewsSummary: opsSummary(it), BodyTw: it.BodyTW, BodyEn: it.BodyEN, History: make([]wire.NewsAction, len(h))}
	for i, a := range h {
		out.History[i] = wire.NewsAction{Action: a.Action, Actor: a.Actor, At: a.At}
	}
	return httpx.OK(out)
}

func (m *Module) draft(c *httpx.Call) (httpx.Reply, error) {
	var req wire.NewsDraftRequest
	if err := c.Decode("NewsDraftRequest", &req); err != nil {
		return httpx.Reply{}, err
	}
	id, res, err := m.cmd.CreateDraft(c.Ctx(), c.Meta(), newscmd.Draft{Kind: string(req.Kind),
		Text: events.NewsText{TitleTW: req.TitleTw, TitleEN: req.TitleEn, BodyTW: req.BodyTw, BodyEN: req.BodyEn}})
	if err != nil {
		return httpx.Reply{}, err
	}
	return httpx.OK(wire.NewsWriteResult{Id: id, Position: res.Position})
}

// onItem is the handler of an ops command on item {id}: it decodes the request of schema, sends
// the command and answers the item's id with the log position.
func onItem[Req any](schema string, send func(c *httpx.Call, id string, req Req) (commands.Result, error)) httpx.Handler {
	return func(c *httpx.Call) (httpx.Reply, error) {
		var req Req
		if err := c.Decode(schema, &req); err != nil {
			return httpx.Reply{}, err
		}
		id := c.Var("id")
		res, err := send(c, id, req)
		if err != nil {
			return httpx.Reply{}, err
		}
		return httpx.OK(wire.NewsWriteResult{Id: id, Position: res.Position})
	}
}

func (m *Module) edit(c *httpx.Call, id string, req wire.NewsTextRequest) (commands.Result, error) {
	return m.cmd.Edit(c.Ctx(), c.Meta(), id, events.NewsText{TitleTW: req.TitleTw, TitleEN: req.TitleEn, BodyTW: req.BodyTw, BodyEN: req.BodyEn})
}

func (m *Module) schedule(c *httpx.Call, id string, req wire.NewsScheduleRequest) (commands.Result, error) {
	return m.cmd.Schedule(c.Ctx(), c.Meta(), id, req.At)
}

func (m *Module) publish(c *httpx.Call, id string, _ wire.Empty) (commands.Result, error) {
	return m.cmd.Publish(c.Ctx(), c.Meta(), id)
}

func (m *Module) withdraw(c *httpx.Call, id string, req wire.NewsWithdrawRequest) (commands.Result, error) {
	return m.cmd.Withdraw(c.Ctx(), c.Meta(), id, httpx.Deref(req.Reason))
}
