package api

import (
	"errors"
	"fmt"
	"net/http"

	"github.com/gorilla/mux"

	"github.com/lotbook/lotbook/api/wire"
	"github.com/lotbook/lotbook/projections"
	"github.com/lotbook/lotbook/projections/audit"
)

func isNotFound(err error) bool { return errors.Is(err, projections.ErrNotFound) }

func flagsOut(fs []string) []wire.AccountFlag {
	out := make([]wire.AccountFlag, 0, len(fs))
	for _, f := range fs {
		out = append(out, wire.AccountFlag(f))
	}
	return out
}

func (s *server) opsMembers(c *call) (reply, error) {
	q := c.r.URL.Query()
	page, size, err := paging(q)
	if err != nil {
		return reply{}, err
	}
	var ms []projections.Member
	var more bool
	var statuses map[string]wire.RealNameStatus
	err = s.snapshot(c, func(rd *projections.Reader) error {
		if ms, more, err = rd.Members(c.ctx(), q.Get("q"), page, size); err != nil {
			return fmt.Errorf("members: %w", err)
		}
		ids := make([]string, 0, len(ms))
		for _, m := range ms {
			ids = append(ids, m.MemberID)
		}
		statuses, err = realNameStatuses(c.ctx(), rd, ids...)
		return err
	})
	if err != nil {
		return reply{}, err
	}
	items := make([]wire.OpsMember, 0, len(ms))
	for _, m := range ms {
		items = append(items, wire.OpsMember{
			Account: m.Account, Role: wire.Role(m.Role), RealNameStatus: statuses[m.MemberID],
			Flags: flagsOut(m.Flags), CreatedAt: m.CreatedAt.UTC(),
		})
	}
	return ok(wire.OpsMemberPage{Items: items, Page: page, HasMore: more})
}

func (s *server) setFlag(c *call) (reply, error) {
	var req wire.SetFlagRequest
	if err := c.decode("SetFlagRequest", &req); err != nil {
		return reply{}, err
	}
	account := mux.Vars(c.r)["account"]
	res, err := s.cmd.SetAccountFlag(c.ctx(), c.meta(), account, string(req.Flag), req.On, req.Reason)
	if err != nil {
		return reply{}, err
	}
	// The flags after the change: the read model once it has projected this command.
	s.catchUpTo(c.ctx(), res.Position)
	m, err := s.read.MemberByAccount(c.ctx(), account)
	if err != nil {
		return reply{}, fmt.Errorf("member %s: %w", account, err)
	}
	return ok(wire.FlagResult{Account: account, Flags: flagsOut(m.Flags), Position: res.Position})
}

func (s *server) timeline(c *call) (reply, error) {
	account := mux.Vars(c.r)["account"]
	m, err := s.read.MemberByAccount(c.ctx(), account)
	if isNotFound(err) {
		return reply{}, refuse(http.StatusNotFound, wire.MessageKeyAccountNotExist, nil)
	}
	if err != nil {
		return reply{}, fmt.Errorf("member %s: %w", account, err)
	}
	entries, err := audit.Timeline(c.ctx(), s.store, m.MemberID)
	if err != nil {
		return reply{}, fmt.Errorf("timeline of %s: %w", account, err)
	}
	out := make([]wire.TimelineEvent, 0, len(entries))
	for _, e := range entries {
		ps := make([]wire.Posting, 0, len(e.Postings))
		for _, p := range e.Postings {
			ps = append(ps, wire.Posting{Account: p.Account, Currency: p.Currency, Amount: p.Amount.String()})
		}
		bals := make(map[string]wire.Balance, len(e.Balances))
		for cur, b := range e.Balances {
			bals[cur] = wire.Balance{Available: money(b.Available), Frozen: money(b.Frozen)}
		}
		summary := e.Summary
		if summary == nil {
			summary = map[string]any{}
		}
		out = append(out, wire.TimelineEvent{
			Position: e.Position, Stream: e.Stream, Version: e.Version, Type: e.Type, Time: e.Time.UTC(),
			Actor: e.Actor, CommandId: e.CommandID, Summary: summary, Postings: ps, Balances: bals,
		})
	}
	return ok(wire.Timeline{Account: account, Events: out})
}
