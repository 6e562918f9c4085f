package api

import (
	"fmt"

	"github.com/gorilla/mux"

	"github.com/lotbook/lotbook/api/httpx"
	"github.com/lotbook/lotbook/api/wire"
	"github.com/lotbook/lotbook/commands"
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
	res, err := s.cmd.SetAccountFlag(c.Ctx(), c.Meta(), commands.SetFlag{Account: account, Flag: string(req.Flag), On: req.On, Reason: req.Reason})
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
