// Package audit is the auditor's HTTP side: a member's timeline, every event of their streams
// with its postings, journal lines and the balances after it.
package audit

import (
	"fmt"
	"net/http"
	"strconv"

	"github.com/lotbook/lotbook/api/httpx"
	"github.com/lotbook/lotbook/api/wire"
	"github.com/lotbook/lotbook/events"
	"github.com/lotbook/lotbook/projections"
	paudit "github.com/lotbook/lotbook/projections/audit"
)

// Module serves the auditor's routes.
type Module struct {
	read  *projections.ReadDB
	store events.Store
	pages *paudit.Pager // the timeline, with balance checkpoints between pages
}

// New is the audit module over the read models (accounts) and the event store (the timeline).
func New(read *projections.ReadDB, store events.Store) *Module {
	return &Module{read: read, store: store, pages: paudit.NewPager(store, timelineCheckpoints)}
}

// Routes are the auditor's operations of openapi.yaml.
func (m *Module) Routes() []httpx.Route {
	return []httpx.Route{
		httpx.Op(httpx.Auditor, "GET", "/api/vue/audit/accounts/{account}/timeline", httpx.IdemNone, m.timeline),
	}
}

// timelineCheckpoints bounds the balance checkpoints the timeline keeps between pages (a few
// hundred bytes each).
const timelineCheckpoints = 4096

func (m *Module) timeline(c *httpx.Call) (httpx.Reply, error) {
	after, size, err := m.paging(c)
	if err != nil {
		return httpx.Reply{}, err
	}
	account := c.Var("account")
	member, err := m.read.MemberByAccount(c.Ctx(), account)
	if httpx.IsNotFound(err) {
		return httpx.Reply{}, httpx.Refuse(http.StatusNotFound, wire.MessageKeyAccountNotExist, nil)
	}
	if err != nil {
		return httpx.Reply{}, fmt.Errorf("member %s: %w", account, err)
	}
	entries, more, err := m.pages.Page(c.Ctx(), member.MemberID, after, size)
	if err != nil {
		return httpx.Reply{}, fmt.Errorf("timeline of %s after %d: %w", account, after, err)
	}
	out := wire.Timeline{Account: account, Items: make([]wire.TimelineEvent, 0, len(entries))}
	for _, e := range entries {
		ps := make([]wire.Posting, 0, len(e.Postings))
		for _, p := range e.Postings {
			w := wire.Posting{Account: p.Account, Currency: p.Currency, Amount: p.Amount.String()}
			if p.IsShares() {
				w.Security = &p.Security
			}
			ps = append(ps, w)
		}
		lines := make([]wire.TimelineLine, 0, len(e.Lines))
		for _, l := range e.Lines {
			lines = append(lines, wire.TimelineLine{Key: l.Key, Type: l.Type, OrderNo: l.OrderNo, Asset: l.Asset,
				Amount: l.Amount.String(), Status: l.Status, Remark: l.Remark, Instrument: l.Instrument})
		}
		bals := make(map[string]wire.Balance, len(e.Balances))
		for cur, b := range e.Balances {
			bals[cur] = wire.Balance{Available: httpx.Money(b.Available), Frozen: httpx.Money(b.Frozen)}
		}
		summary := e.Summary
		if summary == nil {
			summary = map[string]any{}
		}
		out.Items = append(out.Items, wire.TimelineEvent{
			Position: e.Position, Stream: e.Stream, Version: e.Version, Type: e.Type, Time: e.Time.UTC(),
			Actor: e.Actor, CommandId: e.CommandID, Summary: summary, Postings: ps, Lines: &lines, Balances: bals,
		})
	}
	if more {
		next := strconv.FormatInt(entries[len(entries)-1].Position, 10)
		out.NextCursor = &next
	}
	return httpx.OK(out)
}

// paging reads the timeline's cursor (a log position in plain digits, at most the head:
// no page can have ended beyond it) and size (1..200, 50 by default).
func (m *Module) paging(c *httpx.Call) (after int64, size int, err error) {
	q := c.R.URL.Query()
	size = 50
	if q.Has("size") {
		v := q.Get("size")
		if size, err = httpx.QueryCount(v); err != nil || size < 1 || size > 200 {
			return 0, 0, httpx.InvalidRequest(fmt.Errorf("size %q", v))
		}
	}
	if !q.Has("cursor") {
		return 0, size, nil
	}
	v := q.Get("cursor")
	n, err := httpx.QueryCount(v)
	if err != nil {
		return 0, 0, httpx.InvalidRequest(fmt.Errorf("cursor %q: %w", v, err))
	}
	head, err := m.store.Head(c.Ctx())
	if err != nil {
		return 0, 0, fmt.Errorf("timeline cursor: %w", err)
	}
	if int64(n) > head {
		return 0, 0, httpx.InvalidRequest(fmt.Errorf("cursor %d beyond the head %d", n, head))
	}
	return int64(n), size, nil
}
