package api

import (
	"fmt"
	"net/http"
	"strconv"

	"github.com/gorilla/mux"

	"github.com/lotbook/lotbook/api/httpx"
	"github.com/lotbook/lotbook/api/wire"
	"github.com/lotbook/lotbook/projections"
)

func flagsOut(fs []string) []wire.AccountFlag {
	out := make([]wire.AccountFlag, 0, len(fs))
	for _, f := range fs {
		out = append(out, wire.AccountFlag(f))
	}
	return out
}

func (s *server) opsMembers(c *httpx.Call) (httpx.Reply, error) {
	q := c.R.URL.Query()
	page, size, err := httpx.Paging(q)
	if err != nil {
		return httpx.Reply{}, err
	}
	var ms []projections.Member
	var more bool
	var statuses map[string]wire.RealNameStatus
	err = s.snapshot(c, func(rd *projections.Reader) error {
		if ms, more, err = rd.Members(c.Ctx(), q.Get("q"), page, size); err != nil {
			return fmt.Errorf("members: %w", err)
		}
		ids := make([]string, 0, len(ms))
		for _, m := range ms {
			ids = append(ids, m.MemberID)
		}
		statuses, err = realNameStatuses(c.Ctx(), rd, ids...)
		return err
	})
	if err != nil {
		return httpx.Reply{}, err
	}
	items := make([]wire.OpsMember, 0, len(ms))
	for _, m := range ms {
		items = append(items, wire.OpsMember{
			Account: m.Account, Role: wire.Role(m.Role), RealNameStatus: statuses[m.MemberID],
			Flags: flagsOut(m.Flags), CreatedAt: m.CreatedAt.UTC(),
		})
	}
	return httpx.OK(wire.OpsMemberPage{Items: items, Page: page, HasMore: more})
}

func (s *server) setFlag(c *httpx.Call) (httpx.Reply, error) {
	var req wire.SetFlagRequest
	if err := c.Decode("SetFlagRequest", &req); err != nil {
		return httpx.Reply{}, err
	}
	account := mux.Vars(c.R)["account"]
	res, err := s.cmd.SetAccountFlag(c.Ctx(), c.Meta(), account, string(req.Flag), req.On, req.Reason)
	if err != nil {
		return httpx.Reply{}, err
	}
	// The flags after the change: the read model once it has projected this command.
	s.catchUpTo(c.Ctx(), res.Position)
	m, err := s.read.MemberByAccount(c.Ctx(), account)
	if err != nil {
		return httpx.Reply{}, fmt.Errorf("member %s: %w", account, err)
	}
	return httpx.OK(wire.FlagResult{Account: account, Flags: flagsOut(m.Flags), Position: res.Position})
}

// timelineCheckpoints bounds the balance checkpoints the timeline keeps between pages (a few
// hundred bytes each).
const timelineCheckpoints = 4096

func (s *server) timeline(c *httpx.Call) (httpx.Reply, error) {
	after, size, err := s.timelinePaging(c)
	if err != nil {
		return httpx.Reply{}, err
	}
	account := mux.Vars(c.R)["account"]
	m, err := s.read.MemberByAccount(c.Ctx(), account)
	if httpx.IsNotFound(err) {
		return httpx.Reply{}, httpx.Refuse(http.StatusNotFound, wire.MessageKeyAccountNotExist, nil)
	}
	if err != nil {
		return httpx.Reply{}, fmt.Errorf("member %s: %w", account, err)
	}
	entries, more, err := s.pages.Page(c.Ctx(), m.MemberID, after, size)
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
			bals[cur] = wire.Balance{Available: money(b.Available), Frozen: money(b.Frozen)}
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

// timelinePaging reads the timeline's cursor (a log position in plain digits, at most the head:
// no page can have ended beyond it) and size (1..200, 50 by default).
func (s *server) timelinePaging(c *httpx.Call) (after int64, size int, err error) {
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
	head, err := s.store.Head(c.Ctx())
	if err != nil {
		return 0, 0, fmt.Errorf("timeline cursor: %w", err)
	}
	if int64(n) > head {
		return 0, 0, httpx.InvalidRequest(fmt.Errorf("cursor %d beyond the head %d", n, head))
	}
	return int64(n), size, nil
}
