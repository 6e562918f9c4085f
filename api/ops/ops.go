// Package ops is the HTTP side of ops' own work on member accounts: the member list and the
// account flags (frozen, login, trade or withdrawal banned, disabled). Ops' reviews of deposits,
// withdrawals and identities are those capabilities' routes.
package ops

import (
	"cmp"
	"context"
	"fmt"

	"github.com/lotbook/lotbook/api/httpx"
	"github.com/lotbook/lotbook/api/wire"
	"github.com/lotbook/lotbook/commands"
	"github.com/lotbook/lotbook/events"
	"github.com/lotbook/lotbook/projections"
	"github.com/lotbook/lotbook/projections/funds"
)

// Commands are the write side's operations this module sends (*commands.Service).
type Commands interface {
	SetAccountFlag(ctx context.Context, meta commands.Meta, in commands.SetFlag) (commands.Result, error)
}

// Module serves the member administration routes.
type Module struct {
	cmd  Commands
	read *projections.ReadDB
}

// New is the ops module over the command service and the read models.
func New(cmd Commands, read *projections.ReadDB) *Module { return &Module{cmd: cmd, read: read} }

// Routes are the member administration operations of openapi.yaml.
func (m *Module) Routes() []httpx.Route {
	return []httpx.Route{
		httpx.Op(httpx.Ops, "GET", "/api/vue/ops/members", httpx.IdemNone, m.opsMembers),
		httpx.Op(httpx.Ops, "POST", "/api/vue/ops/members/{account}/flags", httpx.IdemRequired, m.setFlag),
	}
}

func flagsOut(fs []string) []wire.AccountFlag {
	out := make([]wire.AccountFlag, 0, len(fs))
	for _, f := range fs {
		out = append(out, wire.AccountFlag(f))
	}
	return out
}

func (m *Module) opsMembers(c *httpx.Call) (httpx.Reply, error) {
	q := c.R.URL.Query()
	page, size, err := httpx.Paging(q)
	if err != nil {
		return httpx.Reply{}, err
	}
	var ms []projections.Member
	var more bool
	var statuses map[string]string
	err = c.Snapshot(func(rd *projections.Reader) error {
		// Ops find a member by account or by verified real name.
		named, err := funds.VerifiedNamed(c.Ctx(), rd, q.Get("q"))
		if err != nil {
			return fmt.Errorf("members by real name: %w", err)
		}
		if ms, more, err = rd.Members(c.Ctx(), q.Get("q"), page, size, named...); err != nil {
			return fmt.Errorf("members: %w", err)
		}
		ids := make([]string, 0, len(ms))
		for _, mem := range ms {
			ids = append(ids, mem.MemberID)
		}
		if statuses, err = funds.RealNameStatuses(c.Ctx(), rd, ids); err != nil {
			return fmt.Errorf("realname statuses: %w", err)
		}
		return nil
	})
	if err != nil {
		return httpx.Reply{}, err
	}
	items := make([]wire.OpsMember, 0, len(ms))
	for _, mem := range ms {
		items = append(items, wire.OpsMember{
			Account: mem.Account, Role: wire.Role(mem.Role),
			RealNameStatus: wire.RealNameStatus(cmp.Or(statuses[mem.MemberID], events.RealNameStatusUnverified)), // none submitted yet
			Flags:          flagsOut(mem.Flags), CreatedAt: mem.CreatedAt.UTC(),
		})
	}
	return httpx.OK(wire.OpsMemberPage{Items: items, Page: page, HasMore: more})
}

func (m *Module) setFlag(c *httpx.Call) (httpx.Reply, error) {
	var req wire.SetFlagRequest
	if err := c.Decode("SetFlagRequest", &req); err != nil {
		return httpx.Reply{}, err
	}
	account := c.Var("account")
	res, err := m.cmd.SetAccountFlag(c.Ctx(), c.Meta(), commands.SetFlag{Account: account, Flag: string(req.Flag), On: req.On, Reason: req.Reason})
	if err != nil {
		return httpx.Reply{}, err
	}
	// The flags after the change: the read model once it has projected this command.
	c.CatchUpTo(res.Position)
	mem, err := m.read.MemberByAccount(c.Ctx(), account)
	if err != nil {
		return httpx.Reply{}, fmt.Errorf("member %s: %w", account, err)
	}
	return httpx.OK(wire.FlagResult{Account: account, Flags: flagsOut(mem.Flags), Position: res.Position})
}
